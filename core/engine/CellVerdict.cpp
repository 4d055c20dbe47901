#include "engine/CellVerdict.h"
#include "metrics/MetricCatalogue.h"
#include "results/SweepAxis.h"

namespace sb {

QString topError(const QMap<QString, int> &errors)
{
    QString top;
    int most = 0;
    for (auto it = errors.cbegin(); it != errors.cend(); ++it)
        if (it.value() > most)
            most = it.value(), top = it.key();
    return top;
}

QString cellOutcomeLine(const CellResult &c)
{
    QString line = QStringLiteral("cell %1 %2 %3: %4, %5 ok / %6 failed").arg(c.index).arg(c.server).arg(pointLabel(c)).arg(cellStatusName(c.status)).arg(c.completed).arg(c.failed);
    if (c.failed > 0)
        line += QStringLiteral(" (%1 %)").arg(c.errorRate * 100, 0, 'f', 1);
    if (hasMeasurements(c.status)) {
        const MetricStats ttft = c.metrics.value(tag::ttft);
        const MetricStats tput = c.metrics.value(tag::outputThroughput);
        if (ttft.count > 0) // none without streaming
            line += QStringLiteral(", TTFT p50 %1 ms").arg(ttft.p50, 0, 'f', 1);
        line += QStringLiteral(", %1 tok/s").arg(tput.avg, 0, 'f', 0);
    }
    if (c.reconnects > 0)
        line += QStringLiteral(", %1 reconnects").arg(c.reconnects);
    if (!c.reason.isEmpty())
        line += QStringLiteral(" — ") + c.reason;
    return line;
}

CellVerdict judgeCell(const CellResult &cell, double maxErrorRate, bool cancelled)
{
    CellVerdict v;
    const int total = cell.completed + cell.failed;
    v.errorRate = total > 0 ? double(cell.failed) / total : 0;
    const QString top = topError(cell.errors);
    const QString topText = top.isEmpty() ? QString()
                                          : QStringLiteral("%1 ×%2").arg(top).arg(cell.errors.value(top)) +
                                                (cell.errorSamples.contains(top) ? QStringLiteral(": ") + cell.errorSamples.value(top) : QString());
    if (cancelled) {
        v.status = CellStatus::Cancelled;
        v.reason = QStringLiteral("cancelled by the user after %1 of its requests").arg(total);
        return v;
    }
    if (cell.completed == 0) {
        v.status = CellStatus::Failed;
        v.reason = top.isEmpty() ? QStringLiteral("no request completed")
                                 : QStringLiteral("all %1 measured requests failed; most often %2").arg(cell.failed).arg(topText);
        return v;
    }
    if (cell.failed == 0)
        return v;
    const QString share = QStringLiteral("%1 of %2 measured requests failed (%3 %)").arg(cell.failed).arg(total).arg(v.errorRate * 100, 0, 'f', 1);
    if (v.errorRate > maxErrorRate) {
        v.status = CellStatus::Degraded;
        v.reason = QStringLiteral("%1, above max_error_rate %2 %; most often %3").arg(share).arg(maxErrorRate * 100, 0, 'g', 3).arg(topText);
    } else {
        v.warnings.append(QStringLiteral("%1; most often %2").arg(share, topText));
    }
    return v;
}

} // namespace sb
