// `sweepbench mock-server`'s command line: flags -> MockConfig, then the mock in the foreground
// (mock/MockServerCommand.h serves it until a signal).
#include "commands/MockServerCli.h"
#include "mock/MockServer.h"
#include "mock/MockServerCommand.h"
#include "spec/SpecRules.h"
#include <QCommandLineParser>
#include <cstdio>

namespace sb {

namespace {
struct Flag {
    const char *name;
    const char *help;
    const char *valueName;
};

// Flags that take a value, in the order they are documented.
const Flag kValueFlags[] = {
    {"flavor", "Personality: vllm, sglang, trtllm or llamacpp (default vllm).", "flavor"},
    {"host", "Address to listen on (default 127.0.0.1).", "host"},
    {"port", "Port to listen on; 0 picks a free one (default 8000).", "port"},
    {"model", "Model id listed by /v1/models (default demo-model); any model is accepted.", "id"},
    {"step-base-ms", "Fixed cost of a scheduler step in ms.", "ms"},
    {"step-per-seq-ms", "Added step cost per sequence in the batch, in ms.", "ms"},
    {"prefill-per-token-ms", "Added step cost per new (uncached) prefill token, in ms.", "ms"},
    {"max-batch", "Sequences running at once; the rest queue.", "n"},
    {"max-prefill-tokens", "New prefill tokens admitted per step.", "n"},
    {"block-tokens", "Prefix-cache block size in tokens (default 16).", "n"},
    {"cache-blocks", "Prefix-cache capacity in blocks (LRU).", "n"},
    {"default-max-tokens", "Output tokens when a request sets no max_tokens (default 256).", "n"},
    {"image-tokens", "Prefill tokens each image_url content part costs (default 256).", "n"},
    {"reasoning-tokens", "A reasoning model: the first n output tokens of a chat answer are thinking (delta.reasoning_content), counted in usage.completion_tokens_details.reasoning_tokens (default 0).", "n"},
    {"parallel", "llamacpp: slots (llama-server --parallel; the same as --max-batch), default 8.", "n"},
    {"slot-context", "llamacpp: context tokens per slot; a longer prompt is a 400 (default 4096).", "n"},
    {"cache-ram", "llamacpp: host-RAM prompt cache in MiB (default 0: erasing the slots is a full reset).", "MiB"},
    {"trace-dir", "Where vllm writes profiler traces; sglang/trtllm default output_dir.", "dir"},
    {"error-rate", "Fraction of completion requests answered with HTTP 500.", "p"},
    {"disconnect-rate", "Fraction of completion requests whose connection closes half way.", "p"},
    {"malformed-rate", "Fraction of streams with one broken SSE frame half way.", "p"},
    {"stall-ms", "Every stream goes silent this long half way through.", "ms"},
    {"first-byte-delay-ms", "Every completion request is held this long before it is seen.", "ms"},
    {"loop-block-ms", "Every completion request blocks the server thread this long when read.", "ms"},
    {"seed", "Seed of the fault draws (default 1).", "n"},
    {"dcgm-gpus", "Serve GET /dcgm/metrics as dcgm-exporter would for n GPUs driven by the load (default 0: 404).", "n"},
};

void addOptions(QCommandLineParser &p)
{
    p.setApplicationDescription(QStringLiteral(
        "Runs the embedded mock inference server in the foreground: an OpenAI-compatible API with\n"
        "a continuous-batching performance model, a prefix cache and the control routes of vLLM,\n"
        "SGLang, TensorRT-LLM or llama.cpp's llama-server. Prints its URL; Ctrl+C stops it.\n"
        "Per-personality defaults apply to every performance flag not given."));
    p.addHelpOption();
    for (const Flag &f : kValueFlags)
        p.addOption(QCommandLineOption(QString::fromLatin1(f.name), QString::fromLatin1(f.help),
                                       QString::fromLatin1(f.valueName)));
    p.addOption(QCommandLineOption(QStringLiteral("no-dev-mode"),
                                   QStringLiteral("vllm: serve no /reset_prefix_cache (404), as without VLLM_SERVER_DEV_MODE=1.")));
    p.addOption(QCommandLineOption(QStringLiteral("no-slot-save-path"),
                                   QStringLiteral("llamacpp: slot actions (erase) answer 501, as without --slot-save-path.")));
    p.addOption(QCommandLineOption(QStringLiteral("metrics"),
                                   QStringLiteral("llamacpp: serve GET /metrics, as llama-server --metrics (the other personalities always do).")));
    p.addOption(QCommandLineOption(QStringLiteral("dcgm-no-energy"),
                                   QStringLiteral("With --dcgm-gpus: leave out DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION (energy then comes from power).")));
    p.addOption(QCommandLineOption(QStringLiteral("no-profiler"),
                                   QStringLiteral("vllm: serve no /start_profile, /stop_profile (404), as without a profiler.")));
}

bool number(const QCommandLineParser &p, const char *name, double lo, double hi, double *out, QString *error)
{
    const QString key = QString::fromLatin1(name);
    if (!p.isSet(key))
        return true;
    bool ok = false;
    const double v = p.value(key).toDouble(&ok);
    if (!ok || v < lo || v > hi) {
        *error = QStringLiteral("--%1: expected a number from %2 to %3, got '%4'").arg(key).arg(lo).arg(hi).arg(p.value(key));
        return false;
    }
    *out = v;
    return true;
}

bool integer(const QCommandLineParser &p, const char *name, double lo, double hi, int *out, QString *error)
{
    double v = *out;
    if (!number(p, name, lo, hi, &v, error))
        return false;
    if (v != double(qint64(v))) {
        *error = QStringLiteral("--%1: expected a whole number").arg(QString::fromLatin1(name));
        return false;
    }
    *out = int(v);
    return true;
}

bool configFromArgs(const QCommandLineParser &p, MockConfig *cfg, QString *error)
{
    Flavor flavor = Flavor::Vllm;
    if (p.isSet(QStringLiteral("flavor"))) {
        const QString f = p.value(QStringLiteral("flavor")).toLower();
        const std::optional<Flavor> parsed = flavorFromString(f);
        if (!parsed || *parsed == Flavor::Openai) {
            *error = QStringLiteral("--flavor: expected one of %1, got '%2'").arg(mockPersonalityNames().join(QStringLiteral(", ")), f);
            return false;
        }
        flavor = *parsed;
    }
    MockConfig c = mockDefaults(flavor);
    c.port = 8000;
    if (p.isSet(QStringLiteral("host")))
        c.host = p.value(QStringLiteral("host"));
    if (p.isSet(QStringLiteral("model")))
        c.model = p.value(QStringLiteral("model"));
    if (p.isSet(QStringLiteral("trace-dir")))
        c.traceDir = p.value(QStringLiteral("trace-dir"));
    int port = c.port;
    double seed = double(c.seed);
    const bool ok = integer(p, "port", 0, 65535, &port, error)
                    && number(p, "step-base-ms", 0, 1e5, &c.stepBaseMs, error)
                    && number(p, "step-per-seq-ms", 0, 1e5, &c.stepPerSeqMs, error)
                    && number(p, "prefill-per-token-ms", 0, 1e5, &c.prefillPerTokenMs, error)
                    && integer(p, "max-batch", 1, 1e6, &c.maxBatch, error)
                    && integer(p, "parallel", 1, 4096, &c.maxBatch, error)
                    && integer(p, "slot-context", 1, 1e8, &c.slotContext, error)
                    && integer(p, "cache-ram", 0, 1e8, &c.cacheRamMiB, error)
                    && integer(p, "max-prefill-tokens", 1, 1e8, &c.maxPrefillTokens, error)
                    && integer(p, "block-tokens", 1, 4096, &c.blockTokens, error)
                    && integer(p, "cache-blocks", 0, 1e8, &c.cacheBlocks, error)
                    && integer(p, "default-max-tokens", 1, 1e6, &c.defaultMaxTokens, error)
                    && integer(p, "reasoning-tokens", 0, spec::kMaxMockReasoningTokens, &c.reasoningTokens, error)
                    && integer(p, "image-tokens", 0, 1e6, &c.imageTokens, error)
                    && number(p, "error-rate", 0, 1, &c.errorRate, error)
                    && number(p, "disconnect-rate", 0, 1, &c.disconnectRate, error)
                    && number(p, "malformed-rate", 0, 1, &c.malformedRate, error)
                    && integer(p, "stall-ms", 0, 3.6e6, &c.stallMs, error)
                    && integer(p, "first-byte-delay-ms", 0, 3.6e6, &c.firstByteDelayMs, error)
                    && integer(p, "loop-block-ms", 0, 60000, &c.loopBlockMs, error)
                    && integer(p, "dcgm-gpus", 0, 512, &c.dcgmGpus, error)
                    && number(p, "seed", 0, 9e15, &seed, error);
    if (!ok)
        return false;
    c.port = quint16(port);
    c.seed = quint64(seed);
    c.devMode = !p.isSet(QStringLiteral("no-dev-mode"));
    c.profiler = !p.isSet(QStringLiteral("no-profiler"));
    c.slotSavePath = !p.isSet(QStringLiteral("no-slot-save-path"));
    if (p.isSet(QStringLiteral("metrics")))
        c.metrics = true;
    c.dcgmEnergyCounter = !p.isSet(QStringLiteral("dcgm-no-energy"));
    *cfg = c;
    return true;
}
} // namespace

QString mockServerHelpText()
{
    QCommandLineParser p;
    addOptions(p);
    QString text = p.helpText();
    // helpText() names the running executable; show the subcommand instead.
    const qsizetype nl = text.indexOf(QLatin1Char('\n'));
    text = QStringLiteral("Usage: sweepbench mock-server [options]") + (nl >= 0 ? text.mid(nl) : QString());
    text += QStringLiteral(
        "\nRoutes: POST /v1/chat/completions, POST /v1/completions, GET /v1/models, GET /health;\n"
        "vllm: POST /reset_prefix_cache, /start_profile, /stop_profile; sglang: GET|POST\n"
        "/flush_cache?timeout=S, /start_profile (JSON body), /stop_profile; trtllm: /start_profile\n"
        "(JSON body), /stop_profile; llamacpp: GET /slots, POST /slots/{id}?action=erase, GET /props,\n"
        "POST /tokenize, POST /apply-template (and it closes the connection after every stream, as\n"
        "llama-server does); introspection: GET /mock/stats, POST /mock/stats/reset,\n"
        "GET /mock/timings, GET /mock/events.\n"
        "The mock never stops early: with or without ignore_eos it answers max_tokens tokens.\n");
    return text;
}

int runMockServerCommand(const QStringList &args)
{
    QCommandLineParser p;
    addOptions(p);
    if (!p.parse(args)) {
        std::fprintf(stderr, "sweepbench mock-server: %s\n", qPrintable(p.errorText()));
        return 2;
    }
    if (p.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(mockServerHelpText()), stdout);
        return 0;
    }
    if (!p.positionalArguments().isEmpty()) {
        std::fprintf(stderr, "sweepbench mock-server: unexpected argument '%s'\n",
                     qPrintable(p.positionalArguments().first()));
        return 2;
    }
    MockConfig cfg;
    QString error;
    if (!configFromArgs(p, &cfg, &error)) {
        std::fprintf(stderr, "sweepbench mock-server: %s\n", qPrintable(error));
        return 2;
    }
    return serveMockInForeground(cfg);
}

} // namespace sb
