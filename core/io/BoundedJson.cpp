#include "io/BoundedJson.h"
#include "io/BoundedRead.h"
#include "io/JsonScan.h"
#include <QDir>
#include <QJsonDocument>
#include <QJsonParseError>
#include <cmath>

namespace sb {

bool readJsonFile(const QString &path, QJsonObject *out, QString *error, const JsonFileCaps &caps)
{
    QByteArray bytes;
    if (!readRegularFile(path, caps.maxBytes, &bytes, error))
        return false;
    const QString name = QDir::toNativeSeparators(path);
    const JsonShape shape = scanJsonShape(bytes, caps.arrayKey);
    if (!caps.arrayKey.isEmpty() && shape.arrayItems > caps.maxItems) {
        *error = QStringLiteral("%1: %2 %3 (the limit is %4)").arg(name).arg(shape.arrayItems).arg(QLatin1String(caps.itemName)).arg(caps.maxItems);
        return false;
    }
    if (!caps.arrayKey.isEmpty() && caps.maxItemValues > 0 && shape.largestItemValues > caps.maxItemValues) {
        *error = QStringLiteral("%1: %2[%3] holds %4 JSON values (the limit for one of its %5 is %6)")
                     .arg(name, QString::fromLatin1(caps.arrayKey.toByteArray()))
                     .arg(shape.largestItemIndex)
                     .arg(shape.largestItemValues)
                     .arg(QLatin1String(caps.itemName))
                     .arg(caps.maxItemValues);
        return false;
    }
    if (shape.values > caps.maxValues) {
        *error = QStringLiteral("%1 holds %2 JSON values (the limit is %3)").arg(name).arg(shape.values).arg(caps.maxValues);
        return false;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &pe);
    bytes = QByteArray(); // the text is not needed once parsed: lowers the peak for large files
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = QStringLiteral("%1 is not a JSON object (%2 at offset %3)")
                     .arg(name, pe.error == QJsonParseError::NoError ? QStringLiteral("wrong type") : pe.errorString())
                     .arg(pe.offset);
        return false;
    }
    *out = doc.object();
    return true;
}

std::optional<qint64> jsonWholeNumber(const QJsonValue &v, qint64 lo, qint64 hi)
{
    if (!v.isDouble())
        return std::nullopt;
    const double d = v.toDouble();
    if (!(d >= double(lo) && d <= double(hi)) || d != std::floor(d))
        return std::nullopt;
    return qint64(d);
}

} // namespace sb
