#pragma once
// A QChartView for the builders' charts: hover tooltips with the cell's numbers, click on a point
// → pointClicked(ref), highlight of one cell's points that survives chart rebuilds, and a context
// menu to export PNG/SVG.
#include "charts/ChartPoints.h"
#include <QChartView>

namespace sb::ui {

class InteractiveChartView : public QChartView
{
    Q_OBJECT
public:
    explicit InteractiveChartView(QWidget *parent = nullptr);
    // Takes ownership and deletes the previous chart; re-applies the current highlight.
    void replaceChart(QChart *chart);
    void setHighlight(ChartPointRef ref);
    ChartPointRef highlight() const { return m_highlight; }
    // Suggested file name stem for exports ("throughput-vs-ttft-p99").
    void setExportName(const QString &stem) { m_exportName = stem; }
    bool exportTo(const QString &path, QString *error);

Q_SIGNALS:
    void pointClicked(sb::ui::ChartPointRef ref);

protected:
    void contextMenuEvent(QContextMenuEvent *event) override;
    void changeEvent(QEvent *event) override; // follows the palette (charts/ChartColors.h)

private:
    void exportInteractively(const QString &suffix);
    ChartPointRef m_highlight;
    QString m_exportName = QStringLiteral("chart");
};

} // namespace sb::ui
