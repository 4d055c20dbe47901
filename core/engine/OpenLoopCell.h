#pragma once
// An open-loop cell (a request-rate point, docs/spec-reference.md): the phase's schedule, and
// what its records say about how well the client kept to it.
#include "load/ArrivalSchedule.h"
#include "load/RequestRecord.h"
#include "results/OpenLoopResult.h"
#include "workload/Dataset.h"
#include <QStringList>
#include <memory>
#include <vector>

namespace sb {

// The arrivals of run `repeat` of a point: seed + repeat, so repeats sample the arrival process
// too (the same seed would replay one arrival pattern and understate the spread).
OpenLoopSpec repeatArrivals(const OpenLoopSpec &spec, int repeat);
// The schedule of one rate point; the same (spec, rate) gives the same schedule every time.
// `traceMs`: the dataset's timestamps (Dataset::timestampsMs), used by arrival: trace.
// `requests` (or, when 0, `durationS`) is the measured phase's length: with rate_mean: exact the
// gaps are rescaled so that length is sent exactly at ratePerS.
std::shared_ptr<ArrivalSchedule> scheduleFor(const OpenLoopSpec &spec, double ratePerS, const std::vector<double> &traceMs = {},
                                             int requests = 0, double durationS = 0);
// arrival: trace needs every entry timestamped, in order, over more than 0 ms: empty when the
// dataset can pace a trace replay, else why not (for the error that stops the run).
QString traceArrivalProblem(const Dataset &dataset);
// Achieved rate, schedule lag and client-queue figures from the measured requests' records.
OpenLoopResult openLoopStats(const std::vector<RequestRecord> &records, const OpenLoopSpec &spec, double ratePerS);
// Validity warnings: the client sent late (lag p99 above kMaxLagP99Ms), or the cap made a queue.
// `hostStealMs`, the hypervisor's steal during the phase (-1 unknown), is named beside late sends:
// a preempted vCPU delays any client, so it points at the machine rather than the client.
// `clientWaitMax`, the largest share of the phase a client IO thread spent runnable but waiting
// for a CPU, is named too when it is at least kNotableClientWait: other work on the client's
// cores (a build, the server itself) delays its sends.
QStringList openLoopWarnings(const OpenLoopResult &r, double hostStealMs = -1, double clientWaitMax = 0);
inline constexpr double kNotableClientWait = 0.01;
inline constexpr double kMaxLagP99Ms = 5;

} // namespace sb
