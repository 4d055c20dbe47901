#include "charts/DifferencePanel.h"
#include "metrics/MetricCatalogue.h"
#include "report/DisplayText.h"
#include "report/ReportText.h"
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <optional>

namespace sb::ui {

QTableWidgetItem *tableTextItem(const QString &text, const QString &toolTip)
{
    auto *it = new QTableWidgetItem(displaySafe(text, DisplayLines::Single));
    it->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    it->setToolTip(displaySafe(toolTip.isEmpty() ? text : toolTip));
    return it;
}

QTableWidgetItem *tableNumberItem(const QString &text, const QString &toolTip)
{
    QTableWidgetItem *it = tableTextItem(text, toolTip);
    it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return it;
}

void prepareTable(QTableWidget *table, const QStringList &headings, int rows)
{
    table->clearContents();
    table->setColumnCount(int(headings.size()));
    table->setHorizontalHeaderLabels(headings);
    table->setRowCount(rows);
}

QString valueHeading(const QString &metric, Stat stat)
{
    const MetricInfo *info = findMetric(metric);
    const QString label = metricLabel(metric) + (info && info->singleValued ? QString() : QLatin1Char(' ') + statName(stat));
    const QString unit = info ? shortUnit(info->unit) : QString();
    return unit.isEmpty() ? label : QStringLiteral("%1 (%2)").arg(label, unit);
}

QString meanCiText(const MeanCi &ci, const QString &metric)
{
    if (ci.n == 0 || !std::isfinite(ci.mean))
        return QStringLiteral("–");
    const MetricInfo *info = findMetric(metric);
    const int decimals = info ? info->decimals : 2;
    QString s = formatFixed(ci.mean, decimals);
    if (ci.n >= 2 && std::isfinite(ci.halfWidth))
        s += QStringLiteral(" ± ") + formatFixed(ci.halfWidth, decimals);
    return s;
}

void fillDifferenceTable(QTableWidget *table, const QList<DifferenceRow> &rows, const QString &metric, Stat stat)
{
    const QString heading = valueHeading(metric, stat);
    const SweepAxis axis = rows.isEmpty() ? SweepAxis::Concurrency : rows.first().axis;
    QString point = axisTitle(axis);
    point[0] = point[0].toUpper();
    // The numbers first, the (long) series names last: at 1024 px the verdict stays in view.
    prepareTable(table, {point, QObject::tr("A: %1").arg(heading), QObject::tr("B: %1").arg(heading), QObject::tr("Δ %"),
                         QObject::tr("Significant?"), QObject::tr("A"), QObject::tr("B")},
                 int(rows.size()));
    const MetricInfo *info = findMetric(metric);
    const Better better = info ? info->better : Better::Neither;
    for (int i = 0; i < rows.size(); ++i) {
        const DifferenceRow &r = rows.at(i);
        table->setItem(i, 0, tableNumberItem(formatPoint(r.axis, r.point)));
        table->setItem(i, 1, tableNumberItem(meanCiText(r.a, metric), seriesName(r.setA, r.serverA)));
        table->setItem(i, 2, tableNumberItem(meanCiText(r.b, metric), seriesName(r.setB, r.serverB)));
        QTableWidgetItem *delta = tableNumberItem(deltaText(r.deltaPct));
        if (std::isfinite(r.deltaPct) && r.deltaPct != 0 && better != Better::Neither) {
            const bool bBetter = (r.deltaPct < 0) == (better == Better::Lower);
            const QString direction = better == Better::Lower ? QObject::tr("lower") : QObject::tr("higher");
            delta->setToolTip(bBetter ? QObject::tr("B is better (%1 is better)").arg(direction)
                                      : QObject::tr("B is worse (%1 is better)").arg(direction));
        }
        table->setItem(i, 3, delta);
        table->setItem(i, 4, tableTextItem(significanceText(r), significanceExplanation(r)));
        table->setItem(i, 5, tableTextItem(seriesName(r.setA, r.serverA)));
        table->setItem(i, 6, tableTextItem(seriesName(r.setB, r.serverB)));
    }
    // Full names: columns take the width of their text; the view scrolls sideways when the pane
    // is narrower.
    table->resizeColumnsToContents();
}

DifferencePanel::DifferencePanel(QWidget *parent)
    : QWidget(parent)
    , m_a(new QComboBox(this))
    , m_b(new QComboBox(this))
    , m_table(new QTableWidget(this))
{
    m_a->setObjectName(QStringLiteral("differenceA"));
    m_b->setObjectName(QStringLiteral("differenceB"));
    m_table->setObjectName(QStringLiteral("differenceTable"));
    m_a->setToolTip(tr("The baseline series; \"Default pairs\" compares the same server across sets, or in one set the "
                       "first server with each other"));
    m_b->setToolTip(tr("The series compared with A"));
    for (QComboBox *box : {m_a, m_b}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(10);
        box->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    }
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("A:"), this));
    row->addWidget(m_a, 1);
    row->addWidget(new QLabel(tr("B:"), this));
    row->addWidget(m_b, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(m_table, 1);
    connect(m_a, &QComboBox::currentIndexChanged, this, &DifferencePanel::refill);
    connect(m_b, &QComboBox::currentIndexChanged, this, &DifferencePanel::refill);
    fillCombos();
    refill();
}

void DifferencePanel::fillCombos()
{
    // Keep the user's pair across refreshes while both series are still shown.
    const int a = m_a->currentIndex() - 1, b = m_b->currentIndex();
    const std::optional<SeriesRef> keepA = a >= 0 && a < m_series.size() ? std::optional(m_series.at(a)) : std::nullopt;
    const std::optional<SeriesRef> keepB = b >= 0 && b < m_series.size() ? std::optional(m_series.at(b)) : std::nullopt;
    m_series.clear();
    for (int s = 0; s < m_sets.size(); ++s)
        for (const QString &server : m_sets.at(s).results.serverNames())
            m_series.append({s, server});
    const QSignalBlocker blockA(m_a), blockB(m_b);
    m_a->clear();
    m_b->clear();
    m_a->addItem(tr("Default pairs"));
    for (const SeriesRef &r : std::as_const(m_series)) {
        const QString name = displaySafe(seriesName(m_sets.at(r.set).name, r.server), DisplayLines::Single);
        m_a->addItem(name);
        m_b->addItem(name);
    }
    const auto indexOf = [this](const std::optional<SeriesRef> &r) {
        if (r)
            for (int i = 0; i < m_series.size(); ++i)
                if (m_series.at(i).set == r->set && m_series.at(i).server == r->server)
                    return i;
        return -1;
    };
    const int ia = indexOf(keepA), ib = indexOf(keepB);
    m_a->setCurrentIndex(ia >= 0 ? ia + 1 : 0);
    m_b->setCurrentIndex(ib >= 0 ? ib : std::min(1, int(m_series.size()) - 1));
}

void DifferencePanel::setInputs(const QList<NamedResults> &sets, const QString &metric, Stat stat)
{
    m_sets = sets;
    m_metric = metric;
    m_stat = stat;
    fillCombos();
    refill();
}

bool DifferencePanel::choosePair(const SeriesRef &a, const SeriesRef &b)
{
    int ia = -1, ib = -1;
    for (int i = 0; i < m_series.size(); ++i) {
        if (m_series.at(i).set == a.set && m_series.at(i).server == a.server)
            ia = i;
        if (m_series.at(i).set == b.set && m_series.at(i).server == b.server)
            ib = i;
    }
    if (ia < 0 || ib < 0)
        return false;
    const QSignalBlocker block(m_a);
    m_a->setCurrentIndex(ia + 1);
    m_b->setCurrentIndex(ib); // refills (also when unchanged: below)
    refill();
    return true;
}

void DifferencePanel::chooseDefaultPairs()
{
    m_a->setCurrentIndex(0);
}

void DifferencePanel::refill()
{
    const int a = m_a->currentIndex() - 1, b = m_b->currentIndex();
    m_b->setEnabled(a >= 0);
    if (a >= 0 && b >= 0 && a < m_series.size() && b < m_series.size())
        m_rows = compareSeries(m_sets, m_series.at(a), m_series.at(b), m_metric, m_stat);
    else
        m_rows = compareSets(m_sets, m_metric, m_stat);
    fillDifferenceTable(m_table, m_rows, m_metric, m_stat);
    Q_EMIT rowsChanged(int(m_rows.size()));
}

} // namespace sb::ui
