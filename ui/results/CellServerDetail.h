#pragma once
// The cell detail's server part: what the cell's server was (its recorded server_info: version,
// model, settings, launch command, process, GPUs) and, for a failed cell of a server SweepBench
// launched, the last lines its process wrote (launch/LaunchLogExcerpt.h). HTML for the detail's
// QTextBrowser; every text a server or a log controls is shown as text, never obeyed.
#include "results/Results.h"
#include <QString>

namespace sb::ui {

QString serverInfoHtml(const ServerInfo &info);
// Empty unless the cell failed and its server was launched; `folder` is the result set's folder
// (OUT), whose servers/ holds the logs.
QString failedCellLogHtml(const CellResult &cell, const QString &folder);

} // namespace sb::ui
