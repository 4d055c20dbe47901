// Time-sliced metrics per cell (metrics/TimeSlices.h): exact per-slice counts, tokens, in-flight
// means and TTFT percentiles of a known set of requests; the slice widens past kMaxTimeSlices;
// results.json round-trips them.
#include "TestSupport.h"
#include "engine/TimeSlices.h"
#include "results/Results.h"
#include <QJsonObject>
#include <QTest>

using namespace sb;

namespace {
constexpr std::int64_t kS = 1'000'000'000;
constexpr std::int64_t kBase = 100 * kS; // steady-clock times are large; slices count from the first send

RequestRecord req(int ticket, double sendS, double ttftS, double endS, int tokens, ErrorKind error = ErrorKind::None)
{
    RequestRecord r;
    r.ticket = ticket;
    r.sendNs = kBase + std::int64_t(sendS * kS);
    r.firstTokenNs = error == ErrorKind::None ? kBase + std::int64_t((sendS + ttftS) * kS) : -1;
    r.endNs = kBase + std::int64_t(endS * kS);
    r.outputTokens = tokens;
    r.status = error == ErrorKind::None ? 200 : 500;
    r.error = error;
    return r;
}
} // namespace

class TstTimeSlices : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void knownRequests()
    {
        // Slice 0 [0,1): two sends; slice 1 [1,2): one send, a failure ends; slice 2 [2,2.5]: the rest.
        const std::vector<RequestRecord> records{
            req(0, 0.0, 0.1, 0.5, 10),                  // all in slice 0
            req(1, 0.5, 0.2, 1.5, 20),                  // 0.5 s in slice 0, 0.5 s in slice 1
            req(2, 1.0, 0.0, 1.25, 0, ErrorKind::Http), // fails in slice 1
            req(3, 1.5, 0.3, 2.5, 30),                  // 0.5 s in slice 1, 0.5 s in slice 2 (which is 0.5 s long)
        };
        const std::vector<TimeSlice> s = computeTimeSlices(records);
        QCOMPARE(s.size(), std::size_t(3));
        QCOMPARE(s[0].sent, 2);
        QCOMPARE(s[0].completed, 1);
        QCOMPARE(s[0].outputTokens, std::int64_t(10));
        QCOMPARE(s[0].meanInFlight, 1.0);           // 0.5 + 0.5 request-seconds over 1 s
        QCOMPARE(s[0].ttftP50Ms, 150.0);            // of 100 and 200 ms
        QCOMPARE(s[1].sent, 2);
        QCOMPARE(s[1].completed, 1);
        QCOMPARE(s[1].failed, 1);
        QCOMPARE(s[1].outputTokens, std::int64_t(20));
        QCOMPARE(s[1].meanInFlight, 1.25);          // 0.5 + 0.25 + 0.5
        QCOMPARE(s[1].ttftP50Ms, 300.0);            // the failed one has no TTFT
        QCOMPARE(s[2].sent, 0);
        QCOMPARE(s[2].completed, 1);
        QCOMPARE(s[2].lengthS, 0.5);
        QCOMPARE(s[2].meanInFlight, 1.0);           // 0.5 request-seconds over its 0.5 s
        QCOMPARE(s[2].ttftP50Ms, -1.0);
        const QJsonArray json = timeSlicesJson(s);
        QCOMPARE(json[2].toObject().value("output_token_throughput").toDouble(), 60.0); // 30 tokens in 0.5 s
        QVERIFY(json[2].toObject().value("ttft_p50_ms").isNull());
        // Read back through the one reader: the same slices.
        const std::vector<TimeSlice> back = timeSlicesFromJson(json);
        QCOMPARE(back.size(), s.size());
        for (std::size_t i = 0; i < s.size(); ++i) {
            QCOMPARE(back[i].startS, s[i].startS);
            QCOMPARE(back[i].lengthS, s[i].lengthS);
            QCOMPARE(back[i].sent, s[i].sent);
            QCOMPARE(back[i].completed, s[i].completed);
            QCOMPARE(back[i].failed, s[i].failed);
            QCOMPARE(back[i].outputTokens, s[i].outputTokens);
            QCOMPARE(back[i].meanInFlight, s[i].meanInFlight);
            QCOMPARE(back[i].ttftP50Ms, s[i].ttftP50Ms);
            QCOMPARE(back[i].ttftP99Ms, s[i].ttftP99Ms);
        }
        QCOMPARE(sliceThroughput(back[2]), 60.0);
    }

    void sliceWidensForLongPhases()
    {
        std::vector<RequestRecord> records;
        for (int i = 0; i < 600; ++i) // ten minutes, one request a second
            records.push_back(req(i, i, 0.01, i + 0.5, 1));
        const std::vector<TimeSlice> s = computeTimeSlices(records);
        QVERIFY(int(s.size()) <= kMaxTimeSlices);
        QCOMPARE(s[0].lengthS, 5.0);
        QCOMPARE(s[0].sent, 5);
        QVERIFY(computeTimeSlices({}).empty());
    }

    void storedInResults()
    {
        CellResult c;
        c.timeSlices = computeTimeSlices({req(0, 0, 0.1, 0.5, 10)});
        const CellResult back = cellResultFromJson(toJson(c));
        QCOMPARE(back.timeSlices, c.timeSlices);
        QVERIFY(!toJson(CellResult()).contains("time_slices"));
    }
};

QTEST_GUILESS_MAIN(TstTimeSlices)
#include "tst_time_slices.moc"
