#include "load/HostSteal.h"
#include <QFile>
#include <unistd.h>

namespace sb {

long long stealTicks(const QByteArray &procStat)
{
    // "cpu  user nice system idle iowait irq softirq steal guest guest_nice"
    const qsizetype end = procStat.indexOf('\n');
    const QByteArray first = end < 0 ? procStat : procStat.left(end); // Qt 6: left(-1) is empty
    const QList<QByteArray> fields = first.simplified().split(' ');
    if (fields.size() < 9 || fields[0] != "cpu")
        return -1;
    bool ok = false;
    const long long steal = fields[8].toLongLong(&ok);
    return ok && steal >= 0 ? steal : -1;
}

double hostStealMs()
{
    QFile stat(QStringLiteral("/proc/stat"));
    // /proc files report size 0: read up to the first line's worth, which holds the aggregate.
    if (!stat.open(QIODevice::ReadOnly))
        return -1;
    const long long ticks = stealTicks(stat.read(512));
    const long hz = ::sysconf(_SC_CLK_TCK);
    return ticks < 0 || hz <= 0 ? -1 : double(ticks) * 1000.0 / double(hz);
}

} // namespace sb
