// records.jsonl has one writer (load/RecordLine) and one reader (load/CellRecords), side by side
// in core: what the engine writes is what the distribution pane reads back.
#include "TestSupport.h"
#include "engine/CellMetrics.h"
#include "load/CellRecords.h"
#include "load/RecordLine.h"
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <random>

using namespace sb;

namespace {
constexpr std::int64_t kMs = 1'000'000;
constexpr std::int64_t kBase = 5'000 * kMs;

RequestRecord record(int ticket, std::int64_t sendMs, std::int64_t firstMs, std::int64_t endMs, int outTokens)
{
    RequestRecord r;
    r.ticket = ticket;
    r.sendNs = kBase + sendMs * kMs;
    r.firstTokenNs = firstMs < 0 ? -1 : kBase + firstMs * kMs;
    r.endNs = kBase + endMs * kMs;
    r.status = 200;
    r.inputTokens = 32;
    r.outputTokens = outTokens;
    r.usageTokens = true;
    return r;
}
} // namespace

class TestRecords : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void whatIsWrittenIsReadBack()
    {
        std::vector<RequestRecord> records{record(0, 0, 40, 250, 11), record(1, 10, 70, 190, 5),
                                           record(2, 20, 35, 36, 1) /* one token: no ITL */};
        RequestRecord failed = record(3, 30, -1, 60, 0);
        failed.status = 500;
        failed.error = ErrorKind::Http;
        records.push_back(failed);
        QByteArray text;
        const std::vector<std::uint32_t> gaps{1200, 800};
        for (const RequestRecord &r : records) {
            RecordLineInput in;
            in.record = &r;
            in.phaseStartNs = kBase - 1000 * kMs;
            in.requestId = "req-" + QByteArray::number(r.ticket);
            in.errorKey = r.ok() ? QByteArray() : QByteArray("http_500");
            in.errorJson = r.ok() ? QByteArray() : QByteArray("\"boom\"");
            in.gapsUs = &gaps;
            appendRecordLine(text, in);
        }
        text += "not json\n";
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("records.jsonl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(text) == text.size());
        f.close();

        const CellRecordSamples s = readCellRecords(path);
        QVERIFY2(s.error.isEmpty(), qPrintable(s.error));
        QCOMPARE(s.records, 4);
        QCOMPARE(s.failed, 1);
        QCOMPARE(s.malformed, 1);
        // The samples are the per-request values the cell's metrics were computed from.
        QCOMPARE(s.ttftMs, (QList<double>{40, 60, 15}));
        QCOMPARE(s.latencyMs, (QList<double>{250, 180, 16}));
        QCOMPARE(s.itlMs.size(), 2);
        for (int i = 0; i < 2; ++i)
            QVERIFY(std::abs(s.itlMs[i] - records[std::size_t(i)].itlMs()) < 1e-3);
    }

    // A record lists at most kMaxRecordGaps gaps; when it had more it says how many it left out,
    // and only then (records of ordinary answers keep their shape).
    void cappedGapListSaysSo()
    {
        const RequestRecord r = record(0, 0, 40, 250, 11);
        const std::vector<std::uint32_t> gaps{1200, 800};
        RecordLineInput in;
        in.record = &r;
        in.gapsUs = &gaps;
        QByteArray line;
        appendRecordLine(line, in);
        QJsonObject o = QJsonDocument::fromJson(line).object();
        QCOMPARE(o.value(QStringLiteral("inter_chunk_us")).toArray().size(), 2);
        QVERIFY(!o.contains(QStringLiteral("inter_chunk_omitted")));
        in.gapsOmitted = 903;
        line.clear();
        appendRecordLine(line, in);
        o = QJsonDocument::fromJson(line).object();
        QCOMPARE(o.value(QStringLiteral("inter_chunk_omitted")).toInt(), 903);
        QCOMPARE(o.value(QStringLiteral("inter_chunk_us")).toArray().size(), 2);
    }

    // Numbers are written as Qt writes them (times in fixed decimals, rounded exactly), lines are
    // JSON, and lines appended to one buffer stay intact however long it grows.
    void numbersAreWrittenExactly()
    {
        std::mt19937_64 rng(7);
        std::uniform_int_distribution<std::int64_t> ns(1, 900'000'000'000LL);
        QByteArray text;
        std::vector<QByteArray> expected;
        for (int k = 0; k < 3000; ++k) {
            RequestRecord r;
            r.ticket = k;
            r.sendNs = kBase + ns(rng) % 1'000'000'000;
            r.firstTokenNs = k % 7 == 0 ? -1 : r.sendNs + ns(rng) % 5'000'000'000;
            r.endNs = std::max(r.firstTokenNs, r.sendNs) + ns(rng) % 90'000'000'000;
            r.status = k % 11 == 0 ? 503 : 200;
            r.error = k % 11 == 0 ? ErrorKind::Http : ErrorKind::None;
            r.outputTokens = int(ns(rng) % 4000);
            r.inputTokens = int(ns(rng) % 100000);
            r.cachedTokens = k % 3 == 0 ? -1 : int(ns(rng) % 100);
            const std::vector<std::uint32_t> gaps{std::uint32_t(ns(rng) % 4'000'000'000u), 0, 17};
            RecordLineInput in;
            in.record = &r;
            in.phaseStartNs = kBase - 123;
            in.requestId = "req-" + QByteArray::number(k);
            in.gapsUs = &gaps;
            appendRecordLine(text, in);
            const auto fixed = [](double v, int d) { return std::isnan(v) ? QByteArray("null") : QByteArray::number(v, 'f', d); };
            expected.push_back("\"ttft_ms\":" + fixed(r.ttftMs(), 3) + ",\"ttfo_ms\":" + fixed(r.ttfoMs(), 3) + ",\"latency_ms\":"
                               + fixed(r.latencyMs(), 3) + ",\"itl_ms\":" + fixed(r.itlMs(), 4) + ",\"status\":" + QByteArray::number(r.status));
            expected.push_back(",\"inter_chunk_us\":[" + QByteArray::number(gaps[0]) + ",0,17]}");
            expected.push_back("\"send_ns\":" + QByteArray::number(r.sendNs - in.phaseStartNs) + ",");
        }
        const QList<QByteArray> lines = text.split('\n');
        QCOMPARE(lines.size(), 3001);
        for (int k = 0; k < 3000; ++k) {
            QJsonParseError error;
            const QJsonObject o = QJsonDocument::fromJson(lines[k], &error).object();
            QVERIFY2(error.error == QJsonParseError::NoError, lines[k].constData());
            QCOMPARE(o.value(QStringLiteral("i")).toInt(), k);
            for (int e = 0; e < 3; ++e)
                QVERIFY2(lines[k].contains(expected[std::size_t(k * 3 + e)]), qPrintable(lines[k] + "\nwants " + expected[std::size_t(k * 3 + e)]));
        }
    }

    void unreadableFileSaysSo()
    {
        QTemporaryDir dir;
        const CellRecordSamples s = readCellRecords(dir.filePath(QStringLiteral("missing.jsonl")));
        QVERIFY(!s.error.isEmpty());
        QCOMPARE(s.records, 0);
    }
};

QTEST_GUILESS_MAIN(TestRecords)
#include "tst_records.moc"
