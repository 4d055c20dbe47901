#include "results/Provenance.h"
#include <QObject>
#include <QSet>

namespace sb {

namespace {

QString toolText(const SweepResults &r)
{
    const QString tool = r.sourceTool.isEmpty() ? r.toolName : r.sourceTool;
    return r.toolVersion.isEmpty() ? tool : tool + QLatin1Char(' ') + r.toolVersion;
}

QString hostText(const HostInfo &h)
{
    QString out = h.hostname;
    if (!h.os.isEmpty())
        out += out.isEmpty() ? h.os : QStringLiteral(" (%1)").arg(h.os);
    if (h.cpuCount > 0)
        out += QObject::tr(", %1 CPUs").arg(h.cpuCount);
    return out;
}

// What each server said it was, from its first cell that recorded it: "vllm-a: vLLM 0.32.0 (tiny)".
QString serversText(const SweepResults &r)
{
    QStringList out;
    QSet<QString> seen;
    for (const CellResult &c : r.cells) {
        if (seen.contains(c.server) || c.serverInfo.version.isEmpty())
            continue;
        seen.insert(c.server);
        QString s = QStringLiteral("%1: %2 %3").arg(c.server, c.serverInfo.flavor.isEmpty() ? QObject::tr("server") : c.serverInfo.flavor,
                                                   c.serverInfo.version);
        if (!c.serverInfo.model.isEmpty())
            s += QStringLiteral(" (%1)").arg(c.serverInfo.model);
        out << s;
    }
    return out.join(QStringLiteral("; "));
}

QString commandText(const SweepResults &r)
{
    if (!r.sourceCommand.isEmpty())
        return r.sourceCommand;
    if (r.sourceTool == QLatin1String("sweepbench") && !r.sweepName.isEmpty())
        return QObject::tr("sweep spec “%1”%2")
            .arg(r.sweepName, r.specFingerprint.sha256.isEmpty() ? QString() : QStringLiteral(" (sha256 %1…)").arg(r.specFingerprint.sha256.left(12)));
    return {};
}

} // namespace

QList<ProvenanceField> provenanceOf(const SweepResults &r)
{
    return {
        {QStringLiteral("tool"), QObject::tr("Tool"), toolText(r)},
        {QStringLiteral("command"), QObject::tr("Command or settings"), commandText(r)},
        {QStringLiteral("host"), QObject::tr("Host"), hostText(r.host)},
        {QStringLiteral("started"), QObject::tr("Started"), r.startedAt.isValid() ? r.startedAt.toString(QStringLiteral("yyyy-MM-dd HH:mm")) : QString()},
        {QStringLiteral("servers"), QObject::tr("Servers"), serversText(r)},
    };
}

QString provenanceLine(const SweepResults &r)
{
    const QList<ProvenanceField> f = provenanceOf(r);
    QString line = f[0].value;
    if (!f[2].value.isEmpty())
        line += QObject::tr(" on %1").arg(f[2].value);
    if (!f[3].value.isEmpty())
        line += QStringLiteral(", ") + f[3].value;
    if (!f[4].value.isEmpty())
        line += QStringLiteral(" · ") + f[4].value;
    return line;
}

QStringList provenanceDifferences(const QList<const SweepResults *> &sets)
{
    QStringList out;
    if (sets.size() < 2)
        return out;
    QList<QList<ProvenanceField>> all;
    for (const SweepResults *s : sets)
        all << provenanceOf(*s);
    for (qsizetype k = 0; k < all.first().size(); ++k) {
        const QString &key = all.first()[k].key;
        // Runs are always at different times: not a difference worth a line. What the servers
        // were has its own sentence (results/ServerInfo.h serverDifferenceSentence).
        if (key == QLatin1String("started") || key == QLatin1String("servers"))
            continue;
        QSet<QString> known;
        QStringList shown;
        for (const QList<ProvenanceField> &f : all) {
            if (!f[k].value.isEmpty())
                known.insert(f[k].value);
            shown << (f[k].value.isEmpty() ? QObject::tr("unknown") : f[k].value);
        }
        if (known.size() > 1)
            out << QStringLiteral("%1: %2").arg(all.first()[k].label, shown.join(QStringLiteral(" | ")));
    }
    return out;
}

} // namespace sb
