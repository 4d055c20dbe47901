#pragma once
// The Trace tab's step timeline: one lane per trace file (a rank), each engine step a bar from its
// start to its end in its kind's colour (charts/ChartStyle.h stepKindColor), a time axis from the
// earliest step. Explored like the charts (charts/InteractiveChartView.h): the wheel zooms around
// the cursor, a left drag zooms to the dragged span, a middle drag or Shift+drag pans, and
// double-click, 0 or Home go back to the whole window; only time zooms, the lanes stay. Hovering a
// bar shows its label, duration and start. Painted directly, not with QtCharts: a lane holds up to
// 200,000 steps, and steps narrower than a pixel are merged into one bar per run of a kind.
#include "trace/TraceSteps.h"
#include <QWidget>
#include <memory>

namespace sb::ui {

class StepTimelineView : public QWidget
{
    Q_OBJECT
public:
    explicit StepTimelineView(QWidget *parent = nullptr);

    // Shows `timeline` whole (nullptr: nothing, with the empty text).
    void setTimeline(std::shared_ptr<const StepTimeline> timeline);
    const StepTimeline *timeline() const { return m_timeline.get(); }
    void setEmptyText(const QString &text);
    QString emptyText() const { return m_emptyText; }

    // The visible span, microseconds from the timeline's origin.
    double viewStart() const { return m_view0; }
    double viewEnd() const { return m_view1; }
    bool isZoomed() const;
    void resetZoom();
    // Shows [startUs, endUs], clamped to the timeline (a span of at least 1 µs).
    void setView(double startUs, double endUs);
    // Scales the span by `factor` (< 1 zooms in) keeping the time under widget x `x` in place.
    void zoomAt(double x, double factor);

    // The bars' area and where a lane and a time are drawn (widget coordinates).
    QRect plotRect() const;
    QRect laneRect(int lane) const;
    QPoint pointAt(int lane, double us) const;
    // What hovering at `pos` shows (empty over no step), and what the mouse shows now.
    QString readoutAt(QPoint pos) const;
    QString hoverText() const { return m_hoverText; }
    // Bars painted in the last paint, merged runs counted once (tests: big lanes stay cheap).
    qsizetype paintedBars() const { return m_paintedBars; }

    QSize sizeHint() const override { return {480, 200}; }
    QSize minimumSizeHint() const override { return {200, 90}; }

Q_SIGNALS:
    void zoomChanged(bool zoomed);

protected:
    void paintEvent(QPaintEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    struct Hit {
        int lane = -1;
        qsizetype step = -1;
    };
    enum class Drag { None, Pressed, Span, Pan };
    Hit hitAt(QPoint pos) const;
    QString describe(const Hit &hit) const;
    double timeAt(double x) const;
    double xOf(double us) const;
    int gutterWidth() const;
    QString laneName(int lane) const;
    void paintAxis(QPainter &p, const QRect &plot);
    void paintLane(QPainter &p, int lane, const QRect &row, bool dark);
    void paintReadout(QPainter &p);
    void changed();

    std::shared_ptr<const StepTimeline> m_timeline;
    // The lane names' width, measured once per timeline and font: xOf() runs per step painted.
    mutable int m_namesWidth = -1;
    QString m_emptyText;
    double m_view0 = 0, m_view1 = 1;
    Hit m_hover;
    QString m_hoverText;
    QPoint m_mouse;
    Drag m_drag = Drag::None;
    QPoint m_pressAt;
    double m_pressView0 = 0, m_pressView1 = 0;
    qsizetype m_paintedBars = 0;
};

// A duration or time of the trace clock, in the unit that reads best ("812 µs", "3.25 ms", "1.502 s").
QString formatTraceTime(double us);

} // namespace sb::ui
