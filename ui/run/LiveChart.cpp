#include "run/LiveChart.h"
#include "charts/ChartColors.h"
#include <QApplication>
#include <QChart>
#include <QEvent>
#include <QLineSeries>
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
    chart->addSeries(m_tokensSeries);
    chart->addSeries(m_inFlightSeries);
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

void LiveChart::flush()
{
    if (!m_dirty)
        return;
    m_dirty = false;
    m_tokensSeries->replace(m_tokens);
    m_inFlightSeries->replace(m_inFlight);
    const double lastX = m_tokens.isEmpty() ? 10 : m_tokens.last().x();
    m_x->setRange(0, std::max(10.0, lastX));
    m_yTokens->setRange(0, std::max(10.0, m_maxTokens * 1.1));
    m_yInFlight->setRange(0, std::max(4.0, m_maxInFlight * 1.1));
    // Round tick values ("0, 250, 500") instead of "0, 0, 1, 1" on small ranges.
    m_x->applyNiceNumbers();
    m_yTokens->applyNiceNumbers();
    m_yInFlight->applyNiceNumbers();
}

void LiveChart::clear()
{
    m_tokens.clear();
    m_inFlight.clear();
    m_maxTokens = m_maxInFlight = 0;
    m_dirty = true;
    flush();
}

} // namespace sb::ui
