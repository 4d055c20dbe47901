// The sweep's workload beyond one fixed length: the dataset (read once, before anything is
// written) and each cell's plan, whose filler map comes from calibrating every input length
// the workload needs (workload/WorkloadPlan calibrationTargets; docs/spec-reference.md).
#include "engine/SweepEngineWorker.h"
#include "engine/OpenLoopCell.h"

namespace sb {

bool SweepEngineWorker::loadWorkloadDataset(QString *error)
{
    const WorkloadSpec &w = m_spec.workload;
    if (!w.dataset)
        return true;
    auto dataset = std::make_shared<Dataset>();
    if (!loadDataset(*w.dataset, m_spec.sourcePath, dataset.get(), error, w.sessions.has_value()))
        return false;
    if (m_spec.openLoop.active() && m_spec.openLoop.arrival == Arrival::Trace) {
        if (const QString problem = traceArrivalProblem(*dataset); !problem.isEmpty()) {
            *error = problem;
            return false;
        }
    }
    m_owner->log(dataset->describe());
    m_dataset = std::move(dataset);
    return true;
}

std::shared_ptr<const WorkloadPlan> SweepEngineWorker::workloadPlan(const ServerSpec &server, const CellContext &ctx,
                                                                    PromptCalibrator &calibrator, CalibrationStore &store, CellResult &cell)
{
    const WorkloadSpec &w = m_spec.workload;
    QList<QPair<int, int>> anchors;
    QStringList calibrated, failed;
    const QList<int> targets = calibrationTargets(w, m_dataset.get());
    for (int target : targets) {
        // Each length is calibrated (and cached in calibration.json) as a fixed workload of
        // that length, so distributions and fixed sweeps of one model share anchors. One
        // length warns as a fixed workload always did; several are summed up in one warning.
        WorkloadSpec one = w;
        one.inputTokens = target;
        one.inputLengths.reset();
        CellResult scratch;
        const int chars = calibratedFiller(server, ctx, calibrator, store, targets.size() == 1 ? cell : scratch, one);
        const PromptCalibration *known = store.find(calibrationKey(server, one));
        if (chars >= 0)
            anchors.append({target, chars}), calibrated.append(QString::number(target));
        else if (known && known->failure != CalibrationFailure::None) // named, as a single length's warning is
            failed.append(QStringLiteral("%1 (%2)").arg(target).arg(calibrationFailureName(known->failure)));
        else
            failed.append(QString::number(target));
    }
    if (targets.size() > 1 && !failed.isEmpty() && w.calibratePrompts && !ctx.baseUrls.isEmpty())
        cell.warnings.append(anchors.isEmpty() ? QStringLiteral("prompt lengths not calibrated (%1): input lengths are sent as words, which the "
                                                                "server's tokenizer counts differently")
                                                     .arg(failed.join(QStringLiteral(", ")))
                                               : QStringLiteral("prompt lengths %1 could not be calibrated; those prompts are sized from "
                                                                "the lengths that were (%2)")
                                                     .arg(failed.join(QStringLiteral(", ")), calibrated.join(QStringLiteral(", "))));
    return std::make_shared<const WorkloadPlan>(w, FillerMap(anchors), m_dataset);
}

} // namespace sb
