// The foreground mock server: print the URL, serve until a signal. Signals arrive through a
// self-pipe read by a QSocketNotifier, because nothing but write() is safe inside a signal handler.
#include "mock/MockServerCommand.h"
#include "mock/MockServer.h"
#include <QCoreApplication>
#include <QEventLoop>
#include <QSocketNotifier>
#include <csignal>
#include <cstdio>
#include <sys/socket.h>
#include <unistd.h>

namespace sb {

namespace {
int g_signalFd = -1;

void onSignal(int)
{
    const char b = 1;
    if (g_signalFd >= 0)
        [[maybe_unused]] ssize_t n = ::write(g_signalFd, &b, 1);
}
} // namespace

int serveMockInForeground(const MockConfig &cfg)
{
    QString error;
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
        std::perror("sweepbench mock-server: socketpair");
        return 1;
    }
    g_signalFd = fds[0];
    struct sigaction sa = {}, oldInt = {}, oldTerm = {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &sa, &oldInt);
    ::sigaction(SIGTERM, &sa, &oldTerm);

    int rc = 0;
    {
        std::unique_ptr<MockServer> server = MockServer::start(cfg, &error);
        if (!server) {
            std::fprintf(stderr, "sweepbench mock-server: %s\n", qPrintable(error));
            rc = 1;
        } else {
            std::printf("sweepbench mock-server (%s) listening on %s\n", qPrintable(toString(cfg.flavor)),
                        qPrintable(server->url().toString()));
            std::fflush(stdout);
            QEventLoop loop;
            QSocketNotifier notifier(fds[1], QSocketNotifier::Read);
            QObject::connect(&notifier, &QSocketNotifier::activated, &loop, [&] {
                char b = 0;
                [[maybe_unused]] ssize_t n = ::read(fds[1], &b, 1);
                loop.quit();
            });
            loop.exec();
            std::printf("sweepbench mock-server: stopping\n");
            std::fflush(stdout);
        }
    }
    ::sigaction(SIGINT, &oldInt, nullptr);
    ::sigaction(SIGTERM, &oldTerm, nullptr);
    g_signalFd = -1;
    ::close(fds[0]);
    ::close(fds[1]);
    return rc;
}

} // namespace sb
