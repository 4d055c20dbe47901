#pragma once
// Flavor presets for control routes (docs/ARCHITECTURE.md §6) and the hints shown when a route is missing.
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

// Hint for a 404 on a hook route ("route_missing"), per flavor. `hook` is
// "reset_kv_cache", "profiler_start" or "profiler_stop".
QString routeMissingHint(Flavor flavor, const QString &hook);

// Checks a relative hook path: must start with '/', must not contain "://". Returns an error
// message or an empty string.
QString checkHookPath(const QString &path);

} // namespace sb
