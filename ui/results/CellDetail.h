#pragma once
// The detail pane's content for one cell: every hook outcome in full, errors by kind with a
// sample, a failed launched server's last log lines, warnings, traces (as links), the records file
// and what the server was (results/CellServerDetail.h). HTML for a QTextBrowser.
#include "results/Results.h"
#include <QString>

namespace sb::ui {

QString cellDetailHtml(const CellResult &cell, const QString &folder);

} // namespace sb::ui
