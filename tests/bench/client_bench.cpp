// sweepbench-clientbench: measurements of the benchmark client, run by
// tests/bench/run-client-bench.sh. Not a test: it prints one JSON object per run on stdout.
//
//   concurrency --levels 64,256,1024      real SweepEngine against an in-process MockServer;
//                                          server-observed max in flight vs C
//   ttft --levels 1,64,256                 LoadGenerator against an in-process MockServer; client
//                                          TTFT minus the mock's own TTFT, matched by X-Request-Id.
//                                          The mock's TTFT starts at the kernel's receive stamp of
//                                          the request (MockTiming::arrivalNs), so the added time
//                                          splits into send -> kernel arrival and first-token
//                                          write -> client read
//   memory --url U --requests N [--stream] VmRSS growth per finished record around one phase
//   lean --url U -c C --requests N [--stream]   the product's LoadGenerator, closed loop
//   qnam --url U -c C --requests N [--stream]   a pool of ceil(C/6) QNetworkAccessManagers, each
//                                          on its own thread (comparison only, not in the product)
//
// Every run is bounded by its request count and by --max-seconds.
#include "MockRoutes.h"
#include "engine/SweepEngine.h"
#include "load/ChunkScanner.h"
#include "load/LoadGenerator.h"
#include "load/RequestFactory.h"
#include "load/SseParser.h"
#include "mock/MockServer.h"
#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <sys/resource.h>

using namespace sb;
using sbbench::mockRoute;
using sbbench::remoteTimings;

namespace {

struct Args {
    QString mode;
    QString url;
    QList<int> levels;
    int concurrency = 64;
    qint64 requests = 0;
    bool stream = false;
    double maxSeconds = 120;
    int outputTokens = 0;
    QString label; // names the setup in the JSON (run-client-bench.sh runs ttft in several)
};

[[noreturn]] void usage()
{
    std::fprintf(stderr, "usage: sweepbench-clientbench concurrency|ttft|memory|lean|qnam [--url U] [--levels a,b] "
                         "[-c C] [--requests N] [--stream] [--max-seconds S] [--output-tokens N] [--label L]\n");
    std::exit(2);
}

Args parseArgs(const QStringList &argv)
{
    Args a;
    if (argv.size() < 2)
        usage();
    a.mode = argv[1];
    for (int i = 2; i < argv.size(); ++i) {
        const QString &k = argv[i];
        auto val = [&]() -> QString {
            if (i + 1 >= argv.size())
                usage();
            return argv[++i];
        };
        if (k == QLatin1String("--url"))
            a.url = val();
        else if (k == QLatin1String("--levels"))
            for (const QString &s : val().split(QLatin1Char(',')))
                a.levels << s.toInt();
        else if (k == QLatin1String("-c"))
            a.concurrency = val().toInt();
        else if (k == QLatin1String("--requests"))
            a.requests = val().toLongLong();
        else if (k == QLatin1String("--stream"))
            a.stream = true;
        else if (k == QLatin1String("--max-seconds"))
            a.maxSeconds = val().toDouble();
        else if (k == QLatin1String("--output-tokens"))
            a.outputTokens = val().toInt();
        else if (k == QLatin1String("--label"))
            a.label = val();
        else
            usage();
    }
    return a;
}

void emitJson(const QJsonObject &o)
{
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
}

qint64 procStatusKb(const char *field)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray key = QByteArray(field) + ':';
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith(key))
            return line.mid(key.size()).trimmed().split(' ').value(0).toLongLong();
    return -1;
}

double processCpuSeconds()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return std::nan("");
    std::sort(v.begin(), v.end());
    const double rank = p / 100.0 * double(v.size() - 1);
    const auto lo = std::size_t(std::floor(rank));
    const auto hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (rank - double(lo));
}

// A mock that keeps up with the client: cheap steps, a batch larger than any tested C.
MockConfig fastMock()
{
    MockConfig cfg = mockDefaults(Flavor::Vllm);
    cfg.stepBaseMs = 2.0;
    cfg.stepPerSeqMs = 0.0;
    cfg.prefillPerTokenMs = 0.0;
    cfg.maxBatch = 4096;
    cfg.maxPrefillTokens = 1 << 24;
    return cfg;
}

ServerSpec serverFor(const QString &url)
{
    ServerSpec s;
    s.name = QStringLiteral("bench");
    s.urls = {url};
    s.model = QStringLiteral("demo-model");
    s.flavor = Flavor::Openai;
    return s;
}

WorkloadSpec workload(bool stream, int inputTokens, int outputTokens)
{
    WorkloadSpec w;
    w.streaming = stream;
    w.inputTokens = inputTokens;
    w.outputTokens = outputTokens;
    w.requestTimeoutS = 60;
    return w;
}

// ---------------------------------------------------------------- exact concurrency (engine)
int runConcurrency(const Args &a)
{
    const QList<int> levels = a.levels.isEmpty() ? QList<int>{64, 256, 1024} : a.levels;
    QString err;
    auto mock = MockServer::start(fastMock(), &err);
    if (!mock) {
        std::fprintf(stderr, "mock: %s\n", qPrintable(err));
        return 2;
    }
    int worst = 0;
    for (int c : levels) {
        QTemporaryDir out;
        mock->resetStats();
        SweepSpec spec;
        spec.name = QStringLiteral("bench-concurrency");
        spec.servers << serverFor(mock->url().toString());
        spec.workload = workload(true, 16, a.outputTokens > 0 ? a.outputTokens : 128);
        spec.workload.requestsPerCell = int(a.requests > 0 ? a.requests : 3 * c);
        spec.concurrency = {c};
        RunOptions opt;
        opt.outDir = out.path();
        SweepEngine engine(spec, opt);
        QEventLoop loop;
        int code = -1;
        QObject::connect(&engine, &SweepEngine::finished, &loop, [&](int rc) { code = rc; loop.quit(); });
        QObject::connect(&engine, &SweepEngine::logMessage, [](const QString &m) { std::fprintf(stderr, "%s\n", qPrintable(m)); });
        QTimer::singleShot(int(a.maxSeconds * 1000), &loop, [&] { engine.cancel(); });
        const double t0 = double(steadyNowNs()) / 1e9;
        engine.start();
        loop.exec();
        const double wall = double(steadyNowNs()) / 1e9 - t0;
        const SweepResults r = engine.results();
        const CellResult cell = r.cells.value(0);
        const MockStats st = mock->stats();
        QJsonObject o{{"bench", "concurrency"}, {"concurrency", c}, {"exit_code", code}, {"status", sb::cellStatusName(cell.status)},
                      {"completed", cell.completed}, {"failed", cell.failed}, {"server_max_in_flight", st.maxInFlight},
                      {"client_max_in_flight", cell.maxInFlight}, {"client_mean_in_flight", cell.meanInFlight},
                      {"server_requests", double(st.requests)}, {"client_cpu_max", cell.clientCpuMax}, {"wall_s", wall},
                      {"exact", st.maxInFlight == c && cell.maxInFlight == c}};
        emitJson(o);
        if (st.maxInFlight != c || cell.maxInFlight != c)
            worst = 1;
    }
    return worst;
}

// ---------------------------------------------------------------- client-added TTFT
// A mock in another process (`sweepbench mock-server`, e.g. at a lower priority or on its own
// core), reached through its introspection routes.
int runTtft(const Args &a)
{
    const QList<int> levels = a.levels.isEmpty() ? QList<int>{1, 64, 256} : a.levels;
    // With --url the mock runs in its own process (the steady clock is shared on one machine);
    // otherwise in this one, sharing the cores with the client's IO threads at equal priority.
    std::unique_ptr<MockServer> mock;
    if (a.url.isEmpty()) {
        QString err;
        mock = MockServer::start(fastMock(), &err);
        if (!mock) {
            std::fprintf(stderr, "mock: %s\n", qPrintable(err));
            return 2;
        }
    }
    const QString mockUrl = mock ? mock->url().toString() : a.url;
    const ServerSpec server = serverFor(mockUrl);
    const ServerTarget target = resolveTarget(server.urls.first(), server.endpoint);
    const WorkloadSpec w = workload(true, 16, a.outputTokens > 0 ? a.outputTokens : 16);
    LoadGenerator load;
    for (int c : levels) {
        const QByteArray tag = "ttft-c" + QByteArray::number(c);
        const RequestFactory factory(server, target, w, tag);
        // Warm the connections and the mock (not measured).
        {
            const RequestFactory warmF(server, target, w, tag + "-w");
            PhaseConfig warm;
            warm.targets = {PhaseTarget{target, &warmF}};
            warm.concurrency = c;
            warm.requests = 2 * c;
            warm.timeoutS = 30;
            load.runPhase(warm);
        }
        if (mock)
            mock->resetStats();
        else
            mockRoute(mockUrl, "POST", QStringLiteral("/mock/stats/reset"));
        PhaseConfig cfg;
        cfg.targets = {PhaseTarget{target, &factory}};
        cfg.concurrency = c;
        cfg.requests = a.requests > 0 ? a.requests : std::max<qint64>(2000, 40LL * c);
        cfg.durationS = a.maxSeconds;
        cfg.timeoutS = 30;
        const PhaseOutcome out = load.runPhase(cfg);
        QHash<QByteArray, MockTiming> byId;
        for (const MockTiming &t : mock ? mock->timings() : remoteTimings(mockUrl))
            byId.insert(t.requestId, t);
        std::vector<double> added, sendSide, recvSide, readLag, clientTtft, serverTtft;
        int unmatched = 0, failed = 0, kernelArrivals = 0;
        for (const RequestRecord &r : out.records) {
            if (!r.ok() || r.firstTokenNs < 0) {
                ++failed;
                continue;
            }
            const auto it = byId.constFind(factory.requestId(r.ticket)); // the X-Request-Id it was sent with
            if (it == byId.cend() || it->firstTokenWriteNs <= 0) {
                ++unmatched;
                continue;
            }
            const double client = double(r.firstTokenNs - r.sendNs) / 1e6;
            const double srv = double(it->firstTokenWriteNs - it->arrivalNs) / 1e6;
            clientTtft.push_back(client);
            serverTtft.push_back(srv);
            added.push_back(client - srv); // = send side + receive side
            sendSide.push_back(double(it->arrivalNs - r.sendNs) / 1e6);
            recvSide.push_back(double(r.firstTokenNs - it->firstTokenWriteNs) / 1e6);

            readLag.push_back(double(it->readNs - it->arrivalNs) / 1e6);
            kernelArrivals += it->kernelArrival ? 1 : 0;
        }
        QJsonObject o{{"bench", "ttft"}, {"setup", a.label}, {"mock", mock ? "in-process" : "separate process"}, {"concurrency", c}, {"requests", double(out.records.size())}, {"matched", int(added.size())},
                      {"unmatched", unmatched}, {"failed", failed},
                      {"client_ttft_p50_ms", percentile(clientTtft, 50)}, {"server_ttft_p50_ms", percentile(serverTtft, 50)},
                      {"added_p50_ms", percentile(added, 50)}, {"added_p99_ms", percentile(added, 99)},
                      {"added_max_ms", percentile(added, 100)},
                      {"send_to_arrival_p50_ms", percentile(sendSide, 50)}, {"send_to_arrival_p99_ms", percentile(sendSide, 99)},
                      {"recv_side_p50_ms", percentile(recvSide, 50)}, {"recv_side_p99_ms", percentile(recvSide, 99)},
                      // How late the mock's loop read requests after the kernel had them: server
                      // time, not client time (before kernel stamps it was counted as added).
                      {"mock_read_lag_p50_ms", percentile(readLag, 50)}, {"mock_read_lag_p99_ms", percentile(readLag, 99)},
                      {"kernel_arrivals", kernelArrivals},
                      {"client_cpu_max", out.maxThreadCpu}};
        emitJson(o);
    }
    return 0;
}

// ---------------------------------------------------------------- lean client, memory
PhaseOutcome leanPhase(LoadGenerator &load, const Args &a, qint64 requests, const QString &recordsPath, const QByteArray &tag)
{
    const ServerSpec server = serverFor(a.url);
    const ServerTarget target = resolveTarget(server.urls.first(), server.endpoint);
    const WorkloadSpec w = workload(a.stream, 16, 64);
    const RequestFactory factory(server, target, w, tag);
    PhaseConfig cfg;
    cfg.targets = {PhaseTarget{target, &factory}};
    cfg.concurrency = a.concurrency;
    cfg.requests = requests;
    cfg.durationS = a.maxSeconds;
    cfg.timeoutS = 30;
    cfg.streaming = a.stream;
    cfg.recordsPath = recordsPath;
    return load.runPhase(cfg);
}

int runLean(const Args &a)
{
    LoadGenerator load;
    leanPhase(load, a, std::min<qint64>(a.requests, 2000), QString(), "lean-w");
    QTemporaryDir dir;
    const double cpu0 = processCpuSeconds();
    const std::int64_t t0 = steadyNowNs();
    const PhaseOutcome out = leanPhase(load, a, a.requests, dir.filePath(QStringLiteral("records.jsonl")), "lean");
    const double wall = double(steadyNowNs() - t0) / 1e9;
    const double cpu = processCpuSeconds() - cpu0;
    const auto ok = std::count_if(out.records.begin(), out.records.end(), [](const RequestRecord &r) { return r.ok(); });
    emitJson({{"bench", "lean"}, {"stream", a.stream}, {"concurrency", a.concurrency}, {"requests", double(out.records.size())},
              {"completed", double(ok)}, {"wall_s", wall}, {"rps", double(ok) / wall},
              {"cpu_us_per_request", cpu / std::max<double>(1, double(out.records.size())) * 1e6},
              {"client_max_in_flight", out.clientMaxInFlight}, {"client_cpu_max", out.maxThreadCpu}});
    return 0;
}

int runMemory(const Args &a)
{
    LoadGenerator load;
    QTemporaryDir dir;
    // Settle threads, sockets and allocator arenas first with a phase of the same shape.
    {
        const PhaseOutcome warm = leanPhase(load, a, 5000, dir.filePath(QStringLiteral("warm.jsonl")), "mem-w");
        Q_UNUSED(warm);
    }
    const qint64 rss0 = procStatusKb("VmRSS");
    const qint64 hwm0 = procStatusKb("VmHWM");
    const PhaseOutcome out = leanPhase(load, a, a.requests, dir.filePath(QStringLiteral("records.jsonl")), "mem");
    const qint64 rss1 = procStatusKb("VmRSS"); // the outcome (records, histogram) is still held
    const qint64 hwm1 = procStatusKb("VmHWM");
    const double n = std::max<double>(1, double(out.records.size()));
    const auto ok = std::count_if(out.records.begin(), out.records.end(), [](const RequestRecord &r) { return r.ok(); });
    emitJson({{"bench", "memory"}, {"stream", a.stream}, {"concurrency", a.concurrency}, {"records", double(out.records.size())},
              {"completed", double(ok)}, {"rss_before_kb", double(rss0)}, {"rss_after_kb", double(rss1)},
              {"rss_bytes_per_record", double(rss1 - rss0) * 1024.0 / n}, {"hwm_growth_bytes_per_record", double(hwm1 - hwm0) * 1024.0 / n},
              {"sizeof_record", int(sizeof(RequestRecord))}, {"records_capacity", double(out.records.capacity())}});
    return 0;
}

// ---------------------------------------------------------------- QNAM pool (comparison only)
struct QnamShared {
    std::atomic<qint64> nextTicket{0};
    qint64 requests = 0;
    std::int64_t deadlineNs = 0;
    std::atomic<qint64> completed{0}, failed{0}, events{0}, contentEvents{0};
    std::atomic<int> inFlight{0}, maxInFlight{0};
    std::atomic<int> activeSlots{0};
    std::mutex m;
    std::condition_variable cv;
    QByteArray body;
    QUrl url;
    bool stream = false;
    qint64 take()
    {
        if (deadlineNs && steadyNowNs() >= deadlineNs)
            return -1;
        const qint64 t = nextTicket.fetch_add(1);
        return t < requests ? t : -1;
    }
    void slotDone()
    {
        if (activeSlots.fetch_sub(1) == 1) {
            std::lock_guard l(m);
            cv.notify_all();
        }
    }
};

class QnamWorker : public QObject
{
public:
    QnamWorker(QnamShared *s, int slotCount) : m_s(s), m_slots(slotCount) {}
    void start()
    {
        m_nam = new QNetworkAccessManager(this);
        m_nam->setProxy(QNetworkProxy::NoProxy);
        for (int i = 0; i < m_slots; ++i)
            next();
    }
    void stop() { delete m_nam; m_nam = nullptr; }

private:
    void next()
    {
        const qint64 ticket = m_s->take();
        if (ticket < 0) {
            m_s->slotDone();
            return;
        }
        QNetworkRequest req(m_s->url);
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
        req.setRawHeader("Accept", m_s->stream ? "text/event-stream" : "application/json");
        req.setRawHeader("X-Request-Id", "qnam-" + QByteArray::number(ticket));
        req.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
        QNetworkReply *reply = m_nam->post(req, m_s->body);
        auto sse = std::make_shared<SseParser>();
        auto counted = std::make_shared<bool>(false);
        connect(reply, &QNetworkReply::requestSent, this, [this, counted] {
            *counted = true;
            const int now = m_s->inFlight.fetch_add(1) + 1;
            int seen = m_s->maxInFlight.load();
            while (now > seen && !m_s->maxInFlight.compare_exchange_weak(seen, now)) {
            }
        });
        auto body = std::make_shared<QByteArray>();
        auto consume = [this, reply, sse, body] {
            const QByteArray data = reply->readAll();
            if (!m_s->stream) {
                body->append(data);
                return;
            }
            sse->feed(data.constData(), std::size_t(data.size()), [this](std::string_view ev) {
                const ChunkInfo info = scanChunk(ev); // the same per-event work as the lean client
                m_s->events.fetch_add(1, std::memory_order_relaxed);
                if (info.hasContent)
                    m_s->contentEvents.fetch_add(1, std::memory_order_relaxed);
            });
        };
        connect(reply, &QNetworkReply::readyRead, this, consume);
        connect(reply, &QNetworkReply::finished, this, [this, reply, counted, consume, body] {
            consume();
            if (!m_s->stream)
                QJsonDocument::fromJson(*body); // parse the answer, as the lean client does
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            if (reply->error() == QNetworkReply::NoError && status == 200)
                m_s->completed.fetch_add(1);
            else
                m_s->failed.fetch_add(1);
            if (*counted)
                m_s->inFlight.fetch_sub(1);
            reply->deleteLater();
            next();
        });
    }
    QnamShared *m_s;
    int m_slots;
    QNetworkAccessManager *m_nam = nullptr;
};

int runQnam(const Args &a)
{
    QnamShared s;
    s.requests = a.requests;
    s.stream = a.stream;
    const ServerSpec server = serverFor(a.url);
    const ServerTarget target = resolveTarget(server.urls.first(), server.endpoint);
    s.url = QUrl(target.origin + QString::fromUtf8(target.path));
    const RequestFactory factory(server, target, workload(a.stream, 16, 64), "qnam");
    const QByteArray whole = factory.build(0);
    s.body = whole.mid(whole.indexOf("\r\n\r\n") + 4); // the same JSON body the lean client sends
    const int managers = (a.concurrency + 5) / 6;
    std::vector<std::unique_ptr<QThread>> threads;
    std::vector<QnamWorker *> workers;
    s.activeSlots = a.concurrency;
    const double cpu0 = processCpuSeconds();
    const std::int64_t t0 = steadyNowNs();
    s.deadlineNs = t0 + std::int64_t(a.maxSeconds * 1e9);
    for (int i = 0; i < managers; ++i) {
        const int slotCount = std::min(6, a.concurrency - 6 * i);
        auto th = std::make_unique<QThread>();
        auto *w = new QnamWorker(&s, slotCount);
        w->moveToThread(th.get());
        th->start();
        QMetaObject::invokeMethod(w, [w] { w->start(); }, Qt::QueuedConnection);
        workers.push_back(w);
        threads.push_back(std::move(th));
    }
    {
        std::unique_lock l(s.m);
        s.cv.wait_for(l, std::chrono::milliseconds(qint64(a.maxSeconds * 1000) + 30000), [&] { return s.activeSlots.load() == 0; });
    }
    const double wall = double(steadyNowNs() - t0) / 1e9;
    const double cpu = processCpuSeconds() - cpu0;
    for (std::size_t i = 0; i < threads.size(); ++i) {
        QMetaObject::invokeMethod(workers[i], [w = workers[i]] { w->stop(); delete w; }, Qt::BlockingQueuedConnection);
        threads[i]->quit();
        threads[i]->wait();
    }
    const double done = double(s.completed.load());
    emitJson({{"bench", "qnam"}, {"stream", a.stream}, {"concurrency", a.concurrency}, {"managers", managers},
              {"completed", done}, {"failed", double(s.failed.load())}, {"wall_s", wall}, {"rps", done / wall},
              {"events_per_s", double(s.events.load()) / wall}, {"content_events_per_s", double(s.contentEvents.load()) / wall},
              {"cpu_us_per_request", cpu / std::max(1.0, done + double(s.failed.load())) * 1e6},
              {"client_max_in_flight", s.maxInFlight.load()}});
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const Args a = parseArgs(app.arguments());
    if (a.mode == QLatin1String("concurrency"))
        return runConcurrency(a);
    if (a.mode == QLatin1String("ttft"))
        return runTtft(a);
    if ((a.mode == QLatin1String("memory") || a.mode == QLatin1String("lean") || a.mode == QLatin1String("qnam"))
        && (a.url.isEmpty() || a.requests <= 0))
        usage();
    if (a.mode == QLatin1String("memory"))
        return runMemory(a);
    if (a.mode == QLatin1String("lean"))
        return runLean(a);
    if (a.mode == QLatin1String("qnam"))
        return runQnam(a);
    usage();
}
