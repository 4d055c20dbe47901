#pragma once
// Compare → Export comparison…: renders the Compare charts offscreen and writes one
// self-contained HTML page (report/ComparisonHtml.h) atomically.
#include "charts/ChartFactory.h"
#include <QString>

namespace sb::ui {

// The sets as Compare holds them (names, styles); the difference table compares metric.stat.
bool writeComparisonHtml(const QString &path, const QList<ChartSeriesInput> &sets, const QString &metric, const QString &stat,
                         QString *error, const QStringList &sources = {});

} // namespace sb::ui
