// Parsing of `telemetry: [{url, headers}]` and `cost: {gpu_hour, gpus}`, both at the top level
// and per server (docs/gpu-telemetry.md). Shapes and types only; ranges and URLs are the
// validator's, so the GUI designer gets the same checks.
#include "spec/SpecParsers.h"
#include "spec/SpecRules.h"

namespace sb::specparse {

using namespace sb::yaml;

const QStringList kTelemetryKeys = {"url", "headers", "nvidia_smi", "program", "interval_ms"};
const QStringList kCostKeys = {"gpu_hour", "gpus"};

void parseTelemetry(Context &ctx, const YAML::Node &node, const QString &path, QList<TelemetrySpec> &out)
{
    if (!node.IsSequence()) {
        ctx.error(valuePos(ctx, node, path), path,
                  QStringLiteral("expected a list of GPU exporters, e.g. [{url: http://gpu-node:9400/metrics}], got %1").arg(describe(node)));
        return;
    }
    int i = 0;
    for (const auto &item : node) {
        const QString itemPath = indexPath(path, i++);
        ctx.remember(itemPath, toPos(item.Mark()));
        TelemetrySpec t;
        if (!item.IsMap()) {
            ctx.error(toPos(item.Mark()), itemPath, QStringLiteral("expected a mapping {url, headers}, got %1").arg(describe(item)));
            out.append(t); // keeps later indices matching the source
            continue;
        }
        MapReader m(ctx, item, itemPath, kTelemetryKeys, placeHint);
        m.string(QStringLiteral("url"), t.url);
        m.boolean(QStringLiteral("nvidia_smi"), t.nvidiaSmi);
        m.string(QStringLiteral("program"), t.program);
        m.integer(QStringLiteral("interval_ms"), t.intervalMs, spec::expectNvidiaSmiInterval());
        if (!m.has(QStringLiteral("url")) && !t.nvidiaSmi)
            ctx.error(ctx.locate(itemPath), m.path(QStringLiteral("url")),
                      QStringLiteral("missing required key; expected the exporter's metrics URL, e.g. http://gpu-node:9400/metrics "
                                     "(or nvidia_smi: true to sample nvidia-smi on this machine)"));
        if (const YAML::Node *h = m.find(QStringLiteral("headers")))
            parseHeaders(ctx, *h, m.path(QStringLiteral("headers")), t.headers);
        out.append(t);
    }
}

void parseCost(Context &ctx, const YAML::Node &node, const QString &path, CostSpec &out)
{
    if (!node.IsMap()) {
        ctx.error(valuePos(ctx, node, path), path, QStringLiteral("expected a mapping {gpu_hour, gpus}, e.g. {gpu_hour: 2.50, gpus: 8}, got %1").arg(describe(node)));
        return;
    }
    MapReader m(ctx, node, path, kCostKeys, placeHint);
    m.number(QStringLiteral("gpu_hour"), out.gpuHour, spec::expectGpuHour());
    m.integer(QStringLiteral("gpus"), out.gpus, spec::expectGpus());
    if (!m.has(QStringLiteral("gpu_hour")))
        ctx.error(ctx.locate(path), m.path(QStringLiteral("gpu_hour")), QStringLiteral("missing required key; expected %1").arg(spec::expectGpuHour()));
}

} // namespace sb::specparse
