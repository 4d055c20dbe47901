#include "import/ImportCommon.h"
#include "io/BoundedRead.h"
#include <QDir>
#include <QJsonDocument>
#include <QJsonParseError>

namespace sb {

bool readJsonObject(const QString &path, QJsonObject *out, QString *error, qint64 maxBytes)
{
    // Regular files only, within the cap: /dev/zero or a FIFO is refused at once (io/BoundedRead.h).
    QByteArray bytes;
    if (!readRegularFile(path, maxBytes, &bytes, error))
        return false;
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &pe);
    bytes = QByteArray(); // the text is not needed once parsed: halves the peak for large files
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
