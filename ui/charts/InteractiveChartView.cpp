#include "charts/InteractiveChartView.h"
#include "charts/ChartColors.h"
#include "charts/ChartExport.h"
#include "charts/ChartTitles.h"
#include "charts/HoverLayer.h"
#include "charts/PointLabelLayer.h"
#include "report/DisplayText.h"
#include <QApplication>
#include <QContextMenuEvent>
#include <QCursor>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QRubberBand>
#include <QToolButton>
#include <QToolTip>
#include <QWheelEvent>
#include <QXYSeries>
#include <cmath>

namespace sb::ui {

namespace {
// One wheel notch (120 eighths of a degree) shows 80 % of the span; touchpads send smaller steps.
constexpr double kZoomPerNotch = 0.8;

// Nothing drawn: no point in any series (a bar or area series counts as something).
bool hasNothingToPlot(const QChart *chart)
{
    for (QAbstractSeries *s : chart->series()) {
        auto *xy = qobject_cast<QXYSeries *>(s);
        if (!xy || xy->count() > 0)
            return false;
    }
    return true;
}
} // namespace

InteractiveChartView::InteractiveChartView(QWidget *parent)
    : QChartView(parent)
    , m_rubberBand(new QRubberBand(QRubberBand::Rectangle, viewport()))
    , m_resetButton(new QToolButton(viewport()))
    , m_emptyLabel(new QLabel(viewport()))
{
    setRenderHint(QPainter::Antialiasing);
    // Small enough that the cell pane's charts never push the main charts below half the height
    // on a 700 px screen; the layouts give every chart more where there is room.
    setMinimumSize(240, 160);
    setFocusPolicy(Qt::StrongFocus); // 0 / Home after a click
    setMouseTracking(true);
    viewport()->setMouseTracking(true); // the crosshair follows the mouse without a button held
    m_rubberBand->hide();
    m_resetButton->setObjectName(QStringLiteral("resetZoom"));
    m_resetButton->setText(tr("Reset zoom"));
    m_resetButton->setToolTip(tr("Show the whole chart again (double-click, 0 or Home)"));
    m_resetButton->setCursor(Qt::ArrowCursor);
    m_resetButton->hide();
    connect(m_resetButton, &QToolButton::clicked, this, &InteractiveChartView::resetZoom);
    m_emptyLabel->setObjectName(QStringLiteral("emptyChart"));
    m_emptyLabel->setAlignment(Qt::AlignCenter);
    m_emptyLabel->setWordWrap(true);
    m_emptyLabel->setText(tr("Nothing to plot yet: run a sweep, or open or drop a results folder."));
    m_emptyLabel->hide();
}

void InteractiveChartView::setEmptyText(const QString &text)
{
    m_emptyLabel->setText(text);
}

bool InteractiveChartView::showsEmptyState() const
{
    return !m_emptyLabel->isHidden();
}

void InteractiveChartView::replaceChart(QChart *newChart)
{
    QChart *old = chart();
    setChart(newChart); // QChartView does not delete the previous chart
    if (old != newChart)
        delete old;
    applyChartColors(newChart, palette());
    m_home = chartRanges(newChart);
    const QString key = chartViewKey(newChart);
    const bool keepZoom = m_zoom && key == m_viewKey;
    m_viewKey = key;
    if (keepZoom)
        applyRanges(newChart, *m_zoom); // a data refresh of the same view keeps what the user looks at
    else if (m_zoom) {
        m_zoom.reset();
        m_resetButton->hide();
        Q_EMIT zoomChanged(false);
    }
    m_hover = new HoverLayer(newChart);
    for (QXYSeries *series : taggedSeries(newChart)) {
        connect(series, &QXYSeries::hovered, this, [this, series](const QPointF &point, bool state) {
            if (!state) {
                QToolTip::hideText();
                return;
            }
            const int i = nearestPointIndex(chart(), series, point);
            QToolTip::showText(QCursor::pos(), pointToolTip(series, i), this);
        });
        connect(series, &QXYSeries::clicked, this, [this, series](const QPointF &point) {
            const ChartPointRef ref = pointRef(series, nearestPointIndex(chart(), series, point));
            if (ref.isValid())
                Q_EMIT pointClicked(ref);
        });
    }
    // The SLO search's ring says its sentence on hover (metrics/SloSearch.h); the chart's tooltip
    // lists every server's, since the rings are not in the legend.
    QStringList sentences;
    for (QXYSeries *ring : sloMarkers(newChart)) {
        sentences.append(displaySafe(sloSentenceOf(ring), DisplayLines::Single));
        connect(ring, &QXYSeries::hovered, this, [this, ring](const QPointF &, bool state) {
            if (state)
                QToolTip::showText(QCursor::pos(), displaySafe(sloSentenceOf(ring), DisplayLines::Single), this);
            else
                QToolTip::hideText();
        });
    }
    setToolTip(sentences.join(QLatin1Char('\n')));
    highlightCell(newChart, m_highlight);
    // Qt 6.4's scatter item redraws its markers after a geometry change (window resize) without
    // the selection and per-point size: the highlight vanished. Re-apply it whenever the plot area moves.
    connect(newChart, &QChart::plotAreaChanged, this, [this] {
        highlightCell(chart(), m_highlight);
        fitTitles();
        hoverAt(m_mouse); // the points moved under the mouse (axis labels of a new width)
    });
    fitTitles();
    // Empty Results/Compare used to show blank 0–1.5 axes. Say what to do instead.
    const bool empty = hasNothingToPlot(newChart);
    for (QAbstractAxis *axis : newChart->axes())
        axis->setVisible(!empty);
    m_emptyLabel->setVisible(empty);
    hoverAt(m_mouse); // a refresh under a still mouse keeps the read-out
}

void InteractiveChartView::changeEvent(QEvent *event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyChartColors(chart(), palette());
}

void InteractiveChartView::setHighlight(ChartPointRef ref)
{
    m_highlight = ref;
    if (chart())
        highlightCell(chart(), ref);
}

bool InteractiveChartView::exportTo(const QString &path, QString *error)
{
    return saveChart(chart(), path, size(), error);
}

void InteractiveChartView::exportInteractively(const QString &suffix)
{
    const QString filter = suffix == QLatin1String("svg") ? tr("SVG image (*.svg)") : tr("PNG image (*.png)");
    QString path = QFileDialog::getSaveFileName(this, tr("Export chart"),
                                                QDir::home().filePath(m_exportName + QLatin1Char('.') + suffix), filter);
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1Char('.') + suffix, Qt::CaseInsensitive))
        path += QLatin1Char('.') + suffix;
    QString error;
    if (!exportTo(path, &error))
        QMessageBox::warning(this, tr("Export chart"), tr("Could not export the chart: %1").arg(error));
}

void InteractiveChartView::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu menu(this);
    QAction *reset = menu.addAction(tr("Reset zoom"), this, &InteractiveChartView::resetZoom);
    reset->setEnabled(isZoomed());
    if (m_logAvailable) {
        QAction *log = menu.addAction(tr("Log scale"));
        log->setCheckable(true);
        log->setChecked(m_log);
        connect(log, &QAction::toggled, this, [this](bool on) {
            m_log = on;
            Q_EMIT logScaleToggled(on);
        });
    }
    menu.addSeparator();
    menu.addAction(tr("Export as PNG…"), this, [this] { exportInteractively(QStringLiteral("png")); });
    menu.addAction(tr("Export as SVG…"), this, [this] { exportInteractively(QStringLiteral("svg")); });
    menu.exec(event->globalPos());
}

QPointF InteractiveChartView::toChart(QPointF viewPos) const
{
    return chart()->mapFromScene(mapToScene(viewPos.toPoint()));
}

void InteractiveChartView::zoomed()
{
    const bool was = isZoomed();
    m_zoom = chartRanges(chart());
    highlightCell(chart(), m_highlight); // new ranges redraw the markers like a resize does
    m_resetButton->show();
    if (!was)
        Q_EMIT zoomChanged(true);
    hoverAt(m_mouse);
}

void InteractiveChartView::resetZoom()
{
    if (chart())
        applyRanges(chart(), m_home);
    if (chart())
        highlightCell(chart(), m_highlight);
    m_resetButton->hide();
    if (m_zoom) {
        m_zoom.reset();
        Q_EMIT zoomChanged(false);
    }
    hoverAt(m_mouse);
}

void InteractiveChartView::wheelEvent(QWheelEvent *event)
{
    if (!chart() || event->angleDelta().y() == 0) {
        QChartView::wheelEvent(event);
        return;
    }
    const QPointF at = toChart(event->position());
    const QRectF plot = chart()->plotArea();
    // Over the x axis (below the plot) only x zooms, left of it only y; inside, both.
    Qt::Orientations which = Qt::Horizontal | Qt::Vertical;
    if (at.y() > plot.bottom() && at.x() >= plot.left())
        which = Qt::Horizontal;
    else if (at.x() < plot.left() && at.y() <= plot.bottom())
        which = Qt::Vertical;
    const double factor = std::pow(kZoomPerNotch, event->angleDelta().y() / 120.0);
    if (zoomAround(chart(), at, factor, which))
        zoomed();
    event->accept();
}

void InteractiveChartView::mousePressEvent(QMouseEvent *event)
{
    if (chart() && (event->button() == Qt::MiddleButton || (event->button() == Qt::LeftButton && event->modifiers() & Qt::ShiftModifier))) {
        m_drag = Drag::Pan;
        m_lastPos = event->position();
        viewport()->setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    QChartView::mousePressEvent(event); // a click on a point reaches its series
    if (event->button() == Qt::LeftButton) {
        m_drag = Drag::Pressed; // may become a rubber band
        m_pressPos = event->position().toPoint();
        event->accept();
    }
}

void InteractiveChartView::mouseMoveEvent(QMouseEvent *event)
{
    m_mouse = event->position();
    if (m_drag == Drag::Pan) {
        panBy(chart(), event->position() - m_lastPos);
        m_lastPos = event->position();
        zoomed();
        event->accept();
        return;
    }
    if (m_drag == Drag::Pressed && (event->position().toPoint() - m_pressPos).manhattanLength() >= QApplication::startDragDistance())
        m_drag = Drag::RubberBand;
    if (m_drag == Drag::RubberBand) {
        m_rubberBand->setGeometry(QRect(m_pressPos, event->position().toPoint()).normalized());
        m_rubberBand->show();
    }
    hoverAt(m_mouse);
    QChartView::mouseMoveEvent(event);
}

void InteractiveChartView::mouseReleaseEvent(QMouseEvent *event)
{
    const Drag drag = m_drag;
    m_drag = Drag::None;
    if (drag == Drag::Pan) {
        viewport()->unsetCursor();
        event->accept();
        return;
    }
    if (drag == Drag::RubberBand) {
        m_rubberBand->hide();
        const QRectF rect(toChart(m_pressPos), toChart(event->position()));
        if (chart() && zoomToRect(chart(), rect))
            zoomed();
    }
    QChartView::mouseReleaseEvent(event);
}

void InteractiveChartView::mouseDoubleClickEvent(QMouseEvent *event)
{
    QChartView::mouseDoubleClickEvent(event);
    if (event->button() == Qt::LeftButton) {
        resetZoom();
        event->accept();
    }
}

void InteractiveChartView::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_0 || event->key() == Qt::Key_Home) {
        resetZoom();
        event->accept();
        return;
    }
    QChartView::keyPressEvent(event);
}

void InteractiveChartView::leaveEvent(QEvent *event)
{
    m_mouse.reset();
    hoverAt(std::nullopt);
    QChartView::leaveEvent(event);
}

void InteractiveChartView::resizeEvent(QResizeEvent *event)
{
    QChartView::resizeEvent(event);
    m_resetButton->adjustSize();
    m_resetButton->move(viewport()->width() - m_resetButton->width() - 8, 8);
    m_emptyLabel->setGeometry(viewport()->rect().adjusted(24, 24, -24, -24));
}

void InteractiveChartView::hoverAt(std::optional<QPointF> viewPos)
{
    if (!m_hover || !chart())
        return;
    if (!viewPos || m_drag != Drag::None) {
        m_hover->setMouse(std::nullopt, {});
        if (auto *labels = PointLabelLayer::of(chart()))
            labels->setFocusSeries(nullptr);
        return;
    }
    const QPointF at = toChart(*viewPos);
    const Readout r = readoutAt(chart(), at);
    m_hover->setMouse(chart()->plotArea().contains(at) ? std::optional<QPointF>(at) : std::nullopt, r);
    // Hovering a series shows all its point labels, even those the declutter dropped.
    if (auto *labels = PointLabelLayer::of(chart()))
        labels->setFocusSeries(r.series);
}

QString InteractiveChartView::readoutText() const
{
    return m_hover && m_hover->mouse() ? m_hover->readout().text : QString();
}

void InteractiveChartView::fitTitles()
{
    if (chart())
        fitChartTitles(chart());
}

} // namespace sb::ui
