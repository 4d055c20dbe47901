// Multi-turn chat sessions and several shared prefixes (workload.sessions,
// workload.shared_prefix_count): the spec keys, the requests the real engine sends over loopback
// (each turn carries the earlier turns and the server's own answers), the records, the per-turn
// rows, and the prefix-cache share set against the ideal.
#include "EngineFixture.h"
#include "ChatSessionServer.h"
#include "TestSupport.h"
#include "engine/CacheEffectStats.h"
#include "engine/ServerIdentity.h"
#include "load/RequestFactory.h"
#include "mock/MockServer.h"
#include "spec/SpecIO.h"
#include "workload/WorkloadPlan.h"
#include "tst_spec_helpers.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <mutex>

using namespace sb;

namespace {

QString contentOf(const QJsonObject &m) { return m.value(QStringLiteral("content")).toString(); }

// The chat server of these tests: pieces "a<request>-<i> ", the first with a quote and a
// backslash, and cached tokens as a perfect prefix cache would report them.
struct SessionServer : sbtest::ChatSessionServer {
    SessionServer() : ChatSessionServer({'a', true, true}) {}
};

SweepSpec sessionSpec(const QString &url, int turns, int thinkMs, int requests, int concurrency)
{
    SweepSpec spec = sbtest::smallSpec({sbtest::serverAt(url, QStringLiteral("s"))}, {concurrency}, requests);
    SessionSpec s;
    s.turns = turns;
    s.thinkTimeMs = thinkMs;
    s.header = QStringLiteral("X-Session-ID");
    s.followUpTokens = 12; // short follow-ups after a 32-token first message
    spec.workload.sessions = s;
    spec.workload.outputTokens = 4;
    return spec;
}

QList<QJsonObject> recordsOf(const QString &outDir, const CellResult &cell)
{
    QList<QJsonObject> out;
    for (const QByteArray &line : sbtest::readFile(outDir + QLatin1Char('/') + cell.recordsPath).split('\n'))
        if (!line.trimmed().isEmpty())
            out.append(QJsonDocument::fromJson(line).object());
    return out;
}

RequestRecord rec(std::int64_t send, std::int64_t end, int input, int cached, int prefix, int turn = 0, int history = -1)
{
    RequestRecord r;
    r.sendNs = send;
    r.endNs = end;
    r.firstTokenNs = send + 1;
    r.inputTokens = input;
    r.outputTokens = 4;
    r.usageTokens = true;
    r.cachedTokens = std::int32_t(cached);
    r.prefix = std::int16_t(prefix);
    r.turn = std::int16_t(turn);
    r.historyTokens = history;
    return r;
}

} // namespace

class TestSessions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void specKeysLoadWriteAndReload()
    {
        const QByteArray yaml = QByteArray(spectest::kMinimal) + R"(workload:
  prompts: shared_prefix
  input_tokens: 64
  shared_prefix_tokens: 16
  shared_prefix_count: 4
  sessions:
    turns: {min: 2, max: 5}
    think_time_ms: 250
    follow_up_tokens: 12
    history: full
    session_header: X-Session-ID
)";
        const SpecLoadResult r = loadSpecText(yaml);
        QVERIFY2(r.spec && r.diagnostics.isEmpty(), qPrintable(spectest::dump(r.diagnostics)));
        const WorkloadSpec &w = r.spec->workload;
        QCOMPARE(w.sharedPrefixCount, 4);
        QVERIFY(w.sessions);
        QVERIFY(w.sessions->turnsDist);
        QCOMPARE(w.sessions->turnsDist->min, 2);
        QCOMPARE(w.sessions->turnsDist->max, 5);
        QCOMPARE(w.sessions->thinkTimeMs, 250);
        QCOMPARE(w.sessions->followUpTokens, 12);
        QCOMPARE(w.sessions->header, QStringLiteral("X-Session-ID"));
        const SpecLoadResult again = loadSpecText(saveSpecYaml(*r.spec));
        QVERIFY2(again.spec && again.diagnostics.isEmpty(), qPrintable(spectest::dump(again.diagnostics)));
        QCOMPARE(again.spec->workload.sharedPrefixCount, 4);
        QCOMPARE(again.spec->workload.sessions->turnsDist->describe(), w.sessions->turnsDist->describe());
        QCOMPARE(again.spec->workload.sessions->thinkTimeMs, 250);
        QCOMPARE(again.spec->workload.sessions->followUpTokens, 12);
        QCOMPARE(calibrationTargets(w, nullptr), (QList<int>{12, 16, 64})); // follow-ups and the prefix are calibrated too
        QCOMPARE(again.spec->workload.sessions->header, w.sessions->header);
        // Turns are drawn per session from the seed: the same on every run, inside [min, max].
        QSet<int> drawn;
        for (int s = 0; s < 200; ++s) {
            const int t = w.sessions->turnsOf(std::uint64_t(w.seed), s);
            QCOMPARE(t, w.sessions->turnsOf(std::uint64_t(w.seed), s));
            QVERIFY(t >= 2 && t <= 5);
            drawn.insert(t);
        }
        QCOMPARE(drawn.size(), 4);
    }

    void badSessionKeysAreLocatedErrors_data()
    {
        QTest::addColumn<QByteArray>("workload");
        QTest::addColumn<QString>("key");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("text");
        QTest::newRow("turns 0") << QByteArray("  sessions: {turns: 0}\n") << QStringLiteral("workload.sessions.turns") << 8
                                 << QStringLiteral("from 1 to 1000");
        QTest::newRow("think negative") << QByteArray("  sessions: {turns: 2, think_time_ms: -5}\n")
                                        << QStringLiteral("workload.sessions.think_time_ms") << 8 << QStringLiteral("from 0 to");
        QTest::newRow("history") << QByteArray("  sessions: {turns: 2, history: last}\n") << QStringLiteral("workload.sessions.history") << 8
                                 << QStringLiteral("full");
        QTest::newRow("header") << QByteArray("  sessions: {turns: 2, session_header: \"X Bad: y\"}\n")
                                << QStringLiteral("workload.sessions.session_header") << 8 << QStringLiteral("HTTP header name");
        QTest::newRow("not a map") << QByteArray("  sessions: 4\n") << QStringLiteral("workload.sessions") << 8 << QStringLiteral("a mapping");
        QTest::newRow("count without prefix") << QByteArray("  shared_prefix_count: 3\n") << QStringLiteral("workload.shared_prefix_count") << 8
                                              << QStringLiteral("only allowed with prompts: shared_prefix");
    }
    void badSessionKeysAreLocatedErrors()
    {
        QFETCH(QByteArray, workload);
        QFETCH(QString, key);
        QFETCH(int, line);
        QFETCH(QString, text);
        const SpecLoadResult r = loadSpecText(QByteArray(spectest::kMinimal) + "workload:\n" + workload);
        QVERIFY(!r.spec || !r.diagnostics.isEmpty());
        bool found = false;
        for (const SpecDiagnostic &d : r.diagnostics)
            found = found || (d.keyPath == key && d.line == line && d.message.contains(text) && d.isError());
        QVERIFY2(found, qPrintable(spectest::dump(r.diagnostics)));
    }

    void sessionsNeedTheChatEndpoint()
    {
        const SpecLoadResult r = loadSpecText(QByteArray(spectest::kMinimal).replace("model: m", "model: m\n    endpoint: completions") +
                                              "workload:\n  sessions: {turns: 2}\n");
        bool found = false;
        for (const SpecDiagnostic &d : r.diagnostics)
            found = found || (d.keyPath == QLatin1String("servers[0].endpoint") && d.message.contains(QLatin1String("endpoint: chat")));
        QVERIFY2(found, qPrintable(spectest::dump(r.diagnostics)));
    }

    void eachTurnCarriesTheConversationSoFar()
    {
        SessionServer server;
        QTemporaryDir dir;
        const SweepSpec spec = sessionSpec(QString::fromLatin1(server.server.url()), 3, 120, 12, 2);
        const auto r = sbtest::runSweep(spec, dir.path());
        QCOMPARE(r.exitCode, 0);
        const CellResult &cell = r.results.cells.at(0);
        QCOMPARE(cell.status, CellStatus::Completed);
        QCOMPARE(cell.completed, 12);

        std::lock_guard lock(server.mutex);
        QCOMPARE(server.seen.size(), 12);
        // Group the requests by the session header: 4 sessions of 3 turns (a fifth may have
        // begun if one connection ran ahead, and the request count then cut two sessions short).
        QMap<QByteArray, QList<int>> bySession;
        for (int i = 0; i < server.seen.size(); ++i)
            bySession[hostile::headerValue(server.seen[i].head, "X-Session-ID")].append(i);
        QVERIFY2(bySession.size() == 4 || bySession.size() == 5, qPrintable(QString::number(bySession.size())));
        const int sessions = int(bySession.size());
        for (auto it = bySession.cbegin(); it != bySession.cend(); ++it) {
            QVERIFY2(!it.key().isEmpty(), "every turn names its session");
            const QList<int> &turns = it.value();
            QVERIFY(turns.size() >= 1 && turns.size() <= 3);
            for (int t = 1; t < turns.size(); ++t) {
                const auto &prev = server.seen[turns[t - 1]];
                const auto &cur = server.seen[turns[t]];
                const QJsonArray before = prev.body.value(QStringLiteral("messages")).toArray();
                const QJsonArray now = cur.body.value(QStringLiteral("messages")).toArray();
                QCOMPARE(now.size(), before.size() + 2);
                for (int m = 0; m < before.size(); ++m)
                    QCOMPARE(now.at(m).toObject(), before.at(m).toObject()); // the history as it was sent
                // The server's own answer, every piece in order, unescaped back to what it said.
                const QJsonObject answer = now.at(before.size()).toObject();
                QCOMPARE(answer.value(QStringLiteral("role")).toString(), QStringLiteral("assistant"));
                const int n = turns[t - 1];
                QCOMPARE(contentOf(answer), QStringLiteral("a%1-0 \"q\\ a%1-1 a%1-2 a%1-3 ").arg(n));
                QCOMPARE(now.at(now.size() - 1).toObject().value(QStringLiteral("role")).toString(), QStringLiteral("user"));
                // A new message, follow_up_tokens long (uncalibrated here: that many words).
                const QString asked = contentOf(now.at(now.size() - 1).toObject());
                QVERIFY(asked != contentOf(before.at(before.size() - 1).toObject()));
                QCOMPARE(asked.split(QLatin1Char(' '), Qt::SkipEmptyParts).size(), 10 + 11); // 10 spaced digits, 11 words
                if (t == 1)
                    QVERIFY(contentOf(before.at(0).toObject()).split(QLatin1Char(' '), Qt::SkipEmptyParts).size() > 30);
                // The next turn waited for the whole answer and the think time.
                QVERIFY2(cur.atMs - prev.atMs >= 110, qPrintable(QString::number(cur.atMs - prev.atMs)));
            }
        }

        // Records: session, turn and the history's tokens as the server counted them.
        const QList<QJsonObject> records = recordsOf(dir.path(), cell);
        QCOMPARE(records.size(), 12);
        QMap<int, QList<QJsonObject>> recBySession;
        for (const QJsonObject &o : records)
            recBySession[o.value(QStringLiteral("session_id")).toInt(-1)].append(o);
        QCOMPARE(int(recBySession.size()), sessions);
        for (auto it = recBySession.begin(); it != recBySession.end(); ++it) {
            QList<QJsonObject> &turns = it.value();
            std::sort(turns.begin(), turns.end(), [](const QJsonObject &a, const QJsonObject &b) {
                return a.value(QStringLiteral("turn")).toInt() < b.value(QStringLiteral("turn")).toInt();
            });
            for (int t = 0; t < turns.size(); ++t)
                QCOMPARE(turns[t].value(QStringLiteral("turn")).toInt(), t + 1);
            QVERIFY(turns[0].value(QStringLiteral("history_tokens")).isNull());
            for (int t = 1; t < turns.size(); ++t)
                QCOMPARE(turns[t].value(QStringLiteral("history_tokens")).toInt(),
                         turns[t - 1].value(QStringLiteral("input_tokens")).toInt() + turns[t - 1].value(QStringLiteral("output_tokens")).toInt());
        }

        // Per turn: one row each; the first turn has nothing cached, later ones their history.
        QCOMPARE(int(cell.byTurn.size()), 3);
        int total = 0;
        for (int t = 0; t < 3; ++t) {
            QCOMPARE(cell.byTurn[std::size_t(t)].turn, t + 1);
            total += cell.byTurn[std::size_t(t)].completed;
        }
        QCOMPARE(total, 12);
        QCOMPARE(cell.byTurn[0].completed, sessions);
        QCOMPARE(cell.byTurn[0].cachedTokensAvg, 0.0);
        QCOMPARE(cell.byTurn[0].historyTokensAvg, -1.0);
        QVERIFY(cell.byTurn[2].cachedTokensAvg > cell.byTurn[1].cachedTokensAvg);
        QVERIFY(cell.byTurn[2].inputTokensAvg > cell.byTurn[1].inputTokensAvg);
        QVERIFY(cell.prefixCache);
        QVERIFY(cell.prefixCache->sessions);
        QVERIFY(cell.prefixCache->idealShare > 0.2);
        QVERIFY2(std::abs(cell.prefixCache->reportedShare - cell.prefixCache->idealShare) < 0.05 * cell.prefixCache->idealShare,
                 qPrintable(QStringLiteral("%1 vs %2").arg(cell.prefixCache->reportedShare).arg(cell.prefixCache->idealShare)));
        // Think times between turns are the sessions' own, not a client that fell short of C.
        for (const QString &w : cell.warnings)
            QVERIFY2(!w.contains(QLatin1String("achieved concurrency")), qPrintable(w));

        // results.json keeps both and reads them back.
        SweepResults back;
        QString error;
        QVERIFY2(sweepResultsFromJson(toJson(r.results), &back, &error), qPrintable(error));
        QCOMPARE(back.cells.at(0).byTurn, cell.byTurn);
        QCOMPARE(*back.cells.at(0).prefixCache, *cell.prefixCache);
    }

    void aFailedTurnEndsItsSession()
    {
        // Every third request fails: its session does not go on with a history the server never had.
        std::atomic<int> n{0};
        std::mutex mutex;
        QList<QJsonObject> bodies;
        hostile::Server server([&](hostile::Conn &c) {
            while (true) {
                const QByteArray req = c.readRequest();
                if (req.isEmpty())
                    return;
                const QJsonObject body = QJsonDocument::fromJson(req.mid(req.indexOf("\r\n\r\n") + 4)).object();
                if (!body.contains(QStringLiteral("messages"))) { // the engine's preflight
                    if (!c.write(hostile::jsonResponse(200, "{\"data\":[{\"id\":\"m\"}]}")))
                        return;
                    continue;
                }
                {
                    std::lock_guard lock(mutex);
                    bodies.append(body);
                }
                const bool fail = n++ % 3 == 1;
                if (!c.write(fail ? hostile::jsonResponse(500, "{\"error\":{\"message\":\"boom\"}}") : hostile::sseResponse(hostile::sseBody(4))))
                    return;
            }
        });
        QTemporaryDir dir;
        const SweepSpec spec = sessionSpec(QString::fromLatin1(server.url()), 3, 0, 9, 1);
        const auto r = sbtest::runSweep(spec, dir.path());
        QVERIFY2(r.exitCode >= 0, qPrintable(r.failure)); // degraded by the failures, but run to the end
        std::lock_guard lock(mutex);
        QCOMPARE(bodies.size(), 9);
        // One connection: request 1 (turn 2 of session 0) failed, so request 2 opens a new session.
        QCOMPARE(bodies[1].value(QStringLiteral("messages")).toArray().size(), 3);
        QCOMPARE(bodies[2].value(QStringLiteral("messages")).toArray().size(), 1);
    }

    void sharedPrefixesAreDistinctAndSeeded()
    {
        ServerSpec server;
        server.model = QStringLiteral("m");
        WorkloadSpec w;
        w.inputTokens = 64;
        w.prompts = PromptMode::SharedPrefix;
        w.sharedPrefixTokens = 24;
        w.sharedPrefixCount = 4;
        w.seed = 3;
        const ServerTarget target = resolveTarget(QStringLiteral("http://127.0.0.1:1"), Endpoint::Chat);
        const RequestFactory f(server, target, w, "tag");
        QCOMPARE(f.prefixCount(), 4);
        QMap<int, QString> prefixText;
        QMap<int, int> uses;
        for (int t = 0; t < 400; ++t) {
            const int p = f.prefixFor(t);
            QCOMPARE(p, RequestFactory(server, target, w, "other").prefixFor(t)); // the same draw on every cell
            QVERIFY(p >= 0 && p < 4);
            ++uses[p];
            const QString prompt = contentOf(QJsonDocument::fromJson(f.body(t)).object().value(QStringLiteral("messages")).toArray().at(0).toObject());
            const QString lead = prompt.section(QLatin1Char(' '), 0, 23);
            if (prefixText.contains(p))
                QCOMPARE(lead, prefixText.value(p)); // the same 24 words for every request of a prefix
            prefixText.insert(p, lead);
        }
        QCOMPARE(uses.size(), 4);
        for (int n : uses)
            QVERIFY2(n > 60, qPrintable(QString::number(n))); // about 100 each
        // Distinct from their first word: no cache block is shared between prefixes.
        QSet<QString> first;
        for (const QString &t : prefixText)
            first.insert(t.section(QLatin1Char(' '), 0, 0));
        QCOMPARE(first.size(), 4);
        w.seed = 4;
        int moved = 0;
        for (int t = 0; t < 40; ++t)
            moved += RequestFactory(server, target, w, "tag").prefixFor(t) != f.prefixFor(t);
        QVERIFY(moved > 10);
    }

    void calibratedPrefixesTakeTheirCharactersFromTheFiller()
    {
        ServerSpec server;
        server.model = QStringLiteral("m");
        WorkloadSpec w;
        w.inputTokens = 100;
        w.prompts = PromptMode::SharedPrefix;
        w.sharedPrefixTokens = 40;
        w.sharedPrefixCount = 2;
        const ServerTarget target = resolveTarget(QStringLiteral("http://127.0.0.1:1"), Endpoint::Chat);
        // Calibrated at 5 characters a token: 100 tokens = 500 filler characters.
        const auto plan = std::make_shared<const WorkloadPlan>(w, FillerMap({{100, 500}}));
        RequestFactory f(server, target, w, "tag");
        f.usePlan(plan, false);
        WorkloadSpec unique = w;
        unique.prompts = PromptMode::Unique;
        unique.sharedPrefixTokens = 0;
        unique.sharedPrefixCount = 1;
        RequestFactory plain(server, target, unique, "tag");
        plain.usePlan(std::make_shared<const WorkloadPlan>(unique, FillerMap({{100, 500}})), false);
        QVERIFY(f.prefixCalibrated());
        for (int t = 0; t < 8; ++t) {
            const QString prompt = contentOf(QJsonDocument::fromJson(f.body(t)).object().value(QStringLiteral("messages")).toArray().at(0).toObject());
            const QString unique = contentOf(QJsonDocument::fromJson(plain.body(t)).object().value(QStringLiteral("messages")).toArray().at(0).toObject());
            // The prefix is 40 tokens' worth of characters, and the whole prompt keeps its length.
            QCOMPARE(prompt.size(), unique.size());
            // the unique lead (10 spaced digits) right after the prefix's 200 characters
            QVERIFY2(QRegularExpression(QStringLiteral("^ ?\\d( \\d){9} [a-z]")).match(prompt.mid(200)).hasMatch(), qPrintable(prompt.mid(190, 50)));
        }
    }

    void idealShareFollowsTheOrderOfRequests()
    {
        // Two prefixes of 10 tokens, 40-token prompts. r0 (prefix 0) and r1 (prefix 1) start cold;
        // r2 is sent while r0 still runs (cold); r3 and r4 come after r0 and r1 ended (warm).
        std::vector<RequestRecord> records = {rec(100, 200, 40, 0, 0), rec(110, 210, 40, 0, 1), rec(150, 260, 40, 0, 0),
                                              rec(300, 400, 40, 10, 0), rec(310, 410, 40, 10, 1)};
        PrefixCacheInput in;
        in.records = &records;
        in.sharedPrefixes = 2;
        in.prefixTokens = 10;
        in.prefixCalibrated = true;
        std::optional<PrefixCacheStats> p = prefixCacheStats(in);
        QVERIFY(p);
        QCOMPARE(p->idealShare, 20.0 / 200.0);
        QCOMPARE(p->reportedShare, 20.0 / 200.0);
        QVERIFY(prefixCacheWarnings(*p, true).isEmpty());
        // A warmup after the reset left prefix 0 cached: r0 and r2 are warm too.
        in.warmPrefixes = {0};
        p = prefixCacheStats(in);
        QCOMPARE(p->idealShare, 40.0 / 200.0);
        const QStringList low = prefixCacheWarnings(*p, true);
        QCOMPARE(low.size(), 1);
        QVERIFY2(low.at(0).contains(QLatin1String("10.0 %")) && low.at(0).contains(QLatin1String("20.0 %")) && low.at(0).contains(QLatin1String("eviction")),
                 qPrintable(low.at(0)));
        // More than ideal: the cache was not empty. Without a reset nothing is claimed.
        in.warmPrefixes.clear();
        for (RequestRecord &r : records)
            r.cachedTokens = 10;
        p = prefixCacheStats(in);
        QVERIFY(prefixCacheWarnings(*p, true).value(0).contains(QLatin1String("not empty")));
        QVERIFY(prefixCacheWarnings(*p, false).isEmpty());
        // A cache serves whole blocks: with 8-token blocks a 10-token prefix can give 8.
        in.blockTokens = 8;
        p = prefixCacheStats(in);
        QCOMPARE(p->idealShare, 16.0 / 200.0);
        QCOMPARE(p->blockTokens, 8);
        in.blockTokens = 1;
        // vLLM caches at scheduling: r2, sent while r0 still runs, already finds prefix 0.
        for (RequestRecord &r : records)
            r.cachedTokens = r.sendNs == 150 ? 10 : (r.sendNs >= 300 ? 10 : 0);
        in.cachedWhenScheduled = true;
        p = prefixCacheStats(in);
        QCOMPARE(p->idealShare, 30.0 / 200.0);
        QCOMPARE(p->reportedShare, 30.0 / 200.0);
        QVERIFY(prefixCacheWarnings(*p, true).isEmpty());
        in.cachedWhenScheduled = false;
        // Later turns of sessions: their history is cacheable.
        std::vector<RequestRecord> turns = {rec(100, 200, 50, 0, -1, 1), rec(300, 400, 120, 60, -1, 2, 60)};
        in.records = &turns;
        in.sharedPrefixes = 0;
        in.sessions = true;
        p = prefixCacheStats(in);
        QCOMPARE(p->idealShare, 60.0 / 170.0);
        QCOMPARE(p->reportedShare, 60.0 / 170.0);
    }

    // The embedded vLLM mock caches like vLLM, at scheduling: the seven requests sent beside a
    // prefix's first carrier already hit it, and the engine's ideal counts them so (its counters
    // match the ideal; no cell warns that the cache was not empty).
    void mockVllmCachesWhenItSchedules()
    {
        const QByteArray yaml = "name: mock-prefix\n"
                                "servers:\n"
                                "  - {name: m, mock: vllm, model: tiny, reset_kv_cache: true, metrics: {interval_s: 0.2}}\n"
                                "workload: {input_tokens: 512, output_tokens: 4, requests_per_cell: 8, warmup_requests: 0,"
                                " prompts: shared_prefix, shared_prefix_tokens: 384, shared_prefix_count: 1}\n"
                                "sweep: {concurrency: [8]}\n";
        const SpecLoadResult spec = loadSpecText(yaml);
        QVERIFY2(spec.spec && spec.diagnostics.isEmpty(), qPrintable(spectest::dump(spec.diagnostics)));
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(*spec.spec, dir.path());
        QCOMPARE(r.exitCode, 0);
        const CellResult &cell = r.results.cells.at(0);
        QCOMPARE(cell.status, CellStatus::Completed);
        QVERIFY(cell.prefixCache);
        const PrefixCacheStats &p = *cell.prefixCache;
        QVERIFY2(p.idealShare > 0.5 && std::abs(p.metricsShare - p.idealShare) <= 0.1 * p.idealShare,
                 qPrintable(QStringLiteral("ideal %1, counters %2").arg(p.idealShare).arg(p.metricsShare)));
        for (const QString &w : cell.warnings)
            QVERIFY2(!w.contains(QLatin1String("prefix cache")), qPrintable(w));
    }

    // A request the step's prefill budget leaves waiting was not scheduled: its blocks are not
    // cached yet, so when it is admitted later it must not hit its own prompt.
    void mockVllmCachesOnlyWhatItAdmitted()
    {
        MockConfig cfg = mockDefaults(Flavor::Vllm);
        cfg.maxPrefillTokens = 600; // one 512-token prompt per step: seven of eight wait
        QString error;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY2(mock, qPrintable(error));
        SweepSpec spec = sbtest::smallSpec({sbtest::serverAt(mock->url().toString(), QStringLiteral("m"))}, {8}, 8);
        spec.workload.inputTokens = 512;
        spec.workload.outputTokens = 4;
        spec.workload.warmupRequests = 0;
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(spec, dir.path());
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.results.cells.at(0).completed, 8);
        const MockStats stats = mock->stats();
        QVERIFY(stats.cacheMissBlocks >= 8 * 31);
        QCOMPARE(stats.cacheHitBlocks, 0); // unique prompts
    }

    void vllmBlockSizeComesFromItsMetrics()
    {
        const QByteArray metrics = "# HELP vllm:cache_config_info Information of the LLMEngine CacheConfig\n"
                                   "# TYPE vllm:cache_config_info gauge\n"
                                   "vllm:cache_config_info{_block_size_resolved=\"True\",block_size=\"128\",cache_dtype=\"auto\","
                                   "effective_attention_block_size=\"128\",enable_prefix_caching=\"True\"} 1.0\n"
                                   "vllm:num_requests_running{engine=\"0\",model_name=\"tiny\"} 0.0\n";
        QCOMPARE(blockSizeFromMetrics(metrics), 128);
        QCOMPARE(blockSizeFromMetrics("vllm:num_requests_running 0\nother{block_size=\"16\"} 1\n"), -1);
        QCOMPARE(blockSizeFromMetrics(QByteArray()), -1);
    }
};

QTEST_GUILESS_MAIN(TestSessions)
#include "tst_sessions.moc"
