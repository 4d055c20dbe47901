#pragma once
// The difference table (report/SetComparison.h) with its pair picker, shared by the Results tab
// (any two servers of one set) and Compare (any two series of the sets shown). Per point: A's and
// B's value (mean ± 95 % CI over the runs), the change and whether it is significant. The user
// picks A and B from every series; "Default pairs" shows compareSets()' pairs (the same server
// across sets, or the first server against each other in one set).
#include "report/SetComparison.h"
#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QTableWidget;
class QTableWidgetItem;
QT_END_NAMESPACE

namespace sb::ui {

class DifferencePanel : public QWidget
{
    Q_OBJECT
public:
    explicit DifferencePanel(QWidget *parent = nullptr);

    // The sets and the figure compared. The chosen pair is kept while both series still exist.
    void setInputs(const QList<NamedResults> &sets, const QString &metric, Stat stat);
    // Picks A and B (by set index and server); false when either is not shown.
    bool choosePair(const SeriesRef &a, const SeriesRef &b);
    void chooseDefaultPairs();
    const QList<DifferenceRow> &rows() const { return m_rows; }
    QTableWidget *table() const { return m_table; }

Q_SIGNALS:
    void rowsChanged(int count);

private:
    void refill();
    void fillCombos();

    QList<NamedResults> m_sets;
    QString m_metric;
    Stat m_stat = Stat::P50;
    QList<SeriesRef> m_series; // the combos' entries after "Default pairs"
    QList<DifferenceRow> m_rows;
    QComboBox *m_a = nullptr;
    QComboBox *m_b = nullptr;
    QTableWidget *m_table = nullptr;
};

// Columns: point, A value, B value, Δ %, significant?, A, B (the series names last).
void fillDifferenceTable(QTableWidget *table, const QList<DifferenceRow> &rows, const QString &metric, Stat stat);
// "TTFT p99 (ms)" for a metric.stat: the heading of value columns.
QString valueHeading(const QString &metric, Stat stat);
// mean ± half width with the catalogue's decimals; "–" when not measured.
QString meanCiText(const MeanCi &ci, const QString &metric);

// Cells of the read-only tables under the charts: display-safe text, the tooltip defaulting to it.
QTableWidgetItem *tableTextItem(const QString &text, const QString &toolTip = {});
QTableWidgetItem *tableNumberItem(const QString &text, const QString &toolTip = {}); // right-aligned
void prepareTable(QTableWidget *table, const QStringList &headings, int rows);

} // namespace sb::ui
