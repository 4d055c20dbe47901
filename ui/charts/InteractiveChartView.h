#pragma once
// A QChartView for the builders' charts: hover tooltips with the cell's numbers, click on a point
// → pointClicked(ref), highlight of one cell's points that survives chart rebuilds and resizes,
// a context menu to export PNG/SVG, and exploring (README "A five-minute tour"):
//  - wheel zooms around the cursor (over an axis: that axis only), a left drag zooms to the
//    rubber band, a middle drag or Shift+drag pans; double-click, 0, Home, the context menu or the
//    "Reset zoom" button go back to the builder's ranges. The zoom is kept across rebuilds of the
//    same view (throttled data refreshes) and dropped when the metric, stat or scale changes;
//  - a crosshair and a read-out of the nearest point (charts/HoverLayer.h), repainted on mouse
//    moves without rebuilding the chart;
//  - a "Log scale" toggle in the context menu for views whose owner can rebuild on a log axis;
//  - an empty state: a chart without a single point hides its axes (no blank 0–1 frame) and says
//    what to do instead (setEmptyText).
#include "charts/ChartPoints.h"
#include "charts/ChartZoom.h"
#include "charts/HoverLayer.h"
#include <QChartView>
#include <QPointer>
#include <optional>

QT_BEGIN_NAMESPACE
class QLabel;
class QRubberBand;
class QToolButton;
QT_END_NAMESPACE

namespace sb::ui {

class InteractiveChartView : public QChartView
{
    Q_OBJECT
public:
    explicit InteractiveChartView(QWidget *parent = nullptr);
    // Takes ownership and deletes the previous chart; re-applies the current highlight, and the
    // zoom when the new chart shows the same view (chartViewKey) as the previous one.
    void replaceChart(QChart *chart);
    void setHighlight(ChartPointRef ref);
    ChartPointRef highlight() const { return m_highlight; }
    // Suggested file name stem for exports ("throughput-vs-ttft-p99").
    void setExportName(const QString &stem) { m_exportName = stem; }
    bool exportTo(const QString &path, QString *error);

    bool isZoomed() const { return m_zoom.has_value(); }
    void resetZoom();
    // The context menu offers "Log scale" only when the owner rebuilds on logScaleToggled.
    void setLogScaleAvailable(bool available) { m_logAvailable = available; }
    void setLogScale(bool on) { m_log = on; }
    bool logScale() const { return m_log; }

    // Shown instead of empty axes when the chart has nothing to plot.
    void setEmptyText(const QString &text);
    bool showsEmptyState() const;

    HoverLayer *hoverLayer() const { return m_hover; }
    // The read-out of the point nearest the mouse; empty when none is near.
    QString readoutText() const;

Q_SIGNALS:
    void pointClicked(sb::ui::ChartPointRef ref);
    void zoomChanged(bool zoomed);
    void logScaleToggled(bool on);

protected:
    void contextMenuEvent(QContextMenuEvent *event) override;
    void changeEvent(QEvent *event) override; // follows the palette (charts/ChartColors.h)
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    enum class Drag { None, Pressed, RubberBand, Pan };
    void exportInteractively(const QString &suffix);
    QPointF toChart(QPointF viewPos) const;
    void zoomed(); // after any zoom or pan: remember it, show the reset button
    void hoverAt(std::optional<QPointF> viewPos);
    void fitTitles();

    ChartPointRef m_highlight;
    QString m_exportName = QStringLiteral("chart");
    ChartRanges m_home; // the builder's ranges of the current chart
    std::optional<ChartRanges> m_zoom;
    QString m_viewKey;
    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    QPointF m_lastPos;
    std::optional<QPointF> m_mouse; // view coordinates, while over the view
    QRubberBand *m_rubberBand;
    QToolButton *m_resetButton;
    QLabel *m_emptyLabel;
    QPointer<HoverLayer> m_hover;
    bool m_logAvailable = false;
    bool m_log = false;
};

} // namespace sb::ui
