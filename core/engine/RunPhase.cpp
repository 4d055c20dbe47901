#include "engine/RunPhase.h"

namespace sb {

QString runPhaseName(RunPhase p)
{
    switch (p) {
    case RunPhase::Starting: return QStringLiteral("starting");
    case RunPhase::Reset: return QStringLiteral("reset");
    case RunPhase::Warmup: return QStringLiteral("warmup");
    case RunPhase::ProfilerStart: return QStringLiteral("profiler_start");
    case RunPhase::Measure: return QStringLiteral("measure");
    case RunPhase::ProfilerStop: return QStringLiteral("profiler_stop");
    case RunPhase::Done: return QStringLiteral("done");
    }
    return QString();
}

} // namespace sb
