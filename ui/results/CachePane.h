#pragma once
// The Results view's "Cache" tab: what the prefix cache did for the selected cell — per turn of
// multi-turn sessions (results.json cells[].by_turn: turn 1's TTFT against later turns' is the
// cache's effect) and the share of prompt tokens served from cache, ideal against what the
// server reported (cells[].prefix_cache).
#include "results/Results.h"
#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QTableWidget;
QT_END_NAMESPACE

namespace sb::ui {

class InteractiveChartView;

class CachePane : public QWidget
{
    Q_OBJECT
public:
    explicit CachePane(QWidget *parent = nullptr);
    void setCell(const CellResult *cell); // nullptr: none selected
    QTableWidget *turnTable() const { return m_table; }
    QString statusText() const;

private:
    QLabel *m_status;
    InteractiveChartView *m_view;
    QTableWidget *m_table;
};

// "Prefix cache: 72.2 % of prompt tokens ideally (whole 128-token blocks), 70.9 % by the
// server's cached_tokens, 70.9 % by its counters" — the Cache tab's and the cell detail's line;
// empty when the cell has no prefix_cache.
QString prefixCacheLine(const CellResult &cell);

} // namespace sb::ui
