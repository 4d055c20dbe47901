#include "results/TraceSummaryView.h"
#include "charts/ChartStyle.h"
#include "engine/CellValidity.h"
#include "report/DisplayText.h"
#include "results/StepTimelineView.h"
#include "trace/TraceLimits.h"
#include <QFileInfo>
#include <QHeaderView>
#include <QTableWidget>

namespace sb::ui {

namespace {
QString esc(const QString &s)
{
    return displaySafe(s, DisplayLines::Single).toHtmlEscaped();
}

QString ms(double v)
{
    return QString::number(v, 'f', v < 10 ? 3 : v < 100 ? 2 : 1);
}

// "3.1 / 4": mean and max of a per-step count, or a dash where the labels did not carry it.
QString meanMax(double mean, double max)
{
    if (mean < 0)
        return QStringLiteral("–");
    return QStringLiteral("%1 / %2").arg(QString::number(mean, 'f', mean < 100 ? 1 : 0), QString::number(max, 'f', 0));
}

QString sourceText(StepSource s)
{
    switch (s) {
    case StepSource::StepLabels:
        return QStringLiteral("step labels (TensorRT-LLM / SGLang <code>step[…]</code>)");
    case StepSource::VllmAnnotations:
        return QStringLiteral("vLLM step annotations (<code>execute_context_N(T)_generation_M(G)</code>)");
    case StepSource::ExecuteModel:
        return QStringLiteral("vLLM <code>execute_model</code> frames (no kinds or batch sizes)");
    case StepSource::UserAnnotations:
        return QStringLiteral("top-level user annotations (no kinds or batch sizes)");
    case StepSource::None:
        break;
    }
    return QStringLiteral("none found");
}

QString row(const QStringList &cells, bool header = false)
{
    const QString tag = header ? QStringLiteral("th") : QStringLiteral("td");
    QString h = QStringLiteral("<tr>");
    for (int i = 0; i < cells.size(); ++i)
        h += QStringLiteral("<%1 align=\"%2\">%3</%1>").arg(tag, i == 0 ? QStringLiteral("left") : QStringLiteral("right"), cells[i]);
    return h + QStringLiteral("</tr>");
}

// One column per kind, one row per figure: a narrow pane has room for four kinds, not for
// eight figures side by side.
QString kindsTable(const TraceStats &stats, bool dark)
{
    if (stats.stepKinds.isEmpty())
        return QStringLiteral("<p><i>No engine steps in the trace.</i></p>");
    QStringList head{QString()};
    for (const StepKindStats &k : stats.stepKinds)
        head << QStringLiteral("<span style=\"color:%1\">■</span> %2").arg(stepKindColor(k.kind, dark).name(), QLatin1String(stepKindName(k.kind)));
    QString h = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"3\">") + row(head, true);
    const auto figure = [&](const QString &name, const auto &value) {
        QStringList cells{name};
        for (const StepKindStats &k : stats.stepKinds)
            cells << value(k);
        h += row(cells);
    };
    figure(QStringLiteral("steps"), [](const StepKindStats &k) { return QString::number(k.count); });
    figure(QStringLiteral("p50 ms"), [](const StepKindStats &k) { return ms(k.p50Ms); });
    figure(QStringLiteral("p90 ms"), [](const StepKindStats &k) { return ms(k.p90Ms); });
    figure(QStringLiteral("p99 ms"), [](const StepKindStats &k) { return ms(k.p99Ms); });
    figure(QStringLiteral("max ms"), [](const StepKindStats &k) { return ms(k.maxMs); });
    figure(QStringLiteral("batch mean / max"), [](const StepKindStats &k) { return meanMax(k.batchMean, k.batchMax); });
    figure(QStringLiteral("tokens mean / max"), [](const StepKindStats &k) { return meanMax(k.tokensMean, k.tokensMax); });
    return h + QStringLiteral("</table>");
}

QString filesList(const TraceSummary &summary, const QColor &warn)
{
    QString h = QStringLiteral("<h4>Files</h4><ul>");
    for (const TraceFileSummary &f : summary.files) {
        QStringList facts{QStringLiteral("%1 steps").arg(f.stats.steps), QStringLiteral("%1 events").arg(f.stats.events),
                          QStringLiteral("span %1").arg(formatTraceTime(f.stats.spanMs * 1000))};
        if (f.worldSize > 0)
            facts << QStringLiteral("world size %1").arg(f.worldSize);
        if (!f.hostName.isEmpty())
            facts << QStringLiteral("host %1").arg(displaySafe(f.hostName, DisplayLines::Single));
        if (!f.version.isEmpty())
            facts << QStringLiteral("version %1").arg(displaySafe(f.version, DisplayLines::Single));
        h += QStringLiteral("<li><b>%1</b><br>%2").arg(traceFileTitle(f).toHtmlEscaped(), facts.join(QStringLiteral(" · ")).toHtmlEscaped());
        if (!f.error.isEmpty())
            h += QStringLiteral("<br><span style=\"color:%1\">⚠ not read to the end: %2</span>").arg(warn.name(), esc(f.error));
        h += QStringLiteral("</li>");
    }
    return h + QStringLiteral("</ul>");
}
} // namespace

QString traceFileTitle(const TraceFileSummary &file)
{
    const QString name = displaySafe(QFileInfo(file.path).fileName(), DisplayLines::Single);
    return file.rank >= 0 ? QStringLiteral("rank %1 · %2").arg(file.rank).arg(name) : name;
}

QString traceStepsHtml(const TraceSummary &summary, int file, const QPalette &palette)
{
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    const QColor warn = dark ? QColor(0xF0, 0xB4, 0x4C) : QColor(0xB0, 0x5A, 0x00);
    const bool one = file >= 0 && file < summary.files.size();
    const TraceStats &stats = one ? summary.files.at(file).stats : summary.merged;
    QString h;
    if (one) {
        const TraceFileSummary &f = summary.files.at(file);
        h += QStringLiteral("<p><b>%1</b><br>steps from %2</p>").arg(traceFileTitle(f).toHtmlEscaped(), sourceText(f.stepSource));
    } else {
        h += QStringLiteral("<p><b>All %1 trace files</b>").arg(summary.files.size());
        if (summary.files.size() > 1)
            h += QStringLiteral(" (the ranks run the same steps: each step counts once per rank)");
        h += QStringLiteral("</p>");
    }
    QStringList facts{QStringLiteral("%1 steps").arg(stats.steps), QStringLiteral("%1 events").arg(stats.events),
                      QStringLiteral("span %1").arg(formatTraceTime(stats.spanMs * 1000))};
    facts << (stats.gpuBusyShare >= 0 ? QStringLiteral("GPU busy %1\u00a0%").arg(stats.gpuBusyShare * 100, 0, 'f', 1)
                                      : QStringLiteral("no GPU events (GPU busy share unknown)"));
    h += QStringLiteral("<p>") + facts.join(QStringLiteral(" · ")).toHtmlEscaped() + QStringLiteral("</p>");
    h += kindsTable(stats, dark);
    switch (summary.rankCheck) {
    case RankCheck::Consistent:
        h += QStringLiteral("<p>✓ The %1 ranks agree: the same steps and profile.</p>").arg(summary.files.size());
        break;
    case RankCheck::Ambiguous:
        h += QStringLiteral("<p style=\"color:%1\">⚠ A rank appears in several files (two servers or windows in one folder): "
                            "the ranks were not compared.</p>")
                 .arg(warn.name());
        break;
    case RankCheck::Mismatch:
    case RankCheck::NotApplicable:
        break;
    }
    const QStringList warnings = traceWarnings(summary, TraceLimits().maxFiles);
    for (const QString &w : warnings)
        if (summary.rankCheck == RankCheck::Mismatch && w.startsWith(QLatin1String("the rank traces")))
            h += QStringLiteral("<p style=\"color:%1\">⚠ %2</p>").arg(warn.name(), esc(w));
    if (summary.filesNotRead > 0)
        h += QStringLiteral("<p style=\"color:%1\">⚠ %2 more trace files were not summarised (at most %3 per cell).</p>")
                 .arg(warn.name())
                 .arg(summary.filesNotRead)
                 .arg(TraceLimits().maxFiles);
    if (!summary.files.isEmpty())
        h += filesList(summary, warn);
    return h;
}

namespace {
// Sorts by the number it shows, not by its text ("9.5" after "10.2").
class NumberItem : public QTableWidgetItem
{
public:
    NumberItem(double value, const QString &text) : QTableWidgetItem(text)
    {
        setData(Qt::UserRole, value);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem &other) const override
    {
        return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
    }
};
} // namespace

QTableWidget *makeOpTable(const QString &nameHeader, QWidget *parent)
{
    auto *t = new QTableWidget(0, 4, parent);
    t->setHorizontalHeaderLabels({nameHeader, QStringLiteral("total ms"), QStringLiteral("calls"), QStringLiteral("mean µs")});
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < 4; ++c)
        t->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    t->setWordWrap(false);
    t->setTextElideMode(Qt::ElideMiddle); // kernel names are long; their ends tell them apart
    return t;
}

void fillOpTable(QTableWidget *table, const QList<OpTime> &ops, const QString &empty)
{
    table->setSortingEnabled(false);
    table->clearContents();
    table->setRowCount(ops.isEmpty() ? 1 : int(ops.size()));
    if (ops.isEmpty()) {
        auto *none = new QTableWidgetItem(empty);
        none->setFlags(Qt::ItemIsEnabled);
        table->setItem(0, 0, none);
        return;
    }
    for (int r = 0; r < ops.size(); ++r) {
        const OpTime &o = ops.at(r);
        auto *name = new QTableWidgetItem(displaySafe(o.name, DisplayLines::Single));
        name->setToolTip(displaySafe(o.name, DisplayLines::Single));
        table->setItem(r, 0, name);
        table->setItem(r, 1, new NumberItem(o.ms, ms(o.ms)));
        table->setItem(r, 2, new NumberItem(double(o.count), QString::number(o.count)));
        const double meanUs = o.count > 0 ? o.ms * 1000 / double(o.count) : 0;
        table->setItem(r, 3, new NumberItem(meanUs, QString::number(meanUs, 'f', meanUs < 100 ? 1 : 0)));
    }
    table->setSortingEnabled(true);
    table->sortByColumn(1, Qt::DescendingOrder);
}

} // namespace sb::ui
