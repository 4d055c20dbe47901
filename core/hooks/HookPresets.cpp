#include "hooks/HookPresets.h"
#include <QDir>
#include <cmath>

namespace sb {

QString effectiveResetPath(const ServerSpec &server)
{
    if (!server.reset.path.isEmpty())
        return server.reset.path;
    switch (server.flavor) {
    case Flavor::Sglang: {
        // SGLang waits up to `timeout` seconds for the server to go idle; keep it well inside
        // our own HTTP timeout so a busy server answers 400 instead of us timing out.
        const int wait = std::max(0, int(std::floor(server.reset.timeoutS / 2)));
        return QStringLiteral("/flush_cache?timeout=%1").arg(wait);
    }
    case Flavor::Llamacpp: // the slot list; every slot in it is erased (isSlotEraseReset)
        return QStringLiteral("/slots");
    case Flavor::Vllm:
    case Flavor::Trtllm: // stock trtllm-serve has none; validation warns, the call records 404
    case Flavor::Openai:
        return QStringLiteral("/reset_prefix_cache");
    }
    return QStringLiteral("/reset_prefix_cache");
}

bool isSlotEraseReset(const ServerSpec &server)
{
    return server.flavor == Flavor::Llamacpp && effectiveResetPath(server) == QLatin1String("/slots");
}

QString slotErasePathPattern()
{
    return QStringLiteral("/slots/{id}?action=erase");
}

QString llamacppPromptCacheHint()
{
    return QStringLiteral("with llama-server's host-RAM prompt cache on (--cache-ram > 0, the default) erasing the slots does not "
                          "clear every cached prefix (an erased prompt can come back from host RAM); start it with --cache-ram 0 "
                          "for a full reset");
}

QString llamacppNotSupportedHint(bool listing)
{
    return listing ? QStringLiteral("this llama-server serves no slot list (started with --no-slots or LLAMA_ARG_ENDPOINT_SLOTS=0); "
                                    "start it with --slots")
                   : QStringLiteral("llama-server erases slots only when started with --slot-save-path DIR (it answers 501 "
                                    "otherwise); restart it with that set, and with --cache-ram 0 for a full reset");
}

QString effectiveProfilerStartPath(const ServerSpec &server)
{
    return server.profiler.startPath.isEmpty() ? QStringLiteral("/start_profile") : server.profiler.startPath;
}

QString effectiveProfilerStopPath(const ServerSpec &server)
{
    return server.profiler.stopPath.isEmpty() ? QStringLiteral("/stop_profile") : server.profiler.stopPath;
}

std::optional<QJsonObject> effectiveProfilerStartBody(const ServerSpec &server)
{
    std::optional<QJsonObject> body = server.profiler.startBody;
    const bool takesOutputDir = server.flavor == Flavor::Sglang || server.flavor == Flavor::Trtllm;
    if (takesOutputDir && !server.profiler.traceDir.isEmpty()) {
        if (!body)
            body = QJsonObject();
        if (!body->contains(QStringLiteral("output_dir")))
            body->insert(QStringLiteral("output_dir"), server.profiler.traceDir);
    }
    return body;
}

QString resolvedTraceDir(const ServerSpec &server, const QString &baseDir)
{
    QString dir = server.profiler.traceDir;
    if (dir.isEmpty() && server.profiler.startBody)
        dir = server.profiler.startBody->value(QStringLiteral("output_dir")).toString();
    if (dir.isEmpty() && !server.mock.isEmpty() && server.profiler.enabled)
        dir = QStringLiteral("traces/") + server.name;
    if (dir.isEmpty())
        return {};
    if (dir.startsWith(QLatin1String("~/")))
        dir = QDir::homePath() + dir.mid(1);
    return QDir::isRelativePath(dir) ? QDir::cleanPath(baseDir + QLatin1Char('/') + dir) : QDir::cleanPath(dir);
}

std::optional<QJsonObject> resolvedProfilerStartBody(const ServerSpec &server, const QString &baseDir)
{
    std::optional<QJsonObject> body = effectiveProfilerStartBody(server);
    const QString traceDir = resolvedTraceDir(server, baseDir);
    if (body && !traceDir.isEmpty() && body->contains(QStringLiteral("output_dir"))
        && QDir::isRelativePath(body->value(QStringLiteral("output_dir")).toString()))
        body->insert(QStringLiteral("output_dir"), traceDir);
    return body;
}

QString profilerWindowHint(Flavor flavor)
{
    switch (flavor) {
    case Flavor::Vllm:
        // vLLM's own profiler config (--profiler-config): the API-server trace and the Python
        // stacks are most of a window's cost; max_iterations bounds it whatever the cell's length.
        return QStringLiteral("smaller vLLM profiler windows: start vLLM with --profiler-config "
                              "'{\"profiler\": \"torch\", \"torch_profiler_dir\": \"DIR\", \"ignore_frontend\": true, "
                              "\"torch_profiler_with_stack\": false, \"max_iterations\": 200}' "
                              "(ignore_frontend leaves the API server untraced, without stacks traces are a fraction of the size, "
                              "max_iterations ends the window after that many engine steps)");
    case Flavor::Trtllm:
        return QStringLiteral("bounded TensorRT-LLM windows: server_profiler: {start_body: {num_steps: 50, start_step: 0, activities: [CPU, GPU]}} "
                              "(the server stops the window by itself after num_steps iterations)");
    case Flavor::Sglang:
        return QStringLiteral("bounded SGLang windows: server_profiler: {start_body: {num_steps: 50}} "
                              "(the server stops the window by itself after num_steps steps)");
    case Flavor::Llamacpp:
    case Flavor::Openai:
        return {};
    }
    return {};
}

QString routeMissingHint(Flavor flavor, HookKind hook)
{
    const bool reset = hook == HookKind::Reset;
    switch (flavor) {
    case Flavor::Vllm:
        return reset ? QStringLiteral("vLLM serves /reset_prefix_cache only with VLLM_SERVER_DEV_MODE=1; restart it with that set")
                     : QStringLiteral("vLLM serves /start_profile and /stop_profile only when a profiler is configured (e.g. --profiler-config or VLLM_TORCH_PROFILER_DIR)");
    case Flavor::Trtllm:
        return reset ? QStringLiteral("stock trtllm-serve has no cache-reset route; disable KV block reuse (enable_block_reuse: false) or restart the server between cells")
                     : QStringLiteral("this trtllm-serve build has no profiler routes (they arrive with TensorRT-LLM PR #13872)");
    case Flavor::Sglang:
        return reset ? QStringLiteral("SGLang serves /flush_cache; check the path and the server version")
                     : QStringLiteral("SGLang serves /start_profile and /stop_profile; check the paths and the server version");
    case Flavor::Llamacpp:
        return reset ? QStringLiteral("llama-server has no erase-all route: use the preset (GET /slots, then POST ")
                           + slotErasePathPattern() + QStringLiteral(" for every slot)")
                     : QStringLiteral("llama-server has no profiler routes; disable server_profiler for this server");
    case Flavor::Openai:
        return QStringLiteral("this server has no such route; check the path or disable the hook");
    }
    return {};
}

} // namespace sb
