#include "charts/ChartsPanel.h"
#include "charts/InteractiveChartView.h"
#include "charts/ParetoChart.h"
#include "report/TraceKnee.h"
#include "style/ElidedLines.h"
#include <algorithm>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

namespace sb::ui {

namespace {
QString slug(QString s)
{
    s = s.toLower();
    s.replace(QLatin1Char(' '), QLatin1Char('-'));
    return s;
}
} // namespace

ChartsPanel::ChartsPanel(QWidget *parent)
    : QWidget(parent)
    , m_kindCombo(new QComboBox(this))
    , m_paretoCombo(new QComboBox(this))
    , m_latencyLabel(new QLabel(tr("Latency:"), this))
    , m_latencyCombo(new QComboBox(this))
    , m_metricCombo(new QComboBox(this))
    , m_statCombo(new QComboBox(this))
    , m_logLatency(new QCheckBox(tr("Log"), this))
    , m_logMetric(new QCheckBox(tr("Log"), this))
    , m_throughput(new InteractiveChartView(this))
    , m_metric(new InteractiveChartView(this))
    , m_knee(new ElidedLines(3, this))
    , m_paretoLeftOut(new QLabel(this))
    , m_timer(new QTimer(this))
{
    // Where the engine's batch stopped growing, from the profiler traces (report/TraceKnee):
    // server-named plain text, never rich text.
    m_knee->setObjectName(QStringLiteral("traceKnee"));
    m_knee->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_knee->setContentsMargins(8, 4, 8, 4); // the panel's own margins are 0: the charts' frames line up with the tab
    m_knee->setVisible(false);
    // A failed or degraded cell is not a point of the frontier: say which and why instead of
    // leaving a reader to wonder where c=64 went. Plain text: server names come from the spec.
    m_paretoLeftOut->setObjectName(QStringLiteral("paretoLeftOut"));
    m_paretoLeftOut->setTextFormat(Qt::PlainText);
    m_paretoLeftOut->setWordWrap(true);
    m_paretoLeftOut->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_paretoLeftOut->setContentsMargins(8, 4, 8, 4);
    m_paretoLeftOut->setVisible(false);
    m_throughput->setObjectName(QStringLiteral("throughputChart"));
    m_metric->setObjectName(QStringLiteral("metricChart"));
    m_latencyCombo->setObjectName(QStringLiteral("latencyChoice"));
    m_kindCombo->setObjectName(QStringLiteral("throughputChartKind"));
    m_paretoCombo->setObjectName(QStringLiteral("paretoChoice"));
    m_kindCombo->addItem(tr("Throughput vs latency"));
    m_kindCombo->addItem(tr("Pareto frontier"));
    m_kindCombo->setToolTip(tr("Pareto frontier: each load point's throughput against what one user gets; the points no other "
                               "point beats on both are joined, the others are faded"));
    refillPareto();
    m_paretoCombo->setVisible(false);
    m_metricCombo->setObjectName(QStringLiteral("metricChoice"));
    m_statCombo->setObjectName(QStringLiteral("statChoice"));
    m_logLatency->setObjectName(QStringLiteral("logLatency"));
    m_logMetric->setObjectName(QStringLiteral("logMetric"));
    m_logLatency->setToolTip(tr("Latency on a logarithmic axis (points at 0 are not drawn)"));
    m_logMetric->setToolTip(tr("Metric on a logarithmic axis (points at 0 are not drawn)"));
    m_throughput->setLogScaleAvailable(true);
    m_metric->setLogScaleAvailable(true);
    for (LatencyChoice c : allLatencyChoices())
        m_latencyCombo->addItem(latencyChoiceInfo(c).label, int(c));
    m_latencyCombo->setCurrentIndex(m_latencyCombo->findData(int(LatencyChoice::TtftP99)));
    refillMetrics();

    auto *controls = new QHBoxLayout;
    controls->addWidget(m_kindCombo);
    controls->addWidget(m_latencyLabel);
    controls->addWidget(m_latencyCombo);
    controls->addWidget(m_paretoCombo);
    controls->addWidget(m_logLatency);
    controls->addSpacing(24);
    controls->addWidget(new QLabel(tr("Metric:"), this));
    controls->addWidget(m_metricCombo);
    controls->addWidget(m_statCombo);
    controls->addWidget(m_logMetric);
    controls->addStretch();
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_throughput);
    splitter->addWidget(m_metric);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_paretoLeftOut);
    layout->addWidget(m_knee);

    m_timer->setSingleShot(true);
    m_timer->setInterval(kRebuildDelayMs);
    connect(m_timer, &QTimer::timeout, this, &ChartsPanel::rebuild);
    connect(m_latencyCombo, &QComboBox::currentIndexChanged, this, &ChartsPanel::rebuild);
    connect(m_paretoCombo, &QComboBox::activated, this, [this] { m_paretoWanted = m_paretoCombo->currentData().toInt(); });
    connect(m_paretoCombo, &QComboBox::currentIndexChanged, this, &ChartsPanel::rebuild);
    connect(m_kindCombo, &QComboBox::currentIndexChanged, this, [this] {
        const bool pareto = paretoView();
        m_latencyLabel->setVisible(!pareto);
        m_latencyCombo->setVisible(!pareto);
        m_logLatency->setVisible(!pareto); // both Pareto axes are rates or times from 0: linear
        m_paretoCombo->setVisible(pareto);
        m_throughput->setLogScaleAvailable(!pareto);
        rebuild();
    });
    connect(m_metricCombo, &QComboBox::currentIndexChanged, this, [this] {
        refillStats();
        rebuild();
    });
    connect(m_statCombo, &QComboBox::currentIndexChanged, this, &ChartsPanel::rebuild);
    connect(m_logLatency, &QCheckBox::toggled, this, &ChartsPanel::rebuild);
    connect(m_logMetric, &QCheckBox::toggled, this, &ChartsPanel::rebuild);
    // The charts' context menus and the check boxes are one switch each.
    connect(m_throughput, &InteractiveChartView::logScaleToggled, m_logLatency, &QCheckBox::setChecked);
    connect(m_metric, &InteractiveChartView::logScaleToggled, m_logMetric, &QCheckBox::setChecked);
    connect(m_throughput, &InteractiveChartView::pointClicked, this, &ChartsPanel::pointClicked);
    connect(m_metric, &InteractiveChartView::pointClicked, this, &ChartsPanel::pointClicked);
    rebuild();
}

void ChartsPanel::refillMetrics()
{
    // Request-rate figures (schedule lag, achieved rate, client queue) only for sets that have
    // request-rate cells: on a concurrency sweep they would be empty charts.
    const bool openLoop = std::any_of(m_inputs.cbegin(), m_inputs.cend(), [](const ChartSeriesInput &in) {
        return std::any_of(in.results.cells.cbegin(), in.results.cells.cend(), [](const CellResult &c) { return c.openLoop.has_value(); });
    });
    const QString current = m_metricCombo->currentData().toString();
    QStringList keys;
    // Engine-step figures only when some cell has profiler traces to read them from.
    const bool traces = std::any_of(m_inputs.cbegin(), m_inputs.cend(), [](const ChartSeriesInput &in) {
        return std::any_of(in.results.cells.cbegin(), in.results.cells.cend(), [](const CellResult &c) { return c.traceSummary.has_value(); });
    });
    // Reasoning and image figures only when some cell stored them.
    const auto stored = [this](const QString &key) {
        return std::any_of(m_inputs.cbegin(), m_inputs.cend(), [&key](const ChartSeriesInput &in) {
            return std::any_of(in.results.cells.cbegin(), in.results.cells.cend(), [&key](const CellResult &c) { return c.metrics.contains(key); });
        });
    };
    // GPU telemetry and cost figures only when some cell has telemetry or a cost.
    const auto anyCell = [this](auto has) {
        return std::any_of(m_inputs.cbegin(), m_inputs.cend(), [&has](const ChartSeriesInput &in) {
            return std::any_of(in.results.cells.cbegin(), in.results.cells.cend(), has);
        });
    };
    const bool telemetry = anyCell([](const CellResult &c) { return c.gpuTelemetry.has_value(); });
    const bool cost = anyCell([](const CellResult &c) { return c.cost.has_value(); });
    refillLatency(stored(tag::ttfo));
    for (const MetricInfo &m : allMetrics())
        if ((openLoop || !m.openLoopOnly) && (traces || !m.traceOnly) && (!m.onlyWhenStored || stored(m.key))
            && (telemetry || !m.telemetryOnly) && (cost || !m.costOnly))
            keys.append(m.key);
    QStringList listed;
    for (int i = 0; i < m_metricCombo->count(); ++i)
        listed.append(m_metricCombo->itemData(i).toString());
    if (listed == keys)
        return;
    {
        const QSignalBlocker block(m_metricCombo);
        m_metricCombo->clear();
        for (const QString &key : std::as_const(keys))
            m_metricCombo->addItem(findMetric(key)->label, key);
        const int keep = m_metricCombo->findData(current);
        m_metricCombo->setCurrentIndex(keep >= 0 ? keep : 0);
    }
    refillStats();
}

void ChartsPanel::refillLatency(bool ttfo)
{
    // TTFO (time to the first answer token) only where cells stored it: elsewhere an empty chart.
    const QList<LatencyChoice> choices = allLatencyChoices(ttfo);
    if (m_latencyCombo->count() == choices.size())
        return;
    const QVariant current = m_latencyCombo->currentData();
    const QSignalBlocker block(m_latencyCombo); // setInputs rebuilds the charts anyway
    m_latencyCombo->clear();
    for (LatencyChoice c : choices)
        m_latencyCombo->addItem(latencyChoiceInfo(c).label, int(c));
    const int keep = m_latencyCombo->findData(current);
    m_latencyCombo->setCurrentIndex(keep >= 0 ? keep : m_latencyCombo->findData(int(LatencyChoice::TtftP99)));
}

void ChartsPanel::refillStats()
{
    const QString metric = m_metricCombo->currentData().toString();
    const QVariant previous = m_statCombo->currentData();
    const QSignalBlocker block(m_statCombo);
    m_statCombo->clear();
    const MetricInfo *info = findMetric(metric);
    for (const Stat s : info ? metricStats(*info) : distributionStats())
        m_statCombo->addItem(statName(s), int(s));
    const int keep = m_statCombo->findData(previous.isValid() ? previous : QVariant(int(Stat::P99)));
    m_statCombo->setCurrentIndex(keep >= 0 ? keep : 0);
}

// The x axes the sets have: energy per token and cost per million only where a cell has them.
void ChartsPanel::refillPareto()
{
    const QSignalBlocker block(m_paretoCombo);
    m_paretoCombo->clear();
    for (const ParetoX x : kParetoXs) {
        const bool available = std::any_of(m_inputs.cbegin(), m_inputs.cend(), [x](const ChartSeriesInput &in) { return paretoXAvailable(in.results, x); });
        if (!available && x != ParetoX::TokensPerUser && x != ParetoX::Ttft)
            continue;
        // Named by the unit for the per-user rate ("tok/s/user" says more than "Interactivity").
        m_paretoCombo->addItem(x == ParetoX::TokensPerUser ? paretoXAxis(x).unit : paretoXAxis(x).label, int(x));
    }
    // The axis last asked for comes back when a set has it again (a choice made before the
    // results arrived, a set with telemetry after one without).
    const int keep = m_paretoCombo->findData(m_paretoWanted);
    m_paretoCombo->setCurrentIndex(keep >= 0 ? keep : 0);
}

void ChartsPanel::setInputs(const QList<ChartSeriesInput> &inputs)
{
    m_inputs = inputs;
    refillPareto();
    refillMetrics();
    scheduleRebuild();
}

void ChartsPanel::scheduleRebuild()
{
    // Not restarted when already running: a steady stream of updates still redraws every 100 ms.
    if (!m_timer->isActive())
        m_timer->start();
}

void ChartsPanel::flush()
{
    if (m_timer->isActive()) {
        m_timer->stop();
        rebuild();
    }
}

QString ChartsPanel::metric() const
{
    return m_metricCombo->currentData().toString();
}

Stat ChartsPanel::stat() const
{
    return Stat(m_statCombo->currentData().toInt());
}

void ChartsPanel::setLegendVisible(bool visible)
{
    m_legendVisible = visible;
    for (InteractiveChartView *v : {m_throughput, m_metric}) {
        if (!v->chart())
            continue;
        if (visible) {
            v->chart()->legend()->attachToChart();
            v->chart()->legend()->setVisible(true);
            continue;
        }
        // Detached: a hidden legend still attached keeps its width out of the plot area.
        v->chart()->legend()->detachFromChart();
        v->chart()->legend()->setVisible(false);
    }
}

void ChartsPanel::rebuild()
{
    m_timer->stop();
    ++m_rebuilds;
    const auto choice = LatencyChoice(m_latencyCombo->currentData().toInt());
    const QString metric = m_metricCombo->currentData().toString();
    const Stat stat = this->stat();
    m_metric->setLogScale(m_logMetric->isChecked());
    if (paretoView()) {
        const auto x = ParetoX(m_paretoCombo->currentData().toInt());
        m_throughput->setLogScale(false);
        m_throughput->replaceChart(makeParetoChart(m_inputs, x));
        m_throughput->setExportName(slug(QStringLiteral("pareto-throughput-vs-") + paretoXAxis(x).label));
        QStringList leftOut;
        for (const ChartSeriesInput &in : std::as_const(m_inputs))
            for (const ParetoSeries &s : paretoSeries(in.results, x))
                if (const QString left = paretoLeftOut(s); !left.isEmpty())
                    leftOut.append((in.name.isEmpty() || m_inputs.size() < 2 ? QString() : in.name + QStringLiteral(" · ")) + s.server
                                   + QStringLiteral(": ") + left);
        m_paretoLeftOut->setText(leftOut.isEmpty() ? QString() : tr("Not on the Pareto chart — %1").arg(leftOut.join(QStringLiteral("; "))));
        m_paretoLeftOut->setVisible(!leftOut.isEmpty());
    } else {
        m_paretoLeftOut->setVisible(false);
        m_throughput->setLogScale(m_logLatency->isChecked());
        m_throughput->replaceChart(makeThroughputVsLatencyChart(m_inputs, choice, m_logLatency->isChecked()));
        m_throughput->setExportName(slug(QStringLiteral("throughput-vs-") + latencyChoiceInfo(choice).label));
    }
    m_metric->replaceChart(makeMetricVsConcurrencyChart(m_inputs, metric, stat, m_logMetric->isChecked()));
    m_metric->setExportName(slug(metric + QLatin1Char('-') + statName(stat) + QStringLiteral("-vs-") + axisKey(chartAxis(m_inputs))));
    setLegendVisible(m_legendVisible);
    QStringList knees;
    for (const ChartSeriesInput &in : std::as_const(m_inputs))
        for (const QString &s : traceKneeSentences(in.results))
            knees.append(in.name.isEmpty() || m_inputs.size() < 2 ? s : in.name + QStringLiteral(" · ") + s);
    m_knee->setLines(knees);
    m_knee->setVisible(!knees.isEmpty());
    Q_EMIT chartsRebuilt();
}

void ChartsPanel::setHighlight(ChartPointRef ref)
{
    m_throughput->setHighlight(ref);
    m_metric->setHighlight(ref);
}

void ChartsPanel::setLatencyChoice(LatencyChoice choice)
{
    m_latencyCombo->setCurrentIndex(m_latencyCombo->findData(int(choice)));
}

void ChartsPanel::setParetoView(bool on, ParetoX x)
{
    m_paretoWanted = int(x);
    if (const int i = m_paretoCombo->findData(int(x)); i >= 0)
        m_paretoCombo->setCurrentIndex(i);
    m_kindCombo->setCurrentIndex(on ? 1 : 0);
}

bool ChartsPanel::paretoView() const
{
    return m_kindCombo->currentIndex() == 1;
}

void ChartsPanel::setMetric(const QString &metric, Stat stat)
{
    m_metricCombo->setCurrentIndex(m_metricCombo->findData(metric));
    m_statCombo->setCurrentIndex(m_statCombo->findData(int(stat)));
}

void ChartsPanel::setLogLatency(bool on)
{
    m_logLatency->setChecked(on);
}

void ChartsPanel::setLogMetric(bool on)
{
    m_logMetric->setChecked(on);
}

void ChartsPanel::setEmptyText(const QString &text)
{
    m_throughput->setEmptyText(text);
    m_metric->setEmptyText(text);
}

} // namespace sb::ui
