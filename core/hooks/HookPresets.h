#pragma once
// Flavor presets for control routes (docs/ARCHITECTURE.md §6) and the hints shown when a route is missing.
#include "results/HookVocabulary.h"
#include "spec/SweepSpec.h"

namespace sb {

// Path actually called for the reset hook: the spec's path, or the flavor preset when empty.
QString effectiveResetPath(const ServerSpec &server);
QString effectiveProfilerStartPath(const ServerSpec &server);
QString effectiveProfilerStopPath(const ServerSpec &server);
// The JSON body sent to start_profile, if any: the spec's start_body, with `output_dir`
// filled from trace_dir for sglang/trtllm when only the latter is given.
std::optional<QJsonObject> effectiveProfilerStartBody(const ServerSpec &server);

// The folder a server's profiler writes into, made absolute: trace_dir, else start_body.output_dir,
// else (embedded mocks only) traces/<server name>. Relative folders are taken relative to
// `baseDir` (the results folder), so demo specs stay portable. Empty when unknown.
QString resolvedTraceDir(const ServerSpec &server, const QString &baseDir);

// The start body actually sent: effectiveProfilerStartBody with a relative output_dir made
// absolute the same way as resolvedTraceDir (so the server writes where we list).
std::optional<QJsonObject> resolvedProfilerStartBody(const ServerSpec &server, const QString &baseDir);

// llama.cpp has no erase-all route: its reset lists the slots (GET /slots) and erases each one
// (POST /slots/{id}?action=erase), see docs/spec-reference.md. True when the reset hook of
// `server` is that procedure: flavor llamacpp with the preset path or an explicit "/slots".
bool isSlotEraseReset(const ServerSpec &server);
// The route a slot erase goes to, for messages and results ("/slots/{id}?action=erase").
QString slotErasePathPattern();
// Why a llama.cpp slot erase may not be a full reset: the host-RAM prompt cache keeps prefixes.
QString llamacppPromptCacheHint();
// Hint for the 501 llama-server answers to slot routes it was not started for: `listing` is the
// GET /slots call (needs slots enabled), else an erase (needs --slot-save-path).
QString llamacppNotSupportedHint(bool listing);

// How to keep a profiler window small on this flavor (shown by hooks check and the designer
// whenever the profiler is on); empty when the flavor has no such setting.
QString profilerWindowHint(Flavor flavor);

// Hint for a 404 on a hook route (HookVerdict::RouteMissing), per flavor and hook.
QString routeMissingHint(Flavor flavor, HookKind hook);

} // namespace sb
