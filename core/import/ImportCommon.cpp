#include "import/ImportCommon.h"
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonParseError>

namespace sb {

bool readJsonObject(const QString &path, QJsonObject *out, QString *error, qint64 maxBytes)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(QDir::toNativeSeparators(path), f.errorString());
        return false;
    }
    if (f.size() > maxBytes) {
        *error = QStringLiteral("%1 is too large (%2 MiB)").arg(QDir::toNativeSeparators(path)).arg(f.size() / (1024 * 1024));
        return false;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = QStringLiteral("%1 is not a JSON object (%2 at offset %3)")
                     .arg(QDir::toNativeSeparators(path), pe.error == QJsonParseError::NoError ? QStringLiteral("wrong type") : pe.errorString())
                     .arg(pe.offset);
        return false;
    }
    *out = doc.object();
    return true;
}

} // namespace sb
