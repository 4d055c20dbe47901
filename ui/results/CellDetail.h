#pragma once
// The detail pane's content for one cell: every hook outcome in full, errors by kind with a
// sample, warnings, traces (as links) and the records file. HTML for a QTextBrowser.
#include "results/Results.h"
#include <QString>

namespace sb::ui {

QString cellDetailHtml(const CellResult &cell, const QString &folder);

} // namespace sb::ui
