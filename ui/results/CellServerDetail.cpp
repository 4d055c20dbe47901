#include "results/CellServerDetail.h"
#include "launch/CommandLine.h"
#include "launch/LaunchLogExcerpt.h"
#include "launch/LaunchedServers.h"
#include "report/DisplayText.h"
#include <QDir>

namespace sb::ui {

namespace {
QString esc(const QString &s)
{
    return displaySafe(s).toHtmlEscaped();
}

QString item(const QString &label, const QString &valueHtml)
{
    return QStringLiteral("<li><b>") + label + QStringLiteral("</b>: ") + valueHtml + QStringLiteral("</li>");
}

bool launched(const ServerInfo &info)
{
    return info.pid > 0 || !info.command.isEmpty();
}
} // namespace

QString serverInfoHtml(const ServerInfo &info)
{
    if (info.isEmpty())
        return {};
    QString h = QStringLiteral("<h4>Server</h4><ul>");
    if (!info.variant.isEmpty())
        h += item(QStringLiteral("variant"), esc(info.variant) + QStringLiteral(" of ") + esc(info.baseServer));
    h += item(QStringLiteral("version"), info.version.isEmpty() ? QStringLiteral("<i>not reported</i>") : esc(info.version));
    if (!info.flavor.isEmpty())
        h += item(QStringLiteral("flavor"), esc(info.flavor));
    if (!info.model.isEmpty()) {
        QString model = esc(info.model);
        if (!info.modelRoot.isEmpty() && info.modelRoot != info.model)
            model += QStringLiteral(" (from ") + esc(info.modelRoot) + QLatin1Char(')');
        if (info.maxModelLen > 0)
            model += QStringLiteral(", max_model_len ") + QString::number(info.maxModelLen);
        h += item(QStringLiteral("model"), model);
    }
    if (!info.args.isEmpty()) {
        QStringList args;
        for (auto it = info.args.cbegin(); it != info.args.cend(); ++it)
            args << esc(it.key()) + QLatin1Char('=') + esc(it.value());
        h += item(QStringLiteral("settings"), args.join(QStringLiteral(", ")));
    }
    if (!info.command.isEmpty())
        h += item(QStringLiteral("launched as"), QStringLiteral("<code>") + esc(joinCommandLine(info.command)) + QStringLiteral("</code>"));
    if (!info.env.isEmpty()) {
        QStringList env;
        for (const auto &[name, value] : info.env)
            env << esc(name) + QLatin1Char('=') + esc(value);
        h += item(QStringLiteral("environment"), QStringLiteral("<code>") + env.join(QLatin1Char(' ')) + QStringLiteral("</code>"));
    }
    if (info.pid > 0) {
        QString process = QStringLiteral("pid ") + QString::number(info.pid);
        if (info.processStartedAt.isValid())
            process += QStringLiteral(", started ") + esc(info.processStartedAt.toUTC().toString(Qt::ISODate));
        h += item(QStringLiteral("process"), process);
    }
    for (const GpuInfo &g : info.gpus)
        h += item(QStringLiteral("GPU"), esc(g.name) + QStringLiteral(", ") + esc(g.memoryTotal) + QStringLiteral(", driver ") + esc(g.driverVersion));
    if (info.gpus.isEmpty() && !info.gpuError.isEmpty())
        h += item(QStringLiteral("GPUs"), QStringLiteral("<i>") + esc(info.gpuError) + QStringLiteral("</i>"));
    QStringList unused;
    for (const ServerInfoRoute &r : info.routes)
        if (!r.error.isEmpty())
            unused << esc(r.path) + QStringLiteral(": ") + esc(r.error);
    if (!unused.isEmpty())
        h += item(QStringLiteral("not used"), unused.join(QStringLiteral("; ")));
    return h + QStringLiteral("</ul>");
}

QString failedCellLogHtml(const CellResult &cell, const QString &folder)
{
    if (cell.status != CellStatus::Failed || folder.isEmpty() || !launched(cell.serverInfo))
        return {};
    const QString path = launchLogPath(QDir(folder).filePath(QStringLiteral("servers")), cell.server);
    const LaunchLogExcerpt excerpt = readLaunchLogExcerpt(path, cell.serverInfo.pid);
    QString h = QStringLiteral("<h4>Server log</h4>");
    if (!excerpt.error.isEmpty())
        return h + QStringLiteral("<p><i>") + esc(excerpt.error) + QStringLiteral("</i></p>");
    h += QStringLiteral("<p>");
    if (excerpt.foundProcess)
        h += QStringLiteral("The last %1 lines process %2 wrote").arg(excerpt.lines).arg(cell.serverInfo.pid);
    else
        h += QStringLiteral("The last %1 lines of the log (the start of process %2 is not in it)").arg(excerpt.lines).arg(cell.serverInfo.pid);
    if (excerpt.cut)
        h += QStringLiteral(", at most %1 lines or %2 KiB").arg(kLaunchExcerptLines).arg(kLaunchExcerptBytes / 1024);
    h += QStringLiteral(" — <code>") + esc(QDir::toNativeSeparators(path)) + QStringLiteral("</code>:</p>");
    return h + QStringLiteral("<pre>") + esc(excerpt.text) + QStringLiteral("</pre>");
}

} // namespace sb::ui
