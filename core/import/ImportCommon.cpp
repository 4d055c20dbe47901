#include "import/ImportCommon.h"
#include <QRegularExpression>
#include "io/BoundedJson.h"
#include <algorithm>
#include <cmath>
#include <limits>

namespace sb {

bool readJsonObject(const QString &path, QJsonObject *out, QString *error, qint64 maxBytes)
{
    // Regular files only, within the caps: /dev/zero or a FIFO is refused at once (io/BoundedJson.h).
    JsonFileCaps caps;
    caps.maxBytes = maxBytes;
    return readJsonFile(path, out, error, caps);
}

namespace {
QString jsonTypeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return QStringLiteral("a boolean");
    case QJsonValue::Double: return QStringLiteral("a number");
    case QJsonValue::String: return QStringLiteral("a string");
    case QJsonValue::Array: return QStringLiteral("an array");
    case QJsonValue::Object: return QStringLiteral("an object");
    case QJsonValue::Undefined: break;
    }
    return QStringLiteral("nothing (the key is missing)");
}
} // namespace

bool ImportSource::fail(const QString &keyPath, const QString &expected, const QJsonValue &found) const
{
    if (error)
        *error = QStringLiteral("%1: %2: expected %3, found %4").arg(file, keyPath, expected, jsonTypeName(found));
    return false;
}

bool importObject(const ImportSource &src, const QJsonValue &v, const QString &keyPath, QJsonObject *out)
{
    if (!v.isObject())
        return src.fail(keyPath, QStringLiteral("an object"), v);
    *out = v.toObject();
    return true;
}

bool importArray(const ImportSource &src, const QJsonValue &v, const QString &keyPath, QJsonArray *out)
{
    if (!v.isArray())
        return src.fail(keyPath, QStringLiteral("an array"), v);
    *out = v.toArray();
    return true;
}

bool importNumber(const ImportSource &src, const QJsonValue &v, const QString &keyPath, double *out, bool optional)
{
    if (v.isDouble()) {
        *out = v.toDouble();
        return true;
    }
    if (optional && (v.isNull() || v.isUndefined())) {
        *out = std::nan("");
        return true;
    }
    return src.fail(keyPath, QStringLiteral("a number"), v);
}

int importCount(double v)
{
    if (!(v > 0))
        return 0;
    return v >= double(std::numeric_limits<int>::max()) ? std::numeric_limits<int>::max() : int(v);
}

MetricStats emptyMetricStats(const QString &unit)
{
    MetricStats s;
    s.unit = unit;
    const double nan = std::nan("");
    s.avg = s.min = s.max = s.std = nan;
    s.p1 = s.p5 = s.p10 = s.p25 = s.p50 = s.p75 = s.p90 = s.p95 = s.p99 = nan;
    return s;
}

bool setNamedStat(MetricStats *s, QStringView stat, double v)
{
    // Other tools' spellings of our stats; anything else must be one of ours (statFromName).
    std::optional<Stat> which;
    if (stat == u"mean")
        which = Stat::Avg;
    else if (stat == u"median")
        which = Stat::P50;
    else if (stat == u"std_dev" || stat == u"stddev")
        which = Stat::Std;
    else
        which = statFromName(stat);
    if (!which || *which == Stat::Count)
        return false;
    s->set(*which, v);
    return true;
}

bool importFlatStats(const ImportSource &src, const QJsonValue &v, const QString &keyPath, const QString &unit, double scale,
                     MetricStats *out)
{
    QJsonObject o;
    if (!importObject(src, v, keyPath, &o))
        return false;
    *out = emptyMetricStats(unit);
    double mean = 0;
    if (!importNumber(src, o.value(QStringLiteral("mean")), keyPath + QStringLiteral(".mean"), &mean))
        return false;
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (it.value().isNull())
            continue;
        double x = 0;
        if (!importNumber(src, it.value(), keyPath + QLatin1Char('.') + it.key(), &x))
            return false;
        setNamedStat(out, it.key(), x * scale);
    }
    return true;
}

void noteUnmappedFields(CellResult *cell, const QString &tool, QStringList fields)
{
    fields.sort();
    fields.removeDuplicates();
    if (fields.isEmpty())
        return;
    const qsizetype more = fields.size() - kMaxListedFields;
    if (more > 0)
        fields.erase(fields.begin() + kMaxListedFields, fields.end());
    QString text = QStringLiteral("%1 fields not mapped: %2").arg(tool, fields.join(QStringLiteral(", ")));
    if (more > 0)
        text += QStringLiteral(" and %1 more").arg(more);
    cell->warnings.append(text);
}

void finishImportedCells(SweepResults *r)
{
    auto rate = [](const CellResult &c) { return c.openLoop ? c.openLoop->targetRate : 0.0; };
    std::stable_sort(r->cells.begin(), r->cells.end(), [&](const CellResult &a, const CellResult &b) {
        if (a.server != b.server)
            return a.server < b.server;
        if (a.concurrency != b.concurrency)
            return a.concurrency < b.concurrency;
        return rate(a) < rate(b);
    });
    for (int i = 0; i < r->cells.size(); ++i) {
        CellResult &c = r->cells[i];
        c.index = i;
        if (c.startedAt.isValid() && (!r->startedAt.isValid() || c.startedAt < r->startedAt))
            r->startedAt = c.startedAt;
        if (c.finishedAt.isValid() && (!r->finishedAt.isValid() || c.finishedAt > r->finishedAt))
            r->finishedAt = c.finishedAt;
    }
}

void publishImport(LoadedResults *out, SweepResults r, const QString &folder, const QString &displayName)
{
    finishImportedCells(&r);
    out->results = std::move(r);
    out->folder = folder;
    out->displayName = displayName;
}

QString importedCommand(const QString &command)
{
    QString out = command.left(2000);
    // --api-key VALUE, --api_key=VALUE, --hf-token 'VALUE', ...: the value, quoted or not.
    static const QRegularExpression option(
        QStringLiteral("(--?[A-Za-z0-9_-]*(?:api[-_]?key|token|password|secret))(=|\\s+)('[^']*'|\"[^\"]*\"|\\S+)"),
        QRegularExpression::CaseInsensitiveOption);
    out.replace(option, QStringLiteral("\\1\\2[redacted]"));
    // A header given on the command line: "Authorization: Bearer sk-...", "x-api-key: ..."
    static const QRegularExpression header(QStringLiteral("((?:authorization|[a-z-]*api-key)\\s*:\\s*)[^'\"\\n]+"),
                                           QRegularExpression::CaseInsensitiveOption);
    out.replace(header, QStringLiteral("\\1[redacted]"));
    return out;
}

QString importedSettings(const QList<QPair<QString, QString>> &settings)
{
    QStringList parts;
    for (const auto &[key, value] : settings)
        if (!value.isEmpty() && value != QLatin1String("None") && value != QLatin1String("null"))
            parts << key + QLatin1Char(' ') + value.left(200);
    return importedCommand(parts.join(QStringLiteral(", ")));
}

} // namespace sb
