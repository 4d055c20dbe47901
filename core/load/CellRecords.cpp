#include "load/CellRecords.h"
#include "io/BoundedRead.h"
#include "io/LineReader.h"
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace sb {

namespace {
// Appends a number field; null/missing (e.g. ttft_ms of a request without a token) is skipped.
void take(const QJsonObject &o, QLatin1String key, QList<double> *out, QList<int> *turns, int turn)
{
    const QJsonValue v = o.value(key);
    if (!v.isDouble())
        return;
    out->append(v.toDouble());
    if (turn > 0)
        turns->append(turn);
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
        // A turn only when every line has one: the turn lists stay parallel to the samples.
        const int turn = o.value(QLatin1String("turn")).toInt(0);
        if (turn <= 0 && s.maxTurn > 0)
            s.maxTurn = -1;
        if (s.maxTurn >= 0 && turn > 0)
            s.maxTurn = std::max(s.maxTurn, std::min(turn, 32767));
        const int kept = s.maxTurn > 0 ? turn : 0;
        take(o, QLatin1String("ttft_ms"), &s.ttftMs, &s.ttftTurns, kept);
        take(o, QLatin1String("itl_ms"), &s.itlMs, &s.itlTurns, kept);
        take(o, QLatin1String("latency_ms"), &s.latencyMs, &s.latencyTurns, kept);
        take(o, QLatin1String("ttfo_ms"), &s.ttfoMs, &s.ttfoTurns, kept);
        s.reasoned = s.reasoned || o.value(QLatin1String("reasoning_tokens")).toDouble() > 0;
    }
    if (s.maxTurn <= 0 || s.ttftTurns.size() != s.ttftMs.size() || s.itlTurns.size() != s.itlMs.size()
        || s.latencyTurns.size() != s.latencyMs.size() || s.ttfoTurns.size() != s.ttfoMs.size()) { // mixed lines: no split
        s.maxTurn = 0;
        s.ttftTurns.clear();
        s.itlTurns.clear();
        s.latencyTurns.clear();
        s.ttfoTurns.clear();
    }
    return s;
}

} // namespace sb
