#include "load/CellRecords.h"
#include "io/BoundedRead.h"
#include "io/LineReader.h"
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

namespace sb {

namespace {
// Appends a number field; null/missing (e.g. ttft_ms of a request without a token) is skipped.
void take(const QJsonObject &o, QLatin1String key, QList<double> *out)
{
    const QJsonValue v = o.value(key);
    if (v.isDouble())
        out->append(v.toDouble());
}
} // namespace

CellRecordSamples readCellRecords(const QString &path)
{
    CellRecordSamples s;
    // Results folders may come from anyone: a FIFO or a device named as records is refused
    // without blocking, and no line is read past kMaxRecordLineBytes (io/BoundedRead.h).
    if (!checkRegularFile(path, kMaxArchiveBytes, &s.error))
        return s;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        s.error = QStringLiteral("cannot open %1: %2").arg(path, f.errorString());
        return s;
    }
    LineReader lines(f, kMaxRecordLineBytes);
    QByteArray line;
    while (lines.next(&line)) {
        if (line.isEmpty())
            continue;
        const QJsonDocument doc = QJsonDocument::fromJson(line);
        if (!doc.isObject()) {
            ++s.malformed;
            continue;
        }
        const QJsonObject o = doc.object();
        ++s.records;
        // Only successful requests enter the distributions, as in the summary statistics.
        if (!o.value(QLatin1String("ok")).toBool(true)) {
            ++s.failed;
            continue;
        }
        take(o, QLatin1String("ttft_ms"), &s.ttftMs);
        take(o, QLatin1String("itl_ms"), &s.itlMs);
        take(o, QLatin1String("latency_ms"), &s.latencyMs);
    }
    return s;
}

} // namespace sb
