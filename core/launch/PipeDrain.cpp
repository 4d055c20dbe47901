#include "launch/PipeDrain.h"
#include <cerrno>
#include <poll.h>
#include <unistd.h>

namespace sb {

void drainPipe(int fd, const std::atomic<bool> &stop, const std::function<void(const char *, std::size_t)> &onChunk)
{
    char buf[64 * 1024];
    for (;;) {
        pollfd p{fd, POLLIN, 0};
        const int r = ::poll(&p, 1, 100);
        if (r == 0) {
            if (stop)
                break;
            continue;
        }
        if (r < 0 && errno == EINTR)
            continue;
        const ssize_t n = r > 0 ? ::read(fd, buf, sizeof buf) : -1;
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        onChunk(buf, std::size_t(n));
    }
    ::close(fd);
}

} // namespace sb
