// The metrics scraper's schedule around profiler routes: holdScrapes() waits for a scrape in
// flight and sends none until the window's next change, so no scrape crosses a route.
#include "servermetrics/MetricsScraper.h"
#include "io/SteadyClock.h"
#include "TestSupport.h"
#include <QTemporaryDir>
#include <QTest>
#include <arpa/inet.h>
#include <atomic>
#include <mutex>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace sb;

namespace {
// A metrics endpoint that takes `delayMs` to answer each scrape, one connection at a time, and
// notes when each request arrived and when its answer left.
class SlowMetricsEndpoint
{
public:
    explicit SlowMetricsEndpoint(int delayMs) : m_delayMs(delayMs)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        if (::bind(m_fd, reinterpret_cast<sockaddr *>(&a), len) != 0 || ::listen(m_fd, 16) != 0
            || ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&a), &len) != 0)
            return;
        m_port = ntohs(a.sin_port);
        m_thread = std::thread([this] { serve(); });
    }
    ~SlowMetricsEndpoint()
    {
        m_stop = true;
        ::shutdown(m_fd, SHUT_RDWR);
        if (m_thread.joinable())
            m_thread.join();
        ::close(m_fd);
    }
    quint16 port() const { return m_port; }
    int arrived() const { return m_arrived; }
    std::vector<std::int64_t> arrivals() const { std::lock_guard l(m_mutex); return m_arrivalNs; }
    std::vector<std::int64_t> answers() const { std::lock_guard l(m_mutex); return m_answerNs; }

private:
    void serve()
    {
        while (!m_stop) {
            const int c = ::accept(m_fd, nullptr, nullptr);
            if (c < 0)
                return;
            char buf[4096];
            std::string request;
            while (request.find("\r\n\r\n") == std::string::npos) {
                const ssize_t n = ::recv(c, buf, sizeof buf, 0);
                if (n <= 0)
                    break;
                request.append(buf, std::size_t(n));
            }
            {
                std::lock_guard l(m_mutex);
                m_arrivalNs.push_back(steadyNowNs());
            }
            ++m_arrived;
            std::this_thread::sleep_for(std::chrono::milliseconds(m_delayMs));
            const std::string body = "# TYPE x_total counter\nx_total 1\n";
            const std::string answer = "HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\nConnection: close\r\n"
                                       "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
            {
                std::lock_guard l(m_mutex);
                m_answerNs.push_back(steadyNowNs());
            }
            ::send(c, answer.data(), answer.size(), MSG_NOSIGNAL);
            ::close(c);
        }
    }

    int m_delayMs;
    int m_fd = -1;
    quint16 m_port = 0;
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_arrived{0};
    mutable std::mutex m_mutex;
    std::vector<std::int64_t> m_arrivalNs, m_answerNs;
    std::thread m_thread;
};

bool waitFor(const std::function<bool()> &done, int timeoutMs)
{
    for (int t = 0; t < timeoutMs && !done(); t += 5)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return done();
}
} // namespace

class TstMetricsScraper : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    // A scrape in flight when a route is due is waited for; none is sent while held; the window
    // opening (or closing) brings them back, marked by what the window was when they were sent.
    void holdWaitsForTheScrapeInFlightAndSendsNone()
    {
        SlowMetricsEndpoint endpoint(300);
        QVERIFY(endpoint.port() != 0);
        QTemporaryDir dir;
        const QString origin = QStringLiteral("http://127.0.0.1:%1").arg(endpoint.port());
        MetricsScraper scraper({{origin, QUrl(origin + QStringLiteral("/metrics")), {}}}, 0.05, dir.filePath(QStringLiteral("s.part")));
        scraper.setWindowInterval(0.05);
        scraper.start(); // the baseline: one scrape, answered
        QCOMPARE(endpoint.arrived(), 1);

        // The next periodic scrape is in flight (the endpoint holds it 300 ms).
        QVERIFY(waitFor([&] { return endpoint.arrived() == 2; }, 2000));
        scraper.holdScrapes();
        const std::int64_t heldAt = steadyNowNs();
        QCOMPARE(endpoint.answers().size(), std::size_t(2));
        QVERIFY(endpoint.answers().back() <= heldAt); // returned only once the answer left

        std::this_thread::sleep_for(std::chrono::milliseconds(400)); // eight intervals
        QCOMPARE(endpoint.arrived(), 2);

        scraper.setWindowOpen(true);
        const std::int64_t openedAt = steadyNowNs();
        QVERIFY(waitFor([&] { return endpoint.arrived() >= 3; }, 2000));
        QVERIFY(endpoint.arrivals().at(2) >= openedAt);

        // Held again with nothing in flight at that moment or with one: either way the hold
        // returns with no scrape outstanding and the closed window's scrapes come after it.
        scraper.holdScrapes();
        const int beforeClose = endpoint.arrived();
        QCOMPARE(int(endpoint.answers().size()), beforeClose);
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        QCOMPARE(endpoint.arrived(), beforeClose);
        scraper.setWindowOpen(false);
        scraper.stop(0);

        int marked = 0;
        for (const ScrapePoint &p : scraper.points()) {
            QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
            marked += p.inWindow ? 1 : 0;
        }
        // Scrapes sent while the window was open: those after the first hold's release and
        // before the second hold.
        QCOMPARE(marked, beforeClose - 2);
    }

    // Hold then release without a window change (a start route that failed): the closed
    // schedule resumes.
    void releaseWithoutAWindowResumesTheSchedule()
    {
        SlowMetricsEndpoint endpoint(0);
        QVERIFY(endpoint.port() != 0);
        QTemporaryDir dir;
        const QString origin = QStringLiteral("http://127.0.0.1:%1").arg(endpoint.port());
        MetricsScraper scraper({{origin, QUrl(origin + QStringLiteral("/metrics")), {}}}, 0.05, dir.filePath(QStringLiteral("s.part")));
        scraper.start();
        scraper.holdScrapes();
        const int held = endpoint.arrived();
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        QCOMPARE(endpoint.arrived(), held);
        scraper.setWindowOpen(false);
        QVERIFY(waitFor([&] { return endpoint.arrived() > held + 1; }, 2000));
        scraper.stop(0);
        for (const ScrapePoint &p : scraper.points())
            QVERIFY(!p.inWindow);
    }
};

QTEST_GUILESS_MAIN(TstMetricsScraper)
#include "tst_metrics_scraper.moc"
