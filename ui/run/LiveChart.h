#pragma once
// A small live chart of the run: output tokens/s and requests in flight against elapsed time,
// and beside the client's in flight the server's own running and waiting requests when its
// metrics are scraped (docs/server-metrics.md).
// Points are kept in plain lists and pushed with QXYSeries::replace() once per UI tick
// (appending to a shown series point by point is quadratic, docs/ARCHITECTURE.md §9).
// Cell boundaries are dashed vertical lines labelled with the cell (server, point), painted over
// the plot; a label that would overlap the previous one is left out (the line stays).
#include <QChartView>
#include <QList>
#include <QPointF>

QT_BEGIN_NAMESPACE
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace sb::ui {

class LiveChart : public QChartView
{
    Q_OBJECT
public:
    explicit LiveChart(QWidget *parent = nullptr);
    // With cell boundaries drawn, the y axes reach this far above the highest sample: the top of
    // the plot is left to the boundary labels.
    static constexpr double kLabelHeadroom = 1.3;

    void addSample(double elapsedS, double tokensPerS, int inFlight); // buffered
    // From a metrics scrape; a negative value = the server does not publish it.
    void addServerSample(double elapsedS, double running, double waiting);
    qsizetype serverPointCount() const { return m_serverRunning.size() + m_serverWaiting.size(); }
    void flush();                                                    // one redraw
    void clear();
    qsizetype pointCount() const { return m_tokens.size(); }

    struct Boundary {
        double elapsedS = 0;
        QString label; // "vllm · c=8"
    };
    void addBoundary(double elapsedS, const QString &label); // drawn at the next flush
    const QList<Boundary> &boundaries() const { return m_boundaries; }

protected:
    void changeEvent(QEvent *event) override; // follows the palette (charts/ChartColors.h)
    void drawForeground(QPainter *painter, const QRectF &rect) override; // the boundaries

private:
    QLineSeries *m_tokensSeries = nullptr;
    QLineSeries *m_inFlightSeries = nullptr;
    QLineSeries *m_serverRunningSeries = nullptr;
    QLineSeries *m_serverWaitingSeries = nullptr;
    QValueAxis *m_x = nullptr;
    QValueAxis *m_yTokens = nullptr;
    QValueAxis *m_yInFlight = nullptr;
    QList<QPointF> m_tokens, m_inFlight, m_serverRunning, m_serverWaiting;
    QList<Boundary> m_boundaries;
    double m_maxTokens = 0, m_maxInFlight = 0;
    bool m_dirty = false;
};

} // namespace sb::ui
