// Parsing of a server's `launch:` mapping (docs/spec-reference.md): the command SweepBench starts
// the server with, its environment, port, readiness check, stop signal and log bound.
#include "spec/SpecParsers.h"
#include "spec/SpecRules.h"

namespace sb::specparse {

using namespace sb::yaml;

const QStringList kLaunchKeys = {"command", "env", "port", "ready", "stop", "log_keep_mib", "variants"};
const QStringList kLaunchVariantKeys = {"name", "args", "env"};
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
void parseVariantList(Context &ctx, const YAML::Node &node, const QString &path, QList<LaunchVariant> &out)
{
    if (node.size() > std::size_t(spec::kMaxLaunchVariants)) {
        ctx.error(valuePos(ctx, node, path), path, QStringLiteral("%1 variants; expected at most %2 (each is a full series of cells)")
                                                      .arg(node.size()).arg(spec::kMaxLaunchVariants));
        return;
    }
    int i = 0;
    for (const auto &item : node) {
        const QString itemPath = indexPath(path, i++);
        ctx.remember(itemPath, toPos(item.Mark()));
        LaunchVariant v;
        if (!item.IsMap()) {
            ctx.error(valuePos(ctx, item, itemPath), itemPath, QStringLiteral("expected a mapping {name, args: [...], env: {...}}, got %1").arg(describe(item)));
            out.append(v);
            continue;
        }
        MapReader m(ctx, item, itemPath, kLaunchVariantKeys, placeHint);
        if (m.has(QStringLiteral("name")))
            m.string(QStringLiteral("name"), v.name);
        else
            ctx.error(ctx.locate(itemPath), m.path(QStringLiteral("name")), QStringLiteral("missing required key; expected the variant's name (its series is SERVER[NAME])"));
        if (const YAML::Node *a = m.find(QStringLiteral("args"))) {
            const QString ap = m.path(QStringLiteral("args"));
            if (a->IsSequence()) {
                int k = 0;
                for (const auto &arg : *a) {
                    const QString argPath = indexPath(ap, k++);
                    ctx.remember(argPath, toPos(arg.Mark()));
                    QString text;
                    readString(ctx, arg, argPath, text);
                    v.args.append(text);
                }
            } else {
                ctx.error(valuePos(ctx, *a, ap), ap, QStringLiteral("expected a list of arguments appended to the command, e.g. [--max-num-seqs, \"64\"]; got %1").arg(describe(*a)));
            }
        }
        if (const YAML::Node *e = m.find(QStringLiteral("env")))
            parseEnv(ctx, *e, m.path(QStringLiteral("env")), v.env);
        out.append(v); // a bad entry keeps its slot so later indices still match the source
    }
}

// `{"--max-num-seqs": [64, 256], "--enable-chunked-prefill": [true, false]}`: the product is
// checked before the validator ever expands it.
void parseVariantMatrix(Context &ctx, const YAML::Node &node, const QString &path, QList<LaunchMatrixAxis> &out)
{
    qint64 combinations = 1;
    for (const auto &kv : node) {
        if (!kv.first.IsScalar()) {
            ctx.error(toPos(kv.first.Mark()), path, QStringLiteral("expected a flag (--name) or an environment variable name, got %1").arg(describe(kv.first)));
            continue;
        }
        LaunchMatrixAxis axis;
        axis.key = scalarText(kv.first);
        const QString keyPath = childPath(path, axis.key);
        ctx.remember(keyPath, toPos(kv.first.Mark()));
        if (!kv.second.IsSequence() || kv.second.size() == 0) {
            ctx.error(valuePos(ctx, kv.second, keyPath), keyPath, QStringLiteral("expected a non-empty list of values, e.g. [64, 256]; got %1").arg(describe(kv.second)));
            continue;
        }
        combinations = std::min<qint64>(combinations * qint64(kv.second.size()), spec::kMaxLaunchVariants + 1);
        if (combinations > spec::kMaxLaunchVariants) {
            ctx.error(valuePos(ctx, kv.second, keyPath), keyPath, QStringLiteral("the matrix has more than %1 combinations up to this key; expected at most %1 variants (each is a full series of cells)")
                                                                     .arg(spec::kMaxLaunchVariants));
            return;
        }
        int k = 0;
        for (const auto &value : kv.second) {
            const QString valuePath = indexPath(keyPath, k++);
            ctx.remember(valuePath, toPos(value.Mark()));
            QString text;
            if (!value.IsScalar() || isNullScalar(value))
                ctx.error(valuePos(ctx, value, valuePath), valuePath, QStringLiteral("expected a value (a number, a word, true or false), got %1").arg(describe(value)));
            else
                text = scalarText(value);
            axis.values.append(text);
        }
        out.append(axis);
    }
}
} // namespace

void parseLaunch(Context &ctx, const YAML::Node &node, const QString &path, LaunchSpec &out)
{
    out.enabled = true;
    if (!node.IsMap()) {
        ctx.error(valuePos(ctx, node, path), path, QStringLiteral("expected a mapping {command, env, port, ready, stop, log_keep_mib, variants}, got %1").arg(describe(node)));
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
    if (const YAML::Node *v = m.find(QStringLiteral("variants"))) {
        const QString vp = m.path(QStringLiteral("variants"));
        if (v->IsSequence() && v->size() > 0)
            parseVariantList(ctx, *v, vp, out.variants);
        else if (v->IsMap() && v->size() > 0)
            parseVariantMatrix(ctx, *v, vp, out.matrix);
        else
            ctx.error(valuePos(ctx, *v, vp), vp, QStringLiteral("expected a list of variants [{name, args, env}, ...] or a matrix {\"--flag\": [VALUES], ...}; got %1").arg(describe(*v)));
    }
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
