#include "load/DescriptorLimit.h"
#include <QtGlobal>
#include <algorithm>
#ifdef Q_OS_UNIX
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace sb {

long raiseDescriptorLimit()
{
#ifdef Q_OS_UNIX
    rlimit lim{};
    if (::getrlimit(RLIMIT_NOFILE, &lim) != 0)
        return -1;
    // Up to the hard limit, but not past a million: some containers allow ~1e9, and the soft
    // limit is inherited by whatever this process starts.
    const rlim_t enough = std::min<rlim_t>(lim.rlim_max, rlim_t(1) << 20);
    if (lim.rlim_cur < enough) {
        rlimit raised = lim;
        raised.rlim_cur = enough;
        if (::setrlimit(RLIMIT_NOFILE, &raised) == 0)
            lim = raised;
    }
    return lim.rlim_cur == RLIM_INFINITY ? -1 : long(std::min<rlim_t>(lim.rlim_cur, rlim_t(1) << 30));
#else
    return -1;
#endif
}

long reserveDescriptors(long highest)
{
#ifdef Q_OS_UNIX
    const long limit = raiseDescriptorLimit();
    if (limit > 0)
        highest = std::min(highest, limit - 1);
    if (highest < 3)
        return limit;
    // F_DUPFD takes the lowest free number at or above `highest`: the table grows to hold it now,
    // and it never shrinks.
    const int probe = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (probe < 0)
        return limit;
    const int high = ::fcntl(probe, F_DUPFD_CLOEXEC, int(highest));
    if (high >= 0)
        ::close(high);
    ::close(probe);
    return limit;
#else
    Q_UNUSED(highest);
    return -1;
#endif
}

} // namespace sb
