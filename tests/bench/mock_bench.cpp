// sweepbench-mockbench: how many SSE events per second the embedded mock delivers to 1024
// concurrent streams on this machine (at least 100k), with the client on the
// same box. Not a test: it prints a table and one JSON line per run (see --help).
//
//   reference  a bare epoll server thread that writes every event with its own send(),
//              round-robin over the streams, as fast as it can: the ceiling of one write per
//              event on this kernel and these cores (the mock cannot beat it without batching)
//   capacity   the mock with a near-zero step cost (0.5 ms for a batch of 1024: the model asks
//              for ~2M events/s), so the writer lags and the figure is the server's capacity
//   paced R    the mock with the step cost set so that the model itself produces R events/s:
//              the writer should keep up, every event leaving in a write of its own at its
//              step's time (events per write ~1, client-seen gap p50 ~ the step time)
//
// The client is tests/core/tst_mock_rawclient.h (one epoll thread, no Qt). CPU is split into
// the client thread's and the rest of the process's (the server thread; the main thread waits).
#include "mock/MockHttp.h"
#include "mock/MockOpenAi.h"
#include "mock/MockServer.h"
#include "tst_mock_rawclient.h"
#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cstdio>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <thread>

namespace {

struct Args {
    int streams = 1024;
    int tokens = 300;
    QList<int> rates{100000, 200000};
    bool reference = true;
    bool capacity = true;
};

[[noreturn]] void usage()
{
    std::fprintf(stderr, "usage: sweepbench-mockbench [--streams N] [--tokens N] [--rates R1,R2|none] "
                         "[--no-reference] [--no-capacity]\n");
    std::exit(2);
}

Args parseArgs(const QStringList &argv)
{
    Args a;
    for (int i = 1; i < argv.size(); ++i) {
        const QString &k = argv[i];
        auto val = [&]() -> QString {
            if (i + 1 >= argv.size())
                usage();
            return argv[++i];
        };
        if (k == QLatin1String("--streams"))
            a.streams = val().toInt();
        else if (k == QLatin1String("--tokens"))
            a.tokens = val().toInt();
        else if (k == QLatin1String("--rates")) {
            a.rates.clear();
            const QString v = val();
            if (v != QLatin1String("none"))
                for (const QString &s : v.split(QLatin1Char(',')))
                    a.rates << s.toInt();
        } else if (k == QLatin1String("--no-reference"))
            a.reference = false;
        else if (k == QLatin1String("--no-capacity"))
            a.capacity = false;
        else
            usage();
    }
    if (a.streams < 1 || a.tokens < 2 || std::any_of(a.rates.begin(), a.rates.end(), [](int r) { return r < 1; }))
        usage();
    return a;
}

qint64 processCpuNs()
{
    rusage ru{};
    ::getrusage(RUSAGE_SELF, &ru);
    auto ns = [](const timeval &t) { return qint64(t.tv_sec) * 1000000000 + qint64(t.tv_usec) * 1000; };
    return ns(ru.ru_utime) + ns(ru.ru_stime);
}

QString loadAverage()
{
    QFile f(QStringLiteral("/proc/loadavg"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLatin1(f.readAll()).section(QLatin1Char(' '), 0, 2);
}

struct Run {
    QString name;
    mocktest::RawResult r;
    qint64 serverCpuNs = 0;
    double eventsPerWrite = 0;   // 0 = not known
    double modelRate = 0;        // events/s the model produces by itself (paced runs)
};

double percentileMs(std::vector<qint32> v, double p)
{
    if (v.empty())
        return 0;
    const size_t k = std::min(v.size() - 1, size_t(p / 100.0 * double(v.size())));
    std::nth_element(v.begin(), v.begin() + qptrdiff(k), v.end());
    return v[k] / 1000.0;
}

// Runs the client against `port` while measuring; `serverDone` joins whatever serves.
template<typename Wait>
Run measure(const QString &name, quint16 port, const Args &a, Wait serverDone)
{
    Run run;
    run.name = name;
    const qint64 cpu0 = processCpuNs();
    std::thread client([&] { run.r = mocktest::runRawStreams(port, a.streams, a.tokens, true); });
    client.join();
    serverDone();
    run.serverCpuNs = processCpuNs() - cpu0 - run.r.cpuNs;
    return run;
}

Run runMock(const QString &name, const Args &a, double stepMs, double modelRate)
{
    sb::MockConfig cfg = sb::mockDefaults(sb::Flavor::Vllm);
    cfg.stepBaseMs = stepMs;
    cfg.stepPerSeqMs = 0;
    cfg.prefillPerTokenMs = 0;
    cfg.maxBatch = a.streams;
    QString error;
    auto server = sb::MockServer::start(cfg, &error);
    if (!server) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        std::exit(1);
    }
    Run run = measure(name, server->port(), a, [] {});
    const sb::MockStats s = server->stats();
    run.eventsPerWrite = s.socketWrites ? double(s.streamEvents) / double(s.socketWrites) : 0;
    run.modelRate = modelRate;
    return run;
}

// The reference server: accepts every stream, then writes each event with its own blocking
// send(), round-robin, the same bytes the mock streams. No model, no parsing, no Qt.
Run runReference(const Args &a)
{
    const int lfd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (::bind(lfd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 || ::listen(lfd, 4096) != 0
        || ::getsockname(lfd, reinterpret_cast<sockaddr *>(&addr), &len) != 0) {
        std::perror("reference server");
        std::exit(1);
    }
    sb::MockCompletionRequest req;
    req.chat = true;
    req.model = "demo-model";
    const sb::MockChunkFormatter fmt(req, 1, 0);
    QByteArray head = sb::httpChunkedHead(200, "text/event-stream; charset=utf-8", true);
    sb::appendChunk(head, fmt.roleEvent());
    QByteArray event, last;
    sb::appendChunk(event, fmt.tokenEvent(" tokens", false));
    sb::appendChunk(last, fmt.tokenEvent(" tokens", true));
    sb::appendChunk(last, sb::MockChunkFormatter::doneEvent());
    last += sb::lastChunk();

    std::thread server([&] {
        std::vector<int> fds;
        for (int i = 0; i < a.streams; ++i) {
            const int fd = ::accept4(lfd, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd < 0)
                break;
            const int one = 1;
            ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); // as the mock's sockets
            fds.push_back(fd);
        }
        auto put = [](int fd, const QByteArray &b) { return ::send(fd, b.constData(), size_t(b.size()), MSG_NOSIGNAL); };
        for (int fd : fds)
            put(fd, head);
        for (int t = 0; t < a.tokens; ++t)
            for (int fd : fds)
                put(fd, t + 1 < a.tokens ? event : last);
        char sink[4096];
        for (int fd : fds) { // read the request before closing, else the close sends a reset
            while (::recv(fd, sink, sizeof sink, MSG_DONTWAIT) > 0) {}
            ::close(fd);
        }
    });
    const quint16 port = ntohs(addr.sin_port);
    Run run = measure(QStringLiteral("reference"), port, a, [&] { server.join(); });
    ::close(lfd);
    run.eventsPerWrite = 1;
    return run;
}

void print(const Run &run, const Args &a)
{
    const mocktest::RawResult &r = run.r;
    const double perS = r.eventsPerSecond();
    const double events = double(std::max<qint64>(1, r.events));
    const double p50 = percentileMs(r.gapsUs, 50), p99 = percentileMs(r.gapsUs, 99);
    const QByteArray model = run.modelRate > 0 ? QByteArray::number(run.modelRate, 'f', 0) : QByteArray("-");
    std::printf("%-12s %10s %10.0f %9.2f %9.2f %9.2f %8.2f %8.2f %6d/%d%s\n", qPrintable(run.name),
                model.constData(), perS, run.eventsPerWrite, run.serverCpuNs / 1e3 / events, r.cpuNs / 1e3 / events, p50, p99,
                r.completed, a.streams, r.failed ? " FAILED STREAMS" : "");
    const QJsonObject o{{QStringLiteral("bench"), QStringLiteral("mock")},
                        {QStringLiteral("run"), run.name},
                        {QStringLiteral("streams"), a.streams},
                        {QStringLiteral("tokens"), a.tokens},
                        {QStringLiteral("events"), r.events},
                        {QStringLiteral("completed"), r.completed},
                        {QStringLiteral("failed"), r.failed},
                        {QStringLiteral("seconds"), (r.lastEndNs - r.firstSendNs) / 1e9},
                        {QStringLiteral("events_per_s"), perS},
                        {QStringLiteral("model_events_per_s"), run.modelRate},
                        {QStringLiteral("events_per_write"), run.eventsPerWrite},
                        {QStringLiteral("server_cpu_us_per_event"), run.serverCpuNs / 1e3 / events},
                        {QStringLiteral("client_cpu_us_per_event"), r.cpuNs / 1e3 / events},
                        {QStringLiteral("gap_p50_ms"), p50},
                        {QStringLiteral("gap_p99_ms"), p99},
                        {QStringLiteral("loadavg"), loadAverage()}};
    std::fprintf(stderr, "%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    std::setvbuf(stdout, nullptr, _IOLBF, 0); // the table interleaves with the JSON lines on stderr
    const Args a = parseArgs(app.arguments());
    std::printf("mock SSE throughput: %d concurrent streams x %d tokens, client on the same box; "
                "load average %s, %u cores\n", a.streams, a.tokens, qPrintable(loadAverage()),
                std::thread::hardware_concurrency());
    std::printf("%-12s %10s %10s %9s %9s %9s %8s %8s %8s\n", "run", "model/s", "events/s", "ev/write",
                "srv us/ev", "cli us/ev", "gap p50", "gap p99", "streams");
    std::vector<Run> runs;
    if (a.reference) {
        runs.push_back(runReference(a));
        print(runs.back(), a);
    }
    if (a.capacity) {
        runs.push_back(runMock(QStringLiteral("capacity"), a, 0.5, a.streams / 0.5e-3));
        print(runs.back(), a);
    }
    for (int rate : a.rates) {
        // One batch of all streams per step: a step of streams/rate seconds yields `rate` events/s.
        runs.push_back(runMock(QStringLiteral("paced %1k").arg(rate / 1000), a, 1e3 * a.streams / rate, rate));
        print(runs.back(), a);
    }
    std::printf("(model/s: events/s the model produces; events/s: delivered, first send to last byte, "
                "connection ramp included;\n ev/write: events per socket write; us/ev: CPU per event; gaps: "
                "client-seen time between a stream's events, ms)\n");
    bool ok = true;
    for (const Run &run : runs)
        ok = ok && run.r.failed == 0 && run.r.completed == a.streams;
    for (const Run &run : runs)
        if (run.name == QLatin1String("capacity"))
            std::printf("target: capacity >= 100,000 events/s with %d streams: %.0f %s\n", a.streams,
                        run.r.eventsPerSecond(), run.r.eventsPerSecond() >= 100000 ? "PASS" : "MISS");
    return ok ? 0 : 1;
}
