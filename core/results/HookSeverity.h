#pragma once
// The one judgement of how bad a hook outcome is (docs/ARCHITECTURE.md §5). The results table,
// its tooltips, the cell detail pane, the Run tab's hook log, the hook check and report.html all
// ask this function, so one outcome reads the same everywhere (three views used to
// judge route_missing three ways).
#include "results/Results.h"
#include <QString>

namespace sb {

enum class HookSeverity {
    Ok,      // succeeded at the first attempt
    Retried, // succeeded after retries (vLLM {"success": false}, SGLang 400 while busy)
    Warning, // failed where failure is tolerated: a profiler stop (traces may be incomplete, numbers are fine)
    Failed,  // a reset or profiler start failed, route_missing included: the cell's numbers are missing
             // (skip_cell, abort) or were taken without what was asked for (continue)
};

HookSeverity hookSeverity(const HookOutcome &h);
// "ok", "ok after retries", "warning", "failed"
QString hookSeverityName(HookSeverity s);
// The glyph of a severity where no icon can be drawn (terminal, report.html without the icon
// set): "✓" ok or retried, "⚠" warning, "✗" failed.
QString hookSeverityGlyph(HookSeverity s);
// A verdict to show: the recorded one, or ok/error for outcomes written before verdicts existed.
QString hookVerdictText(const HookOutcome &h);

} // namespace sb
