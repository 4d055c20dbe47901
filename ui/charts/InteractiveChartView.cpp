#include "charts/InteractiveChartView.h"
#include "charts/ChartColors.h"
#include "charts/ChartExport.h"
#include <QContextMenuEvent>
#include <QCursor>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QToolTip>
#include <QXYSeries>

namespace sb::ui {

InteractiveChartView::InteractiveChartView(QWidget *parent)
    : QChartView(parent)
{
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(320, 240);
}

void InteractiveChartView::replaceChart(QChart *newChart)
{
    QChart *old = chart();
    setChart(newChart); // QChartView does not delete the previous chart
    if (old != newChart)
        delete old;
    applyChartColors(newChart, palette());
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
    highlightCell(newChart, m_highlight);
    // Qt 6.4's scatter item redraws its markers after a geometry change (window resize) without
    // the selection and per-point size: the highlight vanished. Re-apply it whenever the plot area moves.
    connect(newChart, &QChart::plotAreaChanged, this, [this] { highlightCell(chart(), m_highlight); });
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
    menu.addAction(tr("Export as PNG…"), this, [this] { exportInteractively(QStringLiteral("png")); });
    menu.addAction(tr("Export as SVG…"), this, [this] { exportInteractively(QStringLiteral("svg")); });
    menu.exec(event->globalPos());
}

} // namespace sb::ui
