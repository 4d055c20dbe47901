// Control hooks against a misbehaving server: an answer that never ends, one that never stops
// growing, one cut short — none is ever `ok`, in a run or in `hooks check`. And trace links: only
// files under trace_dir (after `..` and symlinks) are listed; paths a server names elsewhere are
// warned about, never linked.
#include "EngineFixture.h"
#include "HostileServer.h"
#include "TestSupport.h"
#include "hooks/ControlClient.h"
#include "engine/HookPreflight.h"
#include "hooks/HookRunner.h"
#include "hooks/TraceListing.h"
#include "report/ReportHtml.h"
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QUrl>

using namespace sb;
using namespace sbtest;

namespace {
ServerSpec hostileSpec(const BlockingHttpPeer &server)
{
    ServerSpec s;
    s.name = QStringLiteral("hostile");
    s.urls = {server.url()};
    s.model = QStringLiteral("m");
    s.flavor = Flavor::Openai;
    s.reset.enabled = true;
    s.reset.path = QStringLiteral("/reset");
    s.reset.maxRetryS = 0; // one attempt: the verdict of that attempt is what is checked
    s.profiler.enabled = true;
    s.profiler.startPath = QStringLiteral("/start_profile");
    s.profiler.stopPath = QStringLiteral("/stop_profile");
    return s;
}

const QByteArray kJson = "application/json";

// A minimal OpenAI chat completion (non-streaming), so a sweep can measure against the server.
void answerCompletion(int fd)
{
    BlockingHttpPeer::send(fd, BlockingHttpPeer::response(200, kJson,
                                                    R"({"choices":[{"message":{"content":"a b"}}],"usage":{"prompt_tokens":3,"completion_tokens":2}})"));
}
} // namespace

class TestHookBounds : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void headersThenSilenceIsATimeout()
    {
        // 200 and a Content-Length, then nothing: the status alone is no answer.
        BlockingHttpPeer server([](BlockingHttpPeer &s, int fd, const BlockingHttpPeer::Request &) {
            BlockingHttpPeer::send(fd, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"succ");
            s.holdSilent(fd);
        });
        ServerSpec spec = hostileSpec(server);
        spec.reset.timeoutS = 0.5;
        spec.profiler.timeoutS = 0.5;
        ControlClient client;
        HookRunner runner(client, nullptr);
        const HookTarget target = hookTargetsFor(spec, spec.urls).first();
        const HookOutcome reset = runner.reset(target, HookPlacement::BeforeWarmup);
        QCOMPARE(reset.verdict, std::optional(HookVerdict::Timeout));
        QVERIFY(!reset.ok);
        QCOMPARE(reset.status, 200); // what arrived is still recorded
        QVERIFY2(reset.message.contains(QStringLiteral("body did not end")), qPrintable(reset.message));
        const HookOutcome start = runner.profilerStart(target);
        QCOMPARE(start.verdict, std::optional(HookVerdict::Timeout));
        QVERIFY(!start.ok);
    }

    void chunkedThenSilenceIsATimeout()
    {
        BlockingHttpPeer server([](BlockingHttpPeer &s, int fd, const BlockingHttpPeer::Request &) {
            BlockingHttpPeer::send(fd, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n");
            s.holdSilent(fd);
        });
        ServerSpec spec = hostileSpec(server);
        spec.profiler.stopTimeoutS = 0.5;
        ControlClient client;
        HookRunner runner(client, nullptr);
        QStringList named;
        const HookOutcome stop = runner.profilerStop(hookTargetsFor(spec, spec.urls).first(), &named);
        QCOMPARE(stop.verdict, std::optional(HookVerdict::Timeout));
        QVERIFY(!stop.ok);
    }

    void endlessBodyIsOversize()
    {
        // A body that never ends, sent as fast as the client reads: aborted at the bound, not
        // buffered until the timeout (which is far away) and not read as an answer.
        BlockingHttpPeer server([](BlockingHttpPeer &s, int fd, const BlockingHttpPeer::Request &) {
            BlockingHttpPeer::send(fd, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n");
            s.flood(fd, QByteArray(64 * 1024, 'x'));
        });
        ServerSpec spec = hostileSpec(server);
        spec.reset.timeoutS = 600;
        spec.reset.maxRetryS = 30; // room for retries: none may happen
        ControlClient client;
        const ControlResponse raw = client.call("POST", QUrl(server.url() + QStringLiteral("/reset")), {}, std::nullopt, 600);
        QVERIFY(raw.oversize);
        QVERIFY(!raw.timedOut);
        QVERIFY(!raw.complete());
        QVERIFY(raw.body.size() <= kMaxControlBodyBytes);
        HookRunner runner(client, nullptr);
        const HookOutcome reset = runner.reset(hookTargetsFor(spec, spec.urls).first(), HookPlacement::BeforeWarmup);
        QCOMPARE(reset.verdict, std::optional(HookVerdict::Error));
        QVERIFY(!reset.ok);
        QCOMPARE(reset.attempts, 1); // an oversize answer is not retried: it will not shrink
        QVERIFY2(reset.message.contains(QStringLiteral("oversize")), qPrintable(reset.message));
    }

    void endlessChunkedBodyIsOversize()
    {
        BlockingHttpPeer server([](BlockingHttpPeer &s, int fd, const BlockingHttpPeer::Request &) {
            BlockingHttpPeer::send(fd, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
            s.flood(fd, "10000\r\n" + QByteArray(0x10000, 'y') + "\r\n");
        });
        ServerSpec spec = hostileSpec(server);
        spec.profiler.stopTimeoutS = 600;
        ControlClient client;
        HookRunner runner(client, nullptr);
        QStringList named;
        const HookOutcome stop = runner.profilerStop(hookTargetsFor(spec, spec.urls).first(), &named);
        QCOMPARE(stop.verdict, std::optional(HookVerdict::Error));
        QVERIFY(!stop.ok);
        QVERIFY2(stop.message.contains(QStringLiteral("oversize")), qPrintable(stop.message));
    }

    void truncatedBodyIsNotOk_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::newRow("content-length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"success\": true");
        QTest::newRow("chunked") << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                                               "10\r\n{\"success\":true}\r\n"); // 16 bytes, then no last chunk
    }
    void truncatedBodyIsNotOk()
    {
        QFETCH(QByteArray, answer);
        BlockingHttpPeer server([answer](BlockingHttpPeer &, int fd, const BlockingHttpPeer::Request &) { BlockingHttpPeer::send(fd, answer); });
        ServerSpec spec = hostileSpec(server);
        ControlClient client;
        HookRunner runner(client, nullptr);
        const HookTarget target = hookTargetsFor(spec, spec.urls).first();
        const HookOutcome reset = runner.reset(target, HookPlacement::BeforeWarmup);
        QVERIFY2(!reset.ok, qPrintable(reset.message));
        QCOMPARE(reset.verdict, std::optional(HookVerdict::Error));
        QVERIFY2(reset.message.contains(QStringLiteral("truncated")), qPrintable(reset.message));
        const HookOutcome start = runner.profilerStart(target);
        QVERIFY2(!start.ok, qPrintable(start.message));
    }

    void wholeAnswerIsStillOk()
    {
        // The control: the same server answering completely is ok (keeps the tests above honest).
        BlockingHttpPeer server([](BlockingHttpPeer &, int fd, const BlockingHttpPeer::Request &) {
            BlockingHttpPeer::send(fd, BlockingHttpPeer::response(200, kJson, "{\"success\": true}"));
        });
        ServerSpec spec = hostileSpec(server);
        ControlClient client;
        HookRunner runner(client, nullptr);
        const HookOutcome reset = runner.reset(hookTargetsFor(spec, spec.urls).first(), HookPlacement::BeforeWarmup);
        QVERIFY2(reset.ok, qPrintable(reset.message));
        QCOMPARE(reset.verdict, std::optional(HookVerdict::Ok));
    }

    void hooksCheckShowsTheTimeoutAsAFailure()
    {
        BlockingHttpPeer server([](BlockingHttpPeer &s, int fd, const BlockingHttpPeer::Request &r) {
            if (r.target == "/reset") {
                BlockingHttpPeer::send(fd, "HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n{");
                s.holdSilent(fd);
                return;
            }
            BlockingHttpPeer::send(fd, BlockingHttpPeer::response(200, kJson, "{}"));
        });
        ServerSpec spec = hostileSpec(server);
        spec.reset.timeoutS = 0.5;
        spec.profiler.enabled = false;
        HookPreflight preflight(smallSpec({spec}, {1}, 1));
        QSignalSpy checked(&preflight, &HookPreflight::serverChecked);
        QSignalSpy finished(&preflight, &HookPreflight::finished);
        preflight.start();
        QVERIFY(sbtest::waitForSignal(finished, 30000));
        const auto outcomes = checked.value(0).value(1).value<QList<HookOutcome>>();
        QCOMPARE(outcomes.size(), 1);
        QVERIFY(!outcomes[0].ok); // `hooks check` prints ✗ and exits 1 on !ok
        QCOMPARE(outcomes[0].verdict, std::optional(HookVerdict::Timeout));
    }

    // A server whose model list names the key (a fine-tune called after it, once as typed and
    // once upper-cased with '-' as '_') and whose reset answer quotes it: no outcome field and
    // no hint `hooks check` and the designer's table show holds it.
    void hooksCheckNeverShowsTheKey()
    {
        static const QByteArray kKey = "sk-models-0123456789abcdef";
        BlockingHttpPeer server([](BlockingHttpPeer &, int fd, const BlockingHttpPeer::Request &r) {
            const QByteArray key = r.header("Authorization").mid(7); // "Bearer "
            if (r.target.startsWith("/v1/models"))
                BlockingHttpPeer::send(fd, BlockingHttpPeer::response(200, kJson, "{\"data\":[{\"id\":\"org/" + key + "-ft\"},{\"id\":\""
                                                                                      + key.toUpper().replace('-', '_') + "\"}]}"));
            else
                BlockingHttpPeer::send(fd, BlockingHttpPeer::response(200, kJson, "{\"success\": true, \"key\": \"" + key + "\"}"));
        });
        ServerSpec spec = hostileSpec(server);
        spec.apiKey = QString::fromLatin1(kKey);
        spec.profiler.enabled = false;
        HookPreflight preflight(smallSpec({spec}, {1}, 1));
        QSignalSpy reached(&preflight, &HookPreflight::serverReached);
        QSignalSpy checked(&preflight, &HookPreflight::serverChecked);
        QSignalSpy finished(&preflight, &HookPreflight::finished);
        preflight.start();
        QVERIFY(sbtest::waitForSignal(finished, 30000));
        QCOMPARE(reached.size(), 1);
        QCOMPARE(checked.size(), 1);
        QStringList shown;
        bool modelRefused = false;
        for (const QList<QVariant> &args : QList<QList<QVariant>>{reached.at(0), checked.at(0)}) {
            shown << args.value(0).toString() << args.value(2).toStringList();
            for (const HookOutcome &o : args.value(1).value<QList<HookOutcome>>()) {
                shown << o.origin << o.path << o.message;
                modelRefused = modelRefused || (o.hook == HookKind::ModelList && o.verdict == HookVerdict::Refused);
            }
        }
        QVERIFY(modelRefused); // the server did list the key as its models
        const QString all = shown.join('\n');
        QVERIFY2(all.contains(QStringLiteral("[redacted]")), qPrintable(all));
        const QString folded = all.toLower().replace(QLatin1Char('_'), QLatin1Char('-'));
        QVERIFY2(!folded.contains(QString::fromLatin1(kKey.left(12))), qPrintable(all));
    }

    void linkableTracesResolveDotsAndLinks()
    {
        QTemporaryDir root;
        const QString traceDir = root.filePath(QStringLiteral("traces"));
        QVERIFY(QDir().mkpath(traceDir + QStringLiteral("/rank0")));
        const auto touch = [](const QString &p) {
            QFile f(p);
            return f.open(QIODevice::WriteOnly) && f.write("{}") == 2;
        };
        QVERIFY(touch(traceDir + QStringLiteral("/rank0/good.json")));
        QVERIFY(touch(root.filePath(QStringLiteral("outside.json"))));
        QVERIFY(QFile::link(QStringLiteral("/etc/hostname"), traceDir + QStringLiteral("/escape.json")));
        QVERIFY(QFile::link(root.path(), traceDir + QStringLiteral("/up")));
        const QStringList candidates{traceDir + QStringLiteral("/rank0/good.json"),
                                     traceDir + QStringLiteral("/rank0/../rank0/good.json"), // same file: listed once
                                     traceDir + QStringLiteral("/../outside.json"),
                                     traceDir + QStringLiteral("/escape.json"),
                                     traceDir + QStringLiteral("/up/outside.json"),
                                     QStringLiteral("/etc/passwd"),
                                     traceDir + QStringLiteral("/rank0"), // a folder, not a trace
                                     traceDir + QStringLiteral("/missing.json")};
        const TraceLinks links = linkableTraces(traceDir, candidates);
        QCOMPARE(links.linked, QStringList{QFileInfo(traceDir + QStringLiteral("/rank0/good.json")).canonicalFilePath()});
        QCOMPARE(links.outside.size(), 5);
        QVERIFY(!links.outside.contains(traceDir + QStringLiteral("/missing.json"))); // nothing there to warn about
        // A folder whose name merely starts like trace_dir is outside it too.
        QVERIFY(QDir().mkpath(traceDir + QStringLiteral("-evil")));
        QVERIFY(touch(traceDir + QStringLiteral("-evil/x.json")));
        QVERIFY(linkableTraces(traceDir, {traceDir + QStringLiteral("-evil/x.json")}).linked.isEmpty());
        // No trace folder: nothing is linked at all.
        QVERIFY(linkableTraces(QString(), {QStringLiteral("/etc/passwd")}).linked.isEmpty());
    }

    void namedPathsOutsideTraceDirAreNotLinked()
    {
        QTemporaryDir traces;
        const QString good = traces.filePath(QStringLiteral("trace-rank-0.json"));
        BlockingHttpPeer server([&](BlockingHttpPeer &, int fd, const BlockingHttpPeer::Request &r) {
            if (r.target == "/stop_profile") {
                QFile f(good); // the trace the window wrote
                if (f.open(QIODevice::WriteOnly))
                    f.write("{}");
                f.close();
                const QJsonObject answer{{"traces", QJsonArray{good, QStringLiteral("/etc/passwd"), traces.path() + QStringLiteral("/../../etc/hostname")}},
                                         {"env", QStringLiteral("/proc/self/environ")}, {"dir", QStringLiteral("/etc")}};
                BlockingHttpPeer::send(fd, BlockingHttpPeer::response(200, kJson, QJsonDocument(answer).toJson(QJsonDocument::Compact)));
            } else if (r.target.startsWith("/v1/")) {
                answerCompletion(fd);
            } else {
                BlockingHttpPeer::send(fd, BlockingHttpPeer::response(200, kJson, "{}"));
            }
        });
        ServerSpec spec = hostileSpec(server);
        spec.reset.enabled = false;
        spec.profiler.traceDir = traces.path();
        SweepSpec sweep = smallSpec({spec}, {1}, 2);
        sweep.workload.streaming = false;
        QTemporaryDir out;
        const RunResult r = runSweep(sweep, out.path());
        const CellResult &cell = r.results.cells.value(0);
        QCOMPARE(cell.status, CellStatus::Completed);
        QCOMPARE(cell.traces, QStringList{QFileInfo(good).canonicalFilePath()});
        const QString warnings = cell.warnings.join(QLatin1Char('\n'));
        for (const char *p : {"/etc/passwd", "/proc/self/environ", "/etc"})
            QVERIFY2(warnings.contains(QStringLiteral("trace %1: outside trace_dir, not linked").arg(QLatin1String(p))), qPrintable(warnings));
        // Stored and shown the same way: results.json lists no such trace, report.html links none.
        const QJsonObject stored = QJsonDocument::fromJson(readFile(out.filePath(QStringLiteral("results.json")))).object();
        const QJsonObject storedCell = stored.value(QStringLiteral("cells")).toArray().at(0).toObject();
        QCOMPARE(storedCell.value(QStringLiteral("traces")).toArray(), QJsonArray{QFileInfo(good).canonicalFilePath()});
        ReportHtmlInput html;
        html.results = r.results;
        const QString page = QString::fromUtf8(reportHtml(html));
        QStringList hrefs;
        static const QRegularExpression href(QStringLiteral("href=\"([^\"]*)\""));
        for (auto it = href.globalMatch(page); it.hasNext();)
            hrefs << it.next().captured(1);
        QCOMPARE(hrefs.filter(QStringLiteral("/etc")), QStringList());
        QCOMPARE(hrefs.filter(QStringLiteral("/proc")), QStringList());
        // report.html never links into the author's machine: without the traces in the export
        // it names the kept trace by file name only (links to traces/ are tst_report_page's).
        QCOMPARE(hrefs.filter(QFileInfo(good).canonicalFilePath()).size(), 0);
        QVERIFY(page.contains(QFileInfo(good).fileName()));
    }
};

QTEST_GUILESS_MAIN(TestHookBounds)
#include "tst_hook_bounds.moc"
