#include "results/CachePane.h"
#include "charts/InteractiveChartView.h"
#include "charts/MetricFormat.h"
#include "report/DisplayText.h"
#include "results/LineChart.h"
#include "results/SweepAxis.h"
#include <QChart>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sb::ui {

namespace {
QString share(double v) { return v < 0 ? QStringLiteral("—") : QStringLiteral("%1 %").arg(v * 100, 0, 'f', 1); }
QString value(double v, int decimals = 0) { return v < 0 ? QStringLiteral("—") : QString::number(v, 'f', decimals); }
} // namespace

QString prefixCacheLine(const CellResult &cell)
{
    if (!cell.prefixCache)
        return QString();
    const PrefixCacheStats &p = *cell.prefixCache;
    QStringList what;
    if (p.sharedPrefixes > 0)
        what << (p.sharedPrefixes == 1 ? QObject::tr("1 shared prefix") : QObject::tr("%1 shared prefixes").arg(p.sharedPrefixes))
                    + (p.prefixTokens >= 0 ? QObject::tr(" of %1 tokens").arg(p.prefixTokens) : QString());
    if (p.sessions)
        what << QObject::tr("session histories");
    QString line = QObject::tr("Prefix cache (%1): ideally %2 of prompt tokens").arg(what.join(QStringLiteral(", ")), share(p.idealShare));
    if (p.blockTokens > 1)
        line += QObject::tr(" (whole %1-token blocks)").arg(p.blockTokens);
    line += QObject::tr(", %1 by the server's cached_tokens, %2 by its counters").arg(share(p.reportedShare), share(p.metricsShare));
    return line;
}

CachePane::CachePane(QWidget *parent)
    : QWidget(parent)
    , m_status(new QLabel(this))
    , m_view(new InteractiveChartView(this))
    , m_table(new QTableWidget(this))
{
    m_status->setObjectName(QStringLiteral("cacheStatus"));
    m_status->setWordWrap(true);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // never widens the pane
    m_view->setObjectName(QStringLiteral("turnsChart"));
    m_view->setExportName(QStringLiteral("cell-turns"));
    // Below ~180 px Qt Charts elides the turn labels and axis titles to "…"; the splitter lets
    // the table take the room back.
    m_view->setMinimumSize(200, 130); // with the table beneath, the cell pane stays short enough for the charts above it at 1024×700
    m_table->setObjectName(QStringLiteral("turnTable"));
    const QStringList headers = {tr("Turn"), tr("OK"), tr("Failed"), tr("TTFT p50 ms"), tr("TTFT avg ms"), tr("Latency p50 ms"),
                                 tr("Prompt tok"), tr("History tok"), tr("Cached tok")};
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_status);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("cacheSplit"));
    split->setChildrenCollapsible(false);
    split->addWidget(m_view);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() + m_table->verticalHeader()->defaultSectionSize());
    layout->addWidget(split, 1);
    setCell(nullptr);
}

QString CachePane::statusText() const { return m_status->text(); }

void CachePane::setCell(const CellResult *cell)
{
    m_table->setRowCount(0);
    // Short names: the legend shares a narrow pane; the axis titles carry the units.
    LineChartSeries ttft{tr("TTFT p50"), {}, 0, false, true};
    LineChartSeries history{tr("history"), {}, 1, true, true};
    LineChartSeries cached{tr("cached"), {}, 2, true, true};
    if (cell) {
        for (const TurnStats &t : cell->byTurn) {
            const int row = m_table->rowCount();
            m_table->insertRow(row);
            const bool last = &t == &cell->byTurn.back() && t.turn >= kMaxTurnRows;
            const QStringList cells = {last ? QStringLiteral("%1+").arg(t.turn) : QString::number(t.turn), QString::number(t.completed),
                                       QString::number(t.failed), value(t.ttftP50Ms, 1), value(t.ttftAvgMs, 1), value(t.latencyP50Ms, 1),
                                       value(t.inputTokensAvg), value(t.historyTokensAvg), value(t.cachedTokensAvg)};
            for (int col = 0; col < cells.size(); ++col) {
                auto *item = new QTableWidgetItem(cells[col]);
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                m_table->setItem(row, col, item);
            }
            if (t.ttftP50Ms >= 0)
                ttft.points.append({double(t.turn), t.ttftP50Ms});
            if (t.historyTokensAvg >= 0)
                history.points.append({double(t.turn), t.historyTokensAvg});
            if (t.cachedTokensAvg >= 0)
                cached.points.append({double(t.turn), t.cachedTokensAvg});
        }
    }
    QStringList status;
    if (!cell) {
        status << tr("Select a cell to see what the prefix cache did for it.");
    } else {
        status << displaySafe(QStringLiteral("%1 %2").arg(cell->server, pointLabel(*cell)), DisplayLines::Single);
        if (const QString line = prefixCacheLine(*cell); !line.isEmpty())
            status << line;
        if (cell->byTurn.empty() && !cell->prefixCache)
            status << tr("This cell ran neither sessions nor shared prefixes (workload.sessions, prompts: shared_prefix).");
    }
    m_status->setText(status.join(QLatin1Char('\n')));
    m_table->setVisible(!cell || !cell->byTurn.empty());
    m_view->setVisible(!cell || !cell->byTurn.empty());
    m_view->setEmptyText(cell ? tr("No sessions in this cell.") : tr("Select a cell in the table or a point in a chart."));
    QList<LineChartSeries> lines;
    for (const LineChartSeries &s : {ttft, history, cached})
        if (!s.points.isEmpty())
            lines << s;
    m_view->replaceChart(buildLineChart(lines, {tr("turn"), tr("TTFT p50 (ms)"), tr("tokens"), false, true}, palette()));
}

} // namespace sb::ui
