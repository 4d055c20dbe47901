#include "results/StepTimelineView.h"
#include "charts/ChartStyle.h"
#include "report/DisplayText.h"
#include <QFileInfo>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace sb::ui {

namespace {
constexpr double kMinSpanUs = 1;
constexpr int kMaxLaneHeight = 40;
constexpr int kMinLaneHeight = 6;
constexpr int kDragThreshold = 4;   // pixels before a press becomes a drag
constexpr int kHoverSlack = 3;      // pixels around a bar that still hover it
constexpr double kWheelStep = 0.8;  // one notch zooms in to 80 % of the span

QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(a.redF() + (b.redF() - a.redF()) * t, a.greenF() + (b.greenF() - a.greenF()) * t,
                            a.blueF() + (b.blueF() - a.blueF()) * t);
}

// A tick spacing of 1, 2 or 5 × 10^k µs giving about `wanted` ticks over `span`.
double tickStep(double span, int wanted)
{
    const double raw = span / std::max(1, wanted);
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * decade >= raw)
            return m * decade;
    return 10 * decade;
}
// A tick's label: in the unit of the tick spacing, with just the decimals the spacing needs
// ("0 s", "2 s"; "10.5 ms", "11 ms").
QString tickLabel(double us, double step)
{
    const double unit = step >= 1e6 ? 1e6 : step >= 1e3 ? 1e3 : 1;
    const char *name = step >= 1e6 ? "s" : step >= 1e3 ? "ms" : "µs";
    const int decimals = std::max(0, int(std::ceil(-std::log10(step / unit) - 1e-9)));
    return QStringLiteral("%1 %2").arg(us / unit, 0, 'f', decimals).arg(QString::fromUtf8(name));
}
} // namespace

QString formatTraceTime(double us)
{
    const double a = std::abs(us);
    if (a < 1000)
        return QStringLiteral("%1 µs").arg(us, 0, 'f', a < 10 ? 2 : a < 100 ? 1 : 0);
    if (a < 1'000'000)
        return QStringLiteral("%1 ms").arg(us / 1000, 0, 'f', a < 10'000 ? 3 : a < 100'000 ? 2 : 1);
    return QStringLiteral("%1 s").arg(us / 1'000'000, 0, 'f', 3);
}

StepTimelineView::StepTimelineView(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void StepTimelineView::setTimeline(std::shared_ptr<const StepTimeline> timeline)
{
    m_timeline = std::move(timeline);
    m_namesWidth = -1;
    m_hover = {};
    m_hoverText.clear();
    m_drag = Drag::None;
    resetZoom();
}

void StepTimelineView::setEmptyText(const QString &text)
{
    m_emptyText = text;
    update();
}

bool StepTimelineView::isZoomed() const
{
    return m_timeline && (m_view0 > 0 || m_view1 < std::max(kMinSpanUs, m_timeline->endUs));
}

void StepTimelineView::resetZoom()
{
    setView(0, m_timeline ? m_timeline->endUs : 1);
}

void StepTimelineView::setView(double startUs, double endUs)
{
    const double full = m_timeline ? std::max(kMinSpanUs, m_timeline->endUs) : 1;
    if (!std::isfinite(startUs) || !std::isfinite(endUs))
        return;
    double span = std::clamp(endUs - startUs, kMinSpanUs, full);
    double start = std::clamp(startUs, 0.0, full - span);
    const bool was = isZoomed();
    m_view0 = start;
    m_view1 = start + span;
    if (was != isZoomed())
        Q_EMIT zoomChanged(isZoomed());
    changed();
}

void StepTimelineView::zoomAt(double x, double factor)
{
    const double t = timeAt(x);
    setView(t - (t - m_view0) * factor, t + (m_view1 - t) * factor);
}

int StepTimelineView::gutterWidth() const
{
    if (!m_timeline)
        return 0;
    if (m_namesWidth < 0) {
        m_namesWidth = 0;
        for (int i = 0; i < m_timeline->lanes.size(); ++i)
            m_namesWidth = std::max(m_namesWidth, fontMetrics().horizontalAdvance(laneName(i)));
    }
    return std::clamp(m_namesWidth + 12, 48, std::max(48, width() / 4));
}

QRect StepTimelineView::plotRect() const
{
    const int axis = fontMetrics().height() + 8;
    return QRect(gutterWidth(), axis, std::max(1, width() - gutterWidth() - 8), std::max(1, height() - axis - 4));
}

QRect StepTimelineView::laneRect(int lane) const
{
    const QRect plot = plotRect();
    const int n = m_timeline ? int(m_timeline->lanes.size()) : 0;
    if (lane < 0 || lane >= n)
        return {};
    const int h = std::clamp(plot.height() / n, kMinLaneHeight, kMaxLaneHeight);
    return QRect(plot.left(), plot.top() + lane * h, plot.width(), h);
}

double StepTimelineView::timeAt(double x) const
{
    const QRect plot = plotRect();
    return m_view0 + (x - plot.left()) * (m_view1 - m_view0) / plot.width();
}

double StepTimelineView::xOf(double us) const
{
    const QRect plot = plotRect();
    return plot.left() + (us - m_view0) * plot.width() / (m_view1 - m_view0);
}

QPoint StepTimelineView::pointAt(int lane, double us) const
{
    const QRect r = laneRect(lane);
    return QPoint(int(std::lround(xOf(us))), r.center().y());
}

QString StepTimelineView::laneName(int lane) const
{
    const StepLane &l = m_timeline->lanes.at(lane);
    QString name = l.rank >= 0 ? tr("rank %1").arg(l.rank) : displaySafe(QFileInfo(l.path).fileName(), DisplayLines::Single).left(24);
    if (!l.error.isEmpty())
        name = QStringLiteral("⚠ ") + name;
    return name;
}

StepTimelineView::Hit StepTimelineView::hitAt(QPoint pos) const
{
    if (!m_timeline)
        return {};
    for (int lane = 0; lane < m_timeline->lanes.size(); ++lane) {
        if (!laneRect(lane).contains(pos))
            continue;
        const StepLane &l = m_timeline->lanes.at(lane);
        const double t = timeAt(pos.x());
        const double slack = kHoverSlack * (m_view1 - m_view0) / plotRect().width();
        // Steps are by start: the candidates start before t + slack and end after t - slack.
        const auto last = std::upper_bound(l.steps.begin(), l.steps.end(), t + slack,
                                           [](double v, const TimelineStep &s) { return v < s.startUs; });
        Hit best{lane, -1};
        double bestDistance = INFINITY;
        for (auto it = last; it != l.steps.begin();) {
            --it;
            if (it->startUs < t - slack - l.maxDurUs)
                break;
            const double distance = t < it->startUs ? it->startUs - t : t > it->startUs + it->durUs ? t - it->startUs - it->durUs : 0;
            if (distance <= slack && distance < bestDistance) {
                bestDistance = distance;
                best.step = it - l.steps.begin();
                if (distance == 0)
                    break;
            }
        }
        return best.step >= 0 ? best : Hit{};
    }
    return {};
}

QString StepTimelineView::describe(const Hit &hit) const
{
    if (!m_timeline || hit.lane < 0 || hit.step < 0)
        return {};
    const StepLane &l = m_timeline->lanes.at(hit.lane);
    const TimelineStep &s = l.steps.at(std::size_t(hit.step));
    QString label = displaySafe(l.labelOf(s), DisplayLines::Single);
    if (label.isEmpty())
        label = tr("%1 step").arg(QLatin1String(stepKindName(s.kind)));
    QStringList facts{formatTraceTime(s.durUs), tr("at %1").arg(formatTraceTime(s.startUs))};
    if (s.batch >= 0)
        facts << tr("batch %1").arg(s.batch);
    if (s.tokens >= 0)
        facts << tr("%1 tokens").arg(s.tokens);
    return QStringLiteral("%1 · %2\n%3").arg(laneName(hit.lane), label, facts.join(QStringLiteral(" · ")));
}

QString StepTimelineView::readoutAt(QPoint pos) const
{
    return describe(hitAt(pos));
}

void StepTimelineView::changed()
{
    if (m_drag == Drag::None && rect().contains(m_mouse) && underMouse()) {
        m_hover = hitAt(m_mouse);
        m_hoverText = describe(m_hover);
    }
    update();
}

void StepTimelineView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QColor base = palette().color(QPalette::Base);
    const QColor text = palette().color(QPalette::Text);
    const bool dark = base.lightness() < 128;
    p.fillRect(rect(), base);
    m_paintedBars = 0;
    if (!m_timeline || m_timeline->lanes.isEmpty() || m_timeline->keptSteps() == 0) {
        p.setPen(mix(base, text, 0.7));
        p.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap, m_emptyText);
        return;
    }
    const QRect plot = plotRect();
    paintAxis(p, plot);
    for (int lane = 0; lane < m_timeline->lanes.size(); ++lane) {
        const QRect row = laneRect(lane);
        if (row.top() > plot.bottom())
            break;
        if (lane % 2 == 1)
            p.fillRect(row, mix(base, text, 0.05));
        p.setPen(m_timeline->lanes.at(lane).error.isEmpty() ? text : QColor(0xD5, 0x5E, 0x00));
        const QRect name(0, row.top(), gutterWidth() - 6, row.height());
        p.drawText(name, Qt::AlignRight | Qt::AlignVCenter, fontMetrics().elidedText(laneName(lane), Qt::ElideMiddle, name.width()));
        p.save();
        p.setClipRect(row);
        paintLane(p, lane, row, dark);
        p.restore();
    }
    if (m_drag == Drag::Span) {
        const int x0 = std::clamp(std::min(m_pressAt.x(), m_mouse.x()), plot.left(), plot.right());
        const int x1 = std::clamp(std::max(m_pressAt.x(), m_mouse.x()), plot.left(), plot.right());
        QColor band = palette().color(QPalette::Highlight);
        band.setAlpha(60);
        p.fillRect(QRect(x0, plot.top(), x1 - x0, plot.height()), band);
    }
    paintReadout(p);
}

void StepTimelineView::paintAxis(QPainter &p, const QRect &plot)
{
    const QColor base = palette().color(QPalette::Base);
    const QColor text = palette().color(QPalette::Text);
    const double span = m_view1 - m_view0;
    const int wanted = std::max(2, plot.width() / std::max(60, fontMetrics().horizontalAdvance(QStringLiteral("00.000 ms")) + 16));
    const double step = tickStep(span, wanted);
    const int lanesBottom = laneRect(int(m_timeline->lanes.size()) - 1).bottom();
    for (double t = std::ceil(m_view0 / step) * step; t <= m_view1; t += step) {
        const int x = int(std::lround(xOf(t)));
        p.setPen(mix(base, text, 0.15));
        p.drawLine(x, plot.top(), x, std::min(plot.bottom(), lanesBottom));
        p.setPen(text);
        const QString label = tickLabel(t, step);
        const int w = fontMetrics().horizontalAdvance(label);
        p.drawText(QRect(std::min(x - w / 2, plot.right() - w), 2, w + 2, plot.top() - 4), Qt::AlignLeft | Qt::AlignVCenter, label);
    }
    p.setPen(mix(base, text, 0.4));
    p.drawLine(plot.left(), plot.top() - 1, plot.right(), plot.top() - 1);
}

void StepTimelineView::paintLane(QPainter &p, int lane, const QRect &row, bool dark)
{
    const StepLane &l = m_timeline->lanes.at(lane);
    const int top = row.top() + std::max(1, row.height() / 6);
    const int h = std::max(2, row.height() - 2 * std::max(1, row.height() / 6));
    const auto first = std::lower_bound(l.steps.begin(), l.steps.end(), m_view0 - l.maxDurUs,
                                        [](const TimelineStep &s, double v) { return s.startUs < v; });
    // A run: steps of one kind that share pixels, drawn as one bar. Each kind keeps its own run,
    // so a prefill step amid thousands of decodes does not split them into thousands of bars:
    // at most one bar per kind and pixel column, whatever the lane holds.
    struct Run {
        int start = 0, end = -1, steps = 0;
    };
    Run runs[4];
    QList<QRect> bars[4];
    const auto flush = [&](int kind) {
        Run &r = runs[kind];
        if (r.steps == 0)
            return;
        int w = r.end - r.start;
        if (r.steps == 1 && w >= 4)
            w -= 1; // a gap between steps that touch, once they are wide enough to show one
        bars[kind].append(QRect(r.start, top, std::max(1, w), h));
        r.steps = 0;
    };
    const double left = row.left() - 1.0, right = row.right() + 2.0;
    const double scale = row.width() / (m_view1 - m_view0); // xOf(), without its geometry per step
    for (auto it = first; it != l.steps.end() && it->startUs <= m_view1; ++it) {
        const double x0 = std::max(left, row.left() + (it->startUs - m_view0) * scale);
        const double x1 = std::min(right, row.left() + (it->startUs + it->durUs - m_view0) * scale);
        if (x1 < left)
            continue;
        const int ix0 = int(std::floor(x0));
        const int ix1 = std::max(ix0 + 1, int(std::ceil(x1)));
        Run &r = runs[int(it->kind)];
        if (r.steps > 0 && ix0 <= r.end) {
            r.end = std::max(r.end, ix1);
            ++r.steps;
            continue;
        }
        flush(int(it->kind));
        r = Run{ix0, ix1, 1};
    }
    // The common kinds first, so the rarer prefill and mixed steps stay visible on top.
    for (StepKind k : {StepKind::Unknown, StepKind::Decode, StepKind::Mixed, StepKind::Prefill}) {
        flush(int(k));
        const QColor color = stepKindColor(k, dark);
        for (const QRect &b : std::as_const(bars[int(k)]))
            p.fillRect(b, color);
        m_paintedBars += bars[int(k)].size();
    }
    if (m_hover.lane == lane && m_hover.step >= 0 && m_hover.step < qsizetype(l.steps.size())) {
        const TimelineStep &s = l.steps.at(std::size_t(m_hover.step));
        const int x0 = int(std::floor(xOf(s.startUs)));
        const int x1 = std::max(x0 + 1, int(std::ceil(xOf(s.startUs + s.durUs))));
        p.setPen(QPen(palette().color(QPalette::Text), 1.5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(x0 - 1, top - 1, x1 - x0 + 1, h + 1));
    }
}

void StepTimelineView::paintReadout(QPainter &p)
{
    if (m_hoverText.isEmpty() || m_drag != Drag::None)
        return;
    const QRect bounds = fontMetrics().boundingRect(QRect(0, 0, 600, 200), Qt::AlignLeft, m_hoverText).adjusted(-6, -4, 6, 4);
    QRect box(m_mouse + QPoint(14, 14), bounds.size());
    if (box.right() > width() - 2)
        box.moveRight(m_mouse.x() - 10);
    if (box.bottom() > height() - 2)
        box.moveBottom(m_mouse.y() - 10);
    box.moveLeft(std::max(2, box.left()));
    box.moveTop(std::max(2, box.top()));
    p.setPen(palette().color(QPalette::Mid));
    p.setBrush(palette().color(QPalette::ToolTipBase));
    p.drawRect(box);
    p.setPen(palette().color(QPalette::ToolTipText));
    p.drawText(box.adjusted(6, 4, -6, -4), Qt::AlignLeft | Qt::AlignTop, m_hoverText);
}

void StepTimelineView::wheelEvent(QWheelEvent *event)
{
    const int delta = event->angleDelta().y() != 0 ? event->angleDelta().y() : event->angleDelta().x();
    if (!m_timeline || delta == 0)
        return;
    zoomAt(event->position().x(), std::pow(kWheelStep, delta / 120.0));
    event->accept();
}

void StepTimelineView::mousePressEvent(QMouseEvent *event)
{
    m_pressAt = event->position().toPoint();
    m_pressView0 = m_view0, m_pressView1 = m_view1;
    const bool pan = event->button() == Qt::MiddleButton || (event->button() == Qt::LeftButton && event->modifiers().testFlag(Qt::ShiftModifier));
    m_drag = pan ? Drag::Pan : event->button() == Qt::LeftButton ? Drag::Pressed : Drag::None;
    if (m_drag == Drag::Pan)
        setCursor(Qt::ClosedHandCursor);
    event->accept();
}

void StepTimelineView::mouseMoveEvent(QMouseEvent *event)
{
    m_mouse = event->position().toPoint();
    if (m_drag == Drag::Pressed && std::abs(m_mouse.x() - m_pressAt.x()) >= kDragThreshold)
        m_drag = Drag::Span;
    if (m_drag == Drag::Pan) {
        const double perPixel = (m_pressView1 - m_pressView0) / plotRect().width();
        const double shift = (m_pressAt.x() - m_mouse.x()) * perPixel;
        setView(m_pressView0 + shift, m_pressView1 + shift);
        return;
    }
    if (m_drag == Drag::Span) {
        update();
        return;
    }
    const Hit hit = hitAt(m_mouse);
    const QString text = describe(hit);
    if (hit.lane != m_hover.lane || hit.step != m_hover.step || text != m_hoverText || !text.isEmpty()) {
        m_hover = hit;
        m_hoverText = text;
        update();
    }
}

void StepTimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    const Drag drag = m_drag;
    m_drag = Drag::None;
    unsetCursor();
    if (drag == Drag::Span) {
        const double a = timeAt(std::min(m_pressAt.x(), event->position().toPoint().x()));
        const double b = timeAt(std::max(m_pressAt.x(), event->position().toPoint().x()));
        setView(a, b);
    }
    update();
}

void StepTimelineView::mouseDoubleClickEvent(QMouseEvent *)
{
    resetZoom();
}

void StepTimelineView::keyPressEvent(QKeyEvent *event)
{
    const double span = m_view1 - m_view0;
    const double center = plotRect().center().x();
    switch (event->key()) {
    case Qt::Key_0:
    case Qt::Key_Home:
        resetZoom();
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomAt(center, kWheelStep);
        break;
    case Qt::Key_Minus:
        zoomAt(center, 1 / kWheelStep);
        break;
    case Qt::Key_Left:
        setView(m_view0 - span / 10, m_view1 - span / 10);
        break;
    case Qt::Key_Right:
        setView(m_view0 + span / 10, m_view1 + span / 10);
        break;
    default:
        QWidget::keyPressEvent(event);
    }
}

void StepTimelineView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        m_namesWidth = -1;
}

void StepTimelineView::leaveEvent(QEvent *)
{
    m_hover = {};
    m_hoverText.clear();
    update();
}

} // namespace sb::ui
