#include "servermetrics/ServerSeries.h"
#include "io/LineReader.h"
#include "servermetrics/ServerMetricCatalogue.h"
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>

namespace sb {

namespace {
// One scrape line holds one bounded answer (MetricsScraper's own limit on what it writes).
constexpr qint64 kMaxLineBytes = 64LL * 1024 * 1024;

struct KeyInfo {
    const ServerMetricInfo *info;
    int order; // catalogue order: families, then keys within a family
};

const QHash<QString, KeyInfo> &keyMetrics()
{
    static const QHash<QString, KeyInfo> keys = [] {
        QHash<QString, KeyInfo> out;
        int order = 0;
        for (const ServerMetricFamily &family : serverMetricFamilies())
            for (const ServerMetricInfo &info : family.keys)
                if (info.type != MetricType::Histogram) // buckets: shown as their _sum/_count series
                    out.insert(QString::fromLatin1(info.name), KeyInfo{&info, order++});
        return out;
    }();
    return keys;
}

QString familyOf(const QString &seriesKey)
{
    const qsizetype brace = seriesKey.indexOf(QLatin1Char('{'));
    return brace < 0 ? seriesKey : seriesKey.left(brace);
}
} // namespace

qsizetype ServerSeriesData::pointCount(const QString &key) const
{
    qsizetype n = 0;
    for (const QList<QPointF> &p : points.value(key))
        n += p.size();
    return n;
}

ServerSeriesData readServerSeries(const QString &path)
{
    ServerSeriesData data;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        data.error = QObject::tr("cannot read %1: %2").arg(path, file.errorString());
        return data;
    }
    if (file.size() > ServerSeriesData::kMaxFileBytes)
        data.limits << QObject::tr("the file is %1 MiB: only its first %2 MiB are read")
                           .arg(file.size() >> 20)
                           .arg(ServerSeriesData::kMaxFileBytes >> 20);
    const QHash<QString, KeyInfo> &keys = keyMetrics();
    QHash<QString, int> keyOrder;  // key families seen
    QStringList others;             // other series seen, capped
    QSet<QString> otherSet;
    int droppedOthers = 0;
    LineReader reader(file, kMaxLineBytes);
    QByteArray line;
    while (reader.next(&line)) {
        if (file.pos() > ServerSeriesData::kMaxFileBytes)
            break;
        if (line.isEmpty())
            continue;
        if (data.scrapes >= ServerSeriesData::kMaxScrapes) {
            data.limits << QObject::tr("only the first %1 scrapes are shown").arg(ServerSeriesData::kMaxScrapes);
            break;
        }
        const QJsonDocument doc = QJsonDocument::fromJson(line);
        if (!doc.isObject()) {
            ++data.badLines;
            continue;
        }
        ++data.scrapes;
        const QJsonObject o = doc.object();
        const QJsonObject samples = o.value(QLatin1String("samples")).toObject();
        if (samples.isEmpty()) {
            data.failedScrapes += o.contains(QLatin1String("error"));
            continue;
        }
        const double t = o.value(QLatin1String("t_ns")).toDouble() / 1e9;
        const QString origin = o.value(QLatin1String("origin")).toString();
        QHash<QString, QPair<double, int>> combined; // key family -> (sum, series)
        for (auto it = samples.begin(); it != samples.end(); ++it) {
            if (!it.value().isDouble())
                continue; // "NaN", "+Inf", "-Inf": nothing to draw
            const double v = it.value().toDouble();
            if (!std::isfinite(v))
                continue;
            const QString family = familyOf(it.key());
            if (keys.contains(family)) {
                auto &acc = combined[family];
                acc.first += v;
                acc.second += 1;
                continue;
            }
            if (family.endsWith(QLatin1String("_bucket")))
                continue;
            if (!otherSet.contains(it.key())) {
                if (otherSet.size() >= ServerSeriesData::kMaxOtherSeries) {
                    ++droppedOthers;
                    continue;
                }
                otherSet.insert(it.key());
                others << it.key();
            }
            data.points[it.key()][origin].append({t, v});
        }
        for (auto it = combined.cbegin(); it != combined.cend(); ++it) {
            const ServerMetricInfo *info = keys.value(it.key()).info;
            const double v = info->combine == SeriesCombine::Sum ? it.value().first : it.value().first / it.value().second;
            data.points[it.key()][origin].append({t, v});
            keyOrder.insert(it.key(), keys.value(it.key()).order);
        }
    }
    if (droppedOthers > 0)
        data.limits << QObject::tr("%1 more series are not listed (at most %2 besides the key metrics)")
                           .arg(droppedOthers)
                           .arg(ServerSeriesData::kMaxOtherSeries);
    if (reader.tooLong() > 0)
        data.limits << QObject::tr("%n scrape(s) longer than the line limit skipped", nullptr, reader.tooLong());

    QStringList keyFamilies = keyOrder.keys();
    std::sort(keyFamilies.begin(), keyFamilies.end(), [&](const QString &a, const QString &b) { return keyOrder[a] < keyOrder[b]; });
    for (const QString &family : std::as_const(keyFamilies)) {
        const ServerMetricInfo *info = keys.value(family).info;
        data.entries.append({family, QStringLiteral("%1 (%2)").arg(QString::fromUtf8(info->label), family), true});
    }
    others.sort();
    for (const QString &key : std::as_const(others))
        data.entries.append({key, key, false});
    return data;
}

} // namespace sb
