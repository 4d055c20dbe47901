#pragma once
// Steal time: CPU time the hypervisor gave to others while this virtual machine's vCPUs wanted to
// run. A preempted vCPU stalls every thread on it, the client's included, so on a busy host a
// request is sent late or a token dated late for reasons no client can fix. Measured per phase
// (PhaseOutcome::hostStealMs) so a cell can say when its figures include it.
#include <QByteArray>

namespace sb {

// The steal column of /proc/stat's aggregate "cpu" line (all CPUs summed), in clock ticks;
// -1 when the text has no such line (not Linux, or a kernel without the column).
long long stealTicks(const QByteArray &procStat);
// This machine's steal so far, in milliseconds; -1 where unknown.
double hostStealMs();

} // namespace sb
