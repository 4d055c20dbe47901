#include "run/LiveChart.h"
#include "charts/ChartColors.h"
#include "charts/ChartStyle.h"
#include <QApplication>
#include <QChart>
#include <QEvent>
#include <QLineSeries>
#include <QPainter>
#include <QValueAxis>

namespace sb::ui {

LiveChart::LiveChart(QWidget *parent)
    : QChartView(parent)
{
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignTop);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setBackgroundRoundness(0);
    m_tokensSeries = new QLineSeries;
    m_tokensSeries->setName(tr("output tokens/s"));
    m_inFlightSeries = new QLineSeries;
    m_inFlightSeries->setName(tr("requests in flight"));
    QPen dashed = m_inFlightSeries->pen();
    dashed.setStyle(Qt::DashLine);
    m_inFlightSeries->setPen(dashed);
    m_serverRunningSeries = new QLineSeries;
    m_serverRunningSeries->setName(tr("server: running"));
    m_serverWaitingSeries = new QLineSeries;
    m_serverWaitingSeries->setName(tr("server: waiting"));
    QPen dotted = m_serverRunningSeries->pen();
    dotted.setStyle(Qt::DotLine);
    dotted.setWidthF(2);
    dotted.setColor(serverColor(1));
    m_serverRunningSeries->setPen(dotted);
    dotted.setColor(serverColor(2));
    m_serverWaitingSeries->setPen(dotted);
    chart->addSeries(m_tokensSeries);
    chart->addSeries(m_inFlightSeries);
    chart->addSeries(m_serverRunningSeries);
    chart->addSeries(m_serverWaitingSeries);
    m_x = new QValueAxis;
    m_x->setTitleText(tr("elapsed (s)"));
    m_x->setLabelFormat(QStringLiteral("%.0f"));
    m_yTokens = new QValueAxis;
    m_yTokens->setTitleText(tr("tokens/s"));
    m_yTokens->setLabelFormat(QStringLiteral("%.0f"));
    m_yInFlight = new QValueAxis;
    m_yInFlight->setTitleText(tr("in flight"));
    m_yInFlight->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_yTokens, Qt::AlignLeft);
    chart->addAxis(m_yInFlight, Qt::AlignRight);
    m_tokensSeries->attachAxis(m_x);
    m_tokensSeries->attachAxis(m_yTokens);
    m_inFlightSeries->attachAxis(m_x);
    m_inFlightSeries->attachAxis(m_yInFlight);
    for (QLineSeries *s : {m_serverRunningSeries, m_serverWaitingSeries}) { // requests, like in flight
        s->attachAxis(m_x);
        s->attachAxis(m_yInFlight);
    }
    setChart(chart);
    applyChartColors(chart, palette());
    setRenderHint(QPainter::Antialiasing);
    clear();
}

void LiveChart::changeEvent(QEvent *event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyChartColors(chart(), palette());
}

void LiveChart::addSample(double elapsedS, double tokensPerS, int inFlight)
{
    m_tokens.append({elapsedS, tokensPerS});
    m_inFlight.append({elapsedS, double(inFlight)});
    m_maxTokens = std::max(m_maxTokens, tokensPerS);
    m_maxInFlight = std::max(m_maxInFlight, double(inFlight));
    m_dirty = true;
}

void LiveChart::addServerSample(double elapsedS, double running, double waiting)
{
    if (running >= 0) {
        m_serverRunning.append({elapsedS, running});
        m_maxInFlight = std::max(m_maxInFlight, running);
    }
    if (waiting >= 0) {
        m_serverWaiting.append({elapsedS, waiting});
        m_maxInFlight = std::max(m_maxInFlight, waiting);
    }
    m_dirty = true;
}

void LiveChart::addBoundary(double elapsedS, const QString &label)
{
    m_boundaries.append({elapsedS, label});
    m_dirty = true;
}

void LiveChart::drawForeground(QPainter *painter, const QRectF &rect)
{
    QChartView::drawForeground(painter, rect);
    if (m_boundaries.isEmpty())
        return;
    const QRectF plot = chart()->plotArea();
    const QColor ink = palette().color(QPalette::WindowText);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    QPen pen(ink);
    pen.setStyle(Qt::DotLine);
    painter->setPen(pen);
    const QFontMetrics fm(painter->font());
    double freeFrom = plot.left(); // labels left of this would overlap the previous one
    for (const Boundary &b : std::as_const(m_boundaries)) {
        // Series and boundaries share the x axis: map through the series (scene coordinates,
        // the same as the view's foreground while the chart fills the view).
        const double x = chart()->mapToPosition(QPointF(b.elapsedS, 0), m_tokensSeries).x();
        if (x < plot.left() - 0.5 || x > plot.right() + 0.5)
            continue;
        painter->drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        const int width = fm.horizontalAdvance(b.label);
        if (x + 3 >= freeFrom && x + 3 + width <= plot.right()) {
            // On the chart's background: legible over a grid line or a curve that reaches up.
            const QRectF box(x + 2, plot.top() + 1, width + 2, fm.height());
            painter->fillRect(box, chart()->backgroundBrush());
            painter->drawText(QPointF(x + 3, plot.top() + fm.ascent() + 1), b.label);
            freeFrom = x + 3 + width + fm.averageCharWidth();
        }
    }
    painter->restore();
}

void LiveChart::flush()
{
    if (!m_dirty)
        return;
    m_dirty = false;
    m_tokensSeries->replace(m_tokens);
    m_inFlightSeries->replace(m_inFlight);
    m_serverRunningSeries->replace(m_serverRunning);
    m_serverWaitingSeries->replace(m_serverWaiting);
    // Listed in the legend only once the server reports them.
    m_serverRunningSeries->setVisible(!m_serverRunning.isEmpty());
    m_serverWaitingSeries->setVisible(!m_serverWaiting.isEmpty());
    double lastX = m_tokens.isEmpty() ? 10 : m_tokens.last().x();
    if (!m_boundaries.isEmpty())
        lastX = std::max(lastX, m_boundaries.last().elapsedS);
    m_x->setRange(0, std::max(10.0, lastX));
    // The cell boundaries' labels run along the top of the plot: the axes leave a band above the
    // highest sample for them (a quarter of the height) so a label never sits on a curve.
    const double headroom = m_boundaries.isEmpty() ? 1.1 : kLabelHeadroom;
    m_yTokens->setRange(0, std::max(10.0, m_maxTokens * headroom));
    m_yInFlight->setRange(0, std::max(4.0, m_maxInFlight * headroom));
    // Round tick values ("0, 250, 500") instead of "0, 0, 1, 1" on small ranges.
    m_x->applyNiceNumbers();
    m_yTokens->applyNiceNumbers();
    m_yInFlight->applyNiceNumbers();
    viewport()->update(); // the boundaries are painted over the plot, not by a series
}

void LiveChart::clear()
{
    m_tokens.clear();
    m_inFlight.clear();
    m_boundaries.clear();
    m_serverRunning.clear();
    m_serverWaiting.clear();
    m_maxTokens = m_maxInFlight = 0;
    m_dirty = true;
    flush();
}

} // namespace sb::ui
