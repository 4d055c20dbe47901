#include "results/ServerInfo.h"
#include "results/Results.h"
#include <QJsonArray>

namespace sb {

namespace {
// Control characters out (a server's text reaches terminals and table cells), cut to the bound.
QString bounded(const QString &text, int limit = kMaxServerInfoText)
{
    QString out;
    out.reserve(std::min<qsizetype>(text.size(), limit + 1));
    for (const QChar c : text) {
        if (out.size() >= limit) {
            out += QChar(0x2026);
            break;
        }
        out += c.category() == QChar::Other_Control ? QChar(u' ') : c;
    }
    return out;
}

void putText(QJsonObject &o, const char *key, const QString &v)
{
    if (!v.isEmpty())
        o.insert(QLatin1String(key), v);
}
QString text(const QJsonObject &o, const char *key, int limit = kMaxServerInfoText)
{
    return bounded(o.value(QLatin1String(key)).toString(), limit);
}
QString utc(const QDateTime &t) { return t.toUTC().toString(Qt::ISODateWithMs); }
QDateTime time(const QJsonObject &o, const char *key)
{
    return QDateTime::fromString(o.value(QLatin1String(key)).toString(), Qt::ISODateWithMs);
}
} // namespace

QJsonObject toJson(const ServerInfo &info)
{
    QJsonObject o;
    putText(o, "base_server", info.baseServer);
    putText(o, "variant", info.variant);
    putText(o, "flavor", info.flavor);
    putText(o, "version", info.version);
    putText(o, "model", info.model);
    putText(o, "model_root", info.modelRoot);
    if (info.maxModelLen >= 0)
        o.insert(QStringLiteral("max_model_len"), info.maxModelLen);
    putText(o, "owned_by", info.ownedBy);
    if (!info.args.isEmpty()) {
        QJsonObject args;
        for (auto it = info.args.cbegin(); it != info.args.cend(); ++it)
            args.insert(it.key(), it.value());
        o.insert(QStringLiteral("args"), args);
    }
    if (!info.routes.isEmpty()) {
        QJsonArray routes;
        for (const ServerInfoRoute &r : info.routes) {
            QJsonObject ro{{QStringLiteral("path"), r.path}, {QStringLiteral("status"), r.status}};
            putText(ro, "error", r.error);
            putText(ro, "excerpt", r.excerpt);
            routes.append(ro);
        }
        o.insert(QStringLiteral("routes"), routes);
    }
    if (!info.command.isEmpty())
        o.insert(QStringLiteral("command"), QJsonArray::fromStringList(info.command));
    if (!info.env.isEmpty()) {
        QJsonObject env;
        for (const auto &[name, value] : info.env)
            env.insert(name, value);
        o.insert(QStringLiteral("env"), env);
    }
    if (info.pid >= 0)
        o.insert(QStringLiteral("pid"), info.pid);
    if (info.processStartedAt.isValid())
        o.insert(QStringLiteral("process_started_at"), utc(info.processStartedAt));
    if (!info.gpus.isEmpty()) {
        QJsonArray gpus;
        for (const GpuInfo &g : info.gpus)
            gpus.append(QJsonObject{{QStringLiteral("name"), g.name},
                                    {QStringLiteral("memory_total"), g.memoryTotal},
                                    {QStringLiteral("driver_version"), g.driverVersion}});
        o.insert(QStringLiteral("gpus"), gpus);
    }
    putText(o, "gpu_error", info.gpuError);
    if (info.fetchedAt.isValid())
        o.insert(QStringLiteral("fetched_at"), utc(info.fetchedAt));
    return o;
}

ServerInfo serverInfoFromJson(const QJsonObject &o)
{
    ServerInfo info;
    info.baseServer = text(o, "base_server");
    info.variant = text(o, "variant");
    info.flavor = text(o, "flavor");
    info.version = text(o, "version");
    info.model = text(o, "model");
    info.modelRoot = text(o, "model_root");
    info.maxModelLen = o.value(QLatin1String("max_model_len")).toInteger(-1);
    info.ownedBy = text(o, "owned_by");
    const QJsonObject args = o.value(QLatin1String("args")).toObject();
    for (auto it = args.begin(); it != args.end() && info.args.size() < kMaxServerInfoArgs; ++it)
        info.args.insert(bounded(it.key()), bounded(it.value().toString()));
    for (const QJsonValue &v : o.value(QLatin1String("routes")).toArray()) {
        if (info.routes.size() >= kMaxServerInfoListed)
            break;
        const QJsonObject r = v.toObject();
        info.routes.append({text(r, "path"), r.value(QLatin1String("status")).toInt(), text(r, "error"), text(r, "excerpt", kMaxServerInfoExcerpt)});
    }
    for (const QJsonValue &v : o.value(QLatin1String("command")).toArray())
        if (info.command.size() < kMaxServerInfoListed)
            info.command.append(bounded(v.toString()));
    const QJsonObject env = o.value(QLatin1String("env")).toObject();
    for (auto it = env.begin(); it != env.end() && info.env.size() < kMaxServerInfoListed; ++it)
        info.env.append({bounded(it.key()), bounded(it.value().toString())});
    info.pid = o.value(QLatin1String("pid")).toInteger(-1);
    info.processStartedAt = time(o, "process_started_at");
    for (const QJsonValue &v : o.value(QLatin1String("gpus")).toArray()) {
        if (info.gpus.size() >= kMaxServerInfoGpus)
            break;
        const QJsonObject g = v.toObject();
        info.gpus.append({text(g, "name"), text(g, "memory_total"), text(g, "driver_version")});
    }
    info.gpuError = text(o, "gpu_error");
    info.fetchedAt = time(o, "fetched_at");
    return info;
}

QMap<QString, QString> commandFlags(const QStringList &argv)
{
    QMap<QString, QString> flags;
    for (qsizetype i = 1; i < argv.size(); ++i) {
        const QString &arg = argv[i];
        if (!arg.startsWith(QLatin1Char('-')) || arg == QLatin1String("-"))
            continue;
        const qsizetype eq = arg.indexOf(QLatin1Char('='));
        QString flag = eq > 0 ? arg.left(eq) : arg;
        QString value = eq > 0 ? arg.mid(eq + 1) : QString();
        if (eq < 0 && i + 1 < argv.size() && !argv[i + 1].startsWith(QLatin1Char('-')))
            value = argv[++i];
        if (flag == QLatin1String("--port") || flag == QLatin1String("--host"))
            continue; // picked per run
        flags.insert(flag, value);
    }
    return flags;
}

namespace {
QString shown(const QString &value) { return value.isEmpty() ? QStringLiteral("(set)") : value; }

// "--max-num-seqs 64 in A and 256 in B" for each flag or reported setting that differs.
QStringList settingDifferences(const QMap<QString, QString> &a, const QMap<QString, QString> &b, const QString &labelA, const QString &labelB)
{
    QStringList out;
    QStringList keys = a.keys();
    for (const QString &k : b.keys())
        if (!a.contains(k))
            keys.append(k);
    for (const QString &k : keys) {
        if (a.value(k) == b.value(k) && a.contains(k) == b.contains(k))
            continue;
        const QString va = a.contains(k) ? shown(a.value(k)) : QStringLiteral("unset");
        const QString vb = b.contains(k) ? shown(b.value(k)) : QStringLiteral("unset");
        out.append(QStringLiteral("%1 %2 in %3 and %4 in %5").arg(k, va, labelA, vb, labelB));
    }
    return out;
}
} // namespace

QString serverDifferenceSentence(const QList<ServerInfoPair> &pairs, const QString &labelA, const QString &labelB)
{
    constexpr int kShownPerServer = 3;
    QStringList parts;
    for (const ServerInfoPair &p : pairs) {
        if (p.a.isEmpty() || p.b.isEmpty())
            continue;
        QStringList what;
        if (!p.a.version.isEmpty() && !p.b.version.isEmpty() && p.a.version != p.b.version)
            what.append(QStringLiteral("version %1 in %2 and %3 in %4").arg(p.a.version, labelA, p.b.version, labelB));
        if (!p.a.modelRoot.isEmpty() && !p.b.modelRoot.isEmpty() && p.a.modelRoot != p.b.modelRoot)
            what.append(QStringLiteral("model %1 in %2 and %3 in %4").arg(p.a.modelRoot, labelA, p.b.modelRoot, labelB));
        QStringList settings;
        if (!p.a.command.isEmpty() && !p.b.command.isEmpty())
            settings = settingDifferences(commandFlags(p.a.command), commandFlags(p.b.command), labelA, labelB);
        for (const QString &s : settingDifferences(p.a.args, p.b.args, labelA, labelB))
            if (!settings.contains(s))
                settings.append(s);
        const qsizetype more = settings.size() - kShownPerServer;
        what += settings.mid(0, kShownPerServer);
        if (more > 0)
            what.append(QStringLiteral("%1 more setting(s)").arg(more));
        if (!what.isEmpty())
            parts.append(QStringLiteral("%1 ran with %2").arg(p.server, what.join(QStringLiteral(", "))));
    }
    if (parts.isEmpty())
        return QString();
    return QStringLiteral("The servers differ: %1.").arg(parts.join(QStringLiteral("; ")));
}

namespace {
// The identity a set recorded for `server`: its first cell that asked the server (or was launched).
ServerInfo identityOf(const SweepResults &r, const QString &server)
{
    for (const CellResult &c : r.cells)
        if (c.server == server && (c.serverInfo.fetchedAt.isValid() || !c.serverInfo.command.isEmpty()))
            return c.serverInfo;
    return ServerInfo();
}
} // namespace

QString serverDifferenceSentence(const SweepResults &a, const SweepResults &b, const QString &labelA, const QString &labelB)
{
    QList<ServerInfoPair> pairs;
    const QStringList inB = b.serverNames();
    for (const QString &server : a.serverNames())
        if (inB.contains(server))
            pairs.append({server, identityOf(a, server), identityOf(b, server)});
    return serverDifferenceSentence(pairs, labelA, labelB);
}

} // namespace sb
