#pragma once
// One glyph per hook kind and cell: what a user needs to see in a table column before reading the
// detail pane. Aggregates all outcomes of that hook in the cell (several origins, reset placed
// before and after warmup).
#include "results/Results.h"
#include <QIcon>
#include <QString>

namespace sb::ui {

enum class HookState {
    None,    // hook not configured for this cell
    Ok,      // every call succeeded at the first attempt
    Retried, // succeeded, but only after retries (vLLM {"success": false}, SGLang 400 while busy)
    Warning, // HookSeverity::Warning: a profiler stop failed
    Failed,  // HookSeverity::Failed: a reset or profiler start failed (route_missing too)
};

struct HookSummary {
    HookState state = HookState::None;
    QString text;    // short, for CSV and accessibility: "ok", "ok after 3 attempts", "failed: refused"
    QString toolTip; // every outcome: verdict, HTTP status, attempts, latency, message
};

HookSummary summarizeHooks(const CellResult &cell, HookKind kind);
// The state's icon from the one hook icon set (ui::hookSeverityIcon); empty for None.
QIcon hookStateIcon(HookState state);
QString hookStateName(HookState state);
// "HTTP 200 · 2 attempts · 12 ms · ok — message"
QString describeHookOutcome(const HookOutcome &h);

} // namespace sb::ui
