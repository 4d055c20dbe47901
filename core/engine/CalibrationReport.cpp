#include "engine/CalibrationReport.h"
#include "engine/OpenLoopCell.h"
#include "results/SweepAxis.h"
#include "workload/WorkloadPlan.h"
#include <algorithm>
#include <cmath>

namespace sb {

namespace {
QString lengths(const char *what, int fixed, const std::optional<LengthDistribution> &d, qint64 seed)
{
    if (!d)
        return QStringLiteral("%1: %2 tokens").arg(QLatin1String(what)).arg(fixed);
    return QStringLiteral("%1: %2 (mean %3 tokens, seed %4)").arg(QLatin1String(what), d->describe()).arg(d->expectedMean(), 0, 'f', 1).arg(seed);
}
} // namespace

QString workloadEstimateLine(const WorkloadSpec &w)
{
    QStringList parts;
    if (w.dataset) {
        parts.append(QStringLiteral("prompts from the %1 dataset %2").arg(toString(w.dataset->format), w.dataset->path));
        if (w.dataset->format != DatasetFormat::Mooncake)
            return parts.join(QStringLiteral(" · "));
        parts.append(w.calibratePrompts ? QStringLiteral("its input lengths sized by calibrating each model before the first cell")
                                        : QStringLiteral("its input lengths sent as words (calibrate_prompts: false)"));
        return parts.join(QStringLiteral(" · "));
    }
    parts.append(lengths("input", w.inputTokens, w.inputLengths, w.seed));
    parts.append(lengths("output", w.outputTokens, w.outputLengths, w.seed));
    if (!w.calibratePrompts) {
        parts.append(QStringLiteral("prompts sent as words (calibrate_prompts: false)"));
    } else {
        QStringList at;
        for (int t : calibrationTargets(w, nullptr))
            at.append(QString::number(t));
        parts.append(QStringLiteral("prompts calibrated per model at %1 token%2 before the first cell")
                         .arg(at.join(QStringLiteral(", ")), at.size() == 1 && at.first() == QLatin1String("1") ? QString() : QStringLiteral("s")));
    }
    if (const QString cache = cacheShapeLine(w); !cache.isEmpty())
        parts.append(cache);
    return parts.join(QStringLiteral(" · "));
}

QString cacheShapeLine(const WorkloadSpec &w)
{
    QStringList parts;
    if (w.prompts == PromptMode::SharedPrefix && w.sharedPrefixTokens > 0 && w.inputTokens > 0)
        parts.append(QStringLiteral("%1 shared prefix%2 of %3 tokens (%4 % of each first prompt)")
                         .arg(w.sharedPrefixCount)
                         .arg(w.sharedPrefixCount == 1 ? QString() : QStringLiteral("es"))
                         .arg(w.sharedPrefixTokens)
                         .arg(100.0 * std::min(w.sharedPrefixTokens, w.inputTokens) / w.inputTokens, 0, 'f', 0));
    if (w.sessions && w.dataset) // the dataset's conversations: the dataset's own line counts them
        parts.append(QStringLiteral("sessions from the dataset's conversations"));
    else if (w.sessions) {
        const SessionSpec &s = *w.sessions;
        // The nominal session: each turn adds the answer and the next message to the history.
        const int turns = std::clamp(int(std::lround(s.meanTurns())), 1, kMaxSessionTurns);
        const double followUp = s.followUpTokens > 0 ? s.followUpTokens : w.inputTokens;
        QStringList grow;
        double prompt = w.inputTokens, all = 0, history = 0;
        for (int t = 1; t <= turns; ++t) {
            if (t <= 6)
                grow.append(QString::number(prompt, 'f', 0));
            else if (t == turns)
                grow.append(QStringLiteral("… %1").arg(prompt, 0, 'f', 0));
            all += prompt;
            history += prompt - (t == 1 ? prompt : followUp);
            prompt += w.outputTokens + followUp;
        }
        QString think = s.thinkDist ? QStringLiteral(", think %1 ms").arg(s.thinkDist->describe())
                                    : s.thinkTimeMs > 0 ? QStringLiteral(", think %1 ms").arg(s.thinkTimeMs) : QString();
        QString line = QStringLiteral("sessions of %1 turn%2%3").arg(s.turnsDist ? s.turnsDist->describe() : QString::number(s.turns),
                                                                     turns == 1 && !s.turnsDist ? QString() : QStringLiteral("s"), think);
        if (turns > 1)
            line += QStringLiteral(": a session's prompts grow %1 tokens; %2 % of its prompt tokens are earlier turns a prefix cache can serve")
                        .arg(grow.join(QStringLiteral(" → ")))
                        .arg(all > 0 ? 100 * history / all : 0, 0, 'f', 0);
        parts.append(line);
    }
    return parts.join(QStringLiteral(" · "));
}

QStringList describeWorkload(const SweepSpec &spec, bool *ok)
{
    *ok = true;
    const WorkloadSpec &w = spec.workload;
    QStringList out;
    if (w.dataset) {
        Dataset d;
        QString error;
        if (!loadDataset(*w.dataset, spec.sourcePath, &d, &error, w.sessions.has_value())) {
            *ok = false;
            return {QStringLiteral("dataset: ") + error};
        }
        out.append(QStringLiteral("dataset: ") + d.describe());
        if (spec.openLoop.active() && spec.openLoop.arrival == Arrival::Trace) {
            if (const QString problem = traceArrivalProblem(d); !problem.isEmpty()) {
                *ok = false;
                out.append(problem);
            } else {
                const double own = ArrivalSchedule::traceRate(d.timestampsMs());
                QStringList speeds;
                for (double r : spec.openLoop.rates)
                    speeds.append(QStringLiteral("%1 req/s = %2x").arg(formatRate(r)).arg(r / own, 0, 'g', 3));
                out.append(QStringLiteral("trace arrivals: the trace's own rate is %1 req/s; %2").arg(own, 0, 'f', 3).arg(speeds.join(QStringLiteral(", "))));
            }
        }
        if (d.stats.withOutput < d.stats.entries)
            out.append(lengths("output (entries without one)", w.outputTokens, w.outputLengths, w.seed));
        return out;
    }
    out.append(lengths("input", w.inputTokens, w.inputLengths, w.seed));
    out.append(lengths("output", w.outputTokens, w.outputLengths, w.seed));
    return out;
}

QStringList calibrationReport(ControlClient &client, const ServerSpec &server, const QString &baseUrl, const WorkloadSpec &w,
                              const Dataset *dataset, const std::atomic<bool> *cancel)
{
    if (!w.calibratePrompts)
        return {QStringLiteral("prompt calibration: off (calibrate_prompts: false): input lengths are sent as words")};
    const QList<int> targets = calibrationTargets(w, dataset);
    if (targets.isEmpty())
        return {QStringLiteral("prompt calibration: none needed (the dataset's prompts are sent as written)")};
    PromptCalibrator calibrator(client, cancel);
    QStringList out;
    for (int target : targets) {
        WorkloadSpec one = w;
        one.inputTokens = target;
        one.inputLengths.reset();
        // A tag of the benchmark's width ("sb-" + 13 + "-c" + 4), never a measured prompt's.
        const PromptCalibration c = calibrator.calibrate(server, baseUrl, one, "cb-0000000000000-c0000");
        out.append(c.ok() ? QStringLiteral("prompt calibration: %1 tokens = %2 filler characters (server counted %3; %4 probes%5)")
                                .arg(target).arg(c.fillerChars).arg(c.measuredTokens).arg(c.probes).arg(c.viaTokenize ? QStringLiteral(" via /tokenize") : QString())
                          : QStringLiteral("prompt calibration: %1 tokens not calibrated (%2): the run would send words").arg(target).arg(c.failureText()));
        if (cancel && cancel->load())
            break;
    }
    return out;
}

} // namespace sb
