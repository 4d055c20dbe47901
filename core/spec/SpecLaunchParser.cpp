// Parsing of a server's `launch:` mapping (docs/spec-reference.md): the command SweepBench starts
// the server with, its environment, port, readiness check, stop signal and log bound.
#include "spec/SpecParsers.h"
#include "spec/SpecRules.h"

namespace sb::specparse {

using namespace sb::yaml;

const QStringList kLaunchKeys = {"command", "env", "port", "ready", "stop", "log_keep_mib"};
const QStringList kLaunchReadyKeys = {"path", "timeout_seconds"};
const QStringList kLaunchStopKeys = {"signal", "grace_seconds"};

namespace {
void parseCommand(Context &ctx, const YAML::Node &node, const QString &path, QStringList &out)
{
    if (!node.IsSequence() || node.size() == 0) {
        ctx.error(valuePos(ctx, node, path), path,
                  QStringLiteral("expected a non-empty list of arguments (argv, never a shell), e.g. [vllm, serve, MODEL, --port, \"{port}\"]; got %1")
                      .arg(describe(node)));
        return;
    }
    int i = 0;
    for (const auto &item : node) {
        const QString itemPath = indexPath(path, i++);
        ctx.remember(itemPath, toPos(item.Mark()));
        QString arg;
        readString(ctx, item, itemPath, arg);
        out.append(arg); // a bad entry keeps its slot so later indices still match the source
    }
}

void parseEnv(Context &ctx, const YAML::Node &node, const QString &path, QList<QPair<QString, QString>> &out)
{
    if (!node.IsMap()) {
        ctx.error(valuePos(ctx, node, path), path, QStringLiteral("expected a mapping of variable names to values, got %1").arg(describe(node)));
        return;
    }
    for (const auto &kv : node) {
        if (!kv.first.IsScalar()) {
            ctx.error(toPos(kv.first.Mark()), path, QStringLiteral("expected a variable name, got %1").arg(describe(kv.first)));
            continue;
        }
        const QString keyPath = childPath(path, scalarText(kv.first));
        ctx.remember(keyPath, toPos(kv.first.Mark()));
        QString value;
        if (readString(ctx, kv.second, keyPath, value))
            out.append({scalarText(kv.first), value});
    }
}
} // namespace

void parseLaunch(Context &ctx, const YAML::Node &node, const QString &path, LaunchSpec &out)
{
    out.enabled = true;
    if (!node.IsMap()) {
        ctx.error(valuePos(ctx, node, path), path, QStringLiteral("expected a mapping {command, env, port, ready, stop, log_keep_mib}, got %1").arg(describe(node)));
        return;
    }
    MapReader m(ctx, node, path, kLaunchKeys, placeHint);
    if (const YAML::Node *c = m.find(QStringLiteral("command")))
        parseCommand(ctx, *c, m.path(QStringLiteral("command")), out.command);
    else
        ctx.error(ctx.locate(path), m.path(QStringLiteral("command")), QStringLiteral("missing required key; expected the server's argv as a list"));
    if (const YAML::Node *e = m.find(QStringLiteral("env")))
        parseEnv(ctx, *e, m.path(QStringLiteral("env")), out.env);
    m.integer(QStringLiteral("port"), out.port, QStringLiteral("a TCP port from 1 to 65535 (omit it for a free one)"));
    m.number(QStringLiteral("log_keep_mib"), out.logKeepMib, spec::expectPositiveNumber());
    if (const YAML::Node *r = m.find(QStringLiteral("ready"))) {
        const QString rp = m.path(QStringLiteral("ready"));
        if (r->IsMap()) {
            MapReader rm(ctx, *r, rp, kLaunchReadyKeys, placeHint);
            rm.string(QStringLiteral("path"), out.readyPath);
            rm.number(QStringLiteral("timeout_seconds"), out.readyTimeoutS, spec::expectPositiveNumber());
        } else {
            ctx.error(valuePos(ctx, *r, rp), rp, QStringLiteral("expected a mapping {path, timeout_seconds}, got %1").arg(describe(*r)));
        }
    }
    if (const YAML::Node *st = m.find(QStringLiteral("stop"))) {
        const QString sp = m.path(QStringLiteral("stop"));
        if (st->IsMap()) {
            MapReader sm(ctx, *st, sp, kLaunchStopKeys, placeHint);
            if (const YAML::Node *sig = sm.find(QStringLiteral("signal"))) {
                if (sig->IsScalar() && launchSignalNames().contains(scalarText(*sig).toUpper().remove(QStringLiteral("SIG"))))
                    out.stopSignal = scalarText(*sig).toUpper().remove(QStringLiteral("SIG"));
                else
                    reportBadEnum(ctx, *sig, sm.path(QStringLiteral("signal")), launchSignalNames());
            }
            sm.number(QStringLiteral("grace_seconds"), out.graceS, spec::expectNonNegativeNumber());
        } else {
            ctx.error(valuePos(ctx, *st, sp), sp, QStringLiteral("expected a mapping {signal, grace_seconds}, got %1").arg(describe(*st)));
        }
    }
}

} // namespace sb::specparse
