#include "results/CellStatus.h"

namespace sb {

namespace {
struct Name {
    CellStatus status;
    const char *text;
};
constexpr Name kNames[] = {
    {CellStatus::Pending, "pending"},     {CellStatus::Completed, "completed"}, {CellStatus::Degraded, "degraded"},
    {CellStatus::Failed, "failed"},       {CellStatus::Skipped, "skipped"},     {CellStatus::Cancelled, "cancelled"},
};
} // namespace

QString cellStatusName(CellStatus s)
{
    for (const Name &n : kNames)
        if (n.status == s)
            return QString::fromLatin1(n.text);
    return QStringLiteral("pending");
}

std::optional<CellStatus> cellStatusFromString(const QString &s)
{
    for (const Name &n : kNames)
        if (s == QLatin1String(n.text))
            return n.status;
    return std::nullopt;
}

bool hasMeasurements(CellStatus s)
{
    return s == CellStatus::Completed || s == CellStatus::Degraded;
}

} // namespace sb
