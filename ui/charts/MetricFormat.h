#pragma once
// Number formatting shared by charts, table and detail pane, so a value reads the same everywhere.
#include "metrics/MetricCatalogue.h" // shortUnit, cellValue
#include "results/Results.h"
#include <QString>

namespace sb::ui {

// "12.3", "1,234", "0.0421"; "—" for NaN. Significant digits adapt to magnitude.
QString formatNumber(double v);
// Value with unit: "12.3 ms", "1,234 tok/s"; units "tokens/s" and "requests/s" are shortened.
QString formatWithUnit(double v, const QString &unit);
// Multi-line plain text describing a cell's key numbers (chart tooltips).
QString cellSummaryText(const CellResult &cell);

} // namespace sb::ui
