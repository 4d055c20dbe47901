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
