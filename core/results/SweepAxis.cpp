#include "results/SweepAxis.h"
#include <algorithm>

namespace sb {

SweepAxis axisOf(const CellResult &c) { return c.openLoop ? SweepAxis::RequestRate : SweepAxis::Concurrency; }

SweepAxis axisOf(const SweepResults &r)
{
    return std::any_of(r.cells.cbegin(), r.cells.cend(), [](const CellResult &c) { return bool(c.openLoop); }) ? SweepAxis::RequestRate
                                                                                                              : SweepAxis::Concurrency;
}

double pointValue(const CellResult &c) { return c.openLoop ? c.openLoop->targetRate : double(c.concurrency); }

QString axisTitle(SweepAxis a) { return a == SweepAxis::RequestRate ? QStringLiteral("request rate (req/s)") : QStringLiteral("concurrency"); }

QString axisKey(SweepAxis a) { return a == SweepAxis::RequestRate ? QStringLiteral("request_rate") : QStringLiteral("concurrency"); }

QString axisShort(SweepAxis a) { return a == SweepAxis::RequestRate ? QStringLiteral("req/s") : QStringLiteral("C"); }

QString pointNumber(const CellResult &c) { return c.openLoop ? formatRate(c.openLoop->targetRate) : QString::number(c.concurrency); }

QString formatRate(double r)
{
    QString s = QString::number(r, 'f', 3);
    while (s.contains(QLatin1Char('.')) && (s.endsWith(QLatin1Char('0')) || s.endsWith(QLatin1Char('.'))))
        s.chop(1);
    return s;
}

QString formatPoint(SweepAxis a, double v)
{
    return a == SweepAxis::RequestRate ? formatRate(v) + QStringLiteral(" req/s") : QString::number(qRound64(v));
}

QString pointLabel(const CellResult &c)
{
    return c.openLoop ? formatPoint(SweepAxis::RequestRate, c.openLoop->targetRate) : QStringLiteral("c=%1").arg(c.concurrency);
}

QString pointTag(const CellResult &c)
{
    return c.openLoop ? QStringLiteral("r") + formatRate(c.openLoop->targetRate) : QStringLiteral("c%1").arg(c.concurrency);
}

QString pointDescription(const CellResult &c)
{
    if (!c.openLoop)
        return QStringLiteral("closed loop: %1 requests in flight").arg(c.concurrency);
    QString s = QStringLiteral("open loop: %1").arg(formatPoint(SweepAxis::RequestRate, c.openLoop->targetRate));
    if (!c.openLoop->arrival.isEmpty())
        s += QStringLiteral(" (%1 arrivals)").arg(c.openLoop->arrival);
    if (const int cap = c.openLoop->maxConcurrency > 0 ? c.openLoop->maxConcurrency : c.concurrency; cap > 0)
        s += QStringLiteral(", at most %1 requests in flight (max_concurrency)").arg(cap);
    return s;
}

QString runLabel(const CellResult &c) { return QStringLiteral("run %1").arg(c.repeat + 1); }

} // namespace sb
