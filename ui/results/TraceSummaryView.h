#pragma once
// The Trace tab's reading of a cell's stored trace_summary (results/TraceSummary.h, docs/traces.md):
// the steps page (steps per kind with step-time p50/p90/p99/max, batch and tokens per step, GPU
// busy share, span and events, the files with their rank, host, version and error, and the rank
// warnings in the words of engine/CellValidity) and the top-ops tables, sortable by any column.
// `file` picks one file's figures; -1 the merged ones.
#include "results/TraceSummary.h"
#include <QPalette>
#include <QString>

QT_BEGIN_NAMESPACE
class QTableWidget;
class QWidget;
QT_END_NAMESPACE

namespace sb::ui {

QString traceStepsHtml(const TraceSummary &summary, int file, const QPalette &palette);
// What a file is called in the scope chooser and the steps page: "rank 1 · trtllm-trace-7-rank-1.json".
QString traceFileTitle(const TraceFileSummary &file);

// A table for top ops or kernels: name, total ms, calls, mean per call; sorting on.
QTableWidget *makeOpTable(const QString &nameHeader, QWidget *parent);
// Fills it (longest first); `empty` is shown as the one row when there are none.
void fillOpTable(QTableWidget *table, const QList<OpTime> &ops, const QString &empty);

} // namespace sb::ui
