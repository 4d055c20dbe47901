#include "charts/ChartExport.h"
#include "io/DurableWrite.h"
#include <QBuffer>
#include <QChart>
#include <QLegend>
#include <QXYSeries>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <QGraphicsLayout>
#include <memory>

namespace sb::ui {

namespace {
// Renders the chart item alone (not the rest of the scene) into the painter at `size`.
void renderChart(QChart *chart, QPainter *painter, QSize size)
{
    QGraphicsScene *scene = chart->scene();
    std::unique_ptr<QGraphicsScene> own;
    if (!scene) {
        // A chart that was never shown (report export) needs a scene to lay out and paint.
        own = std::make_unique<QGraphicsScene>();
        own->addItem(chart);
        scene = own.get();
    }
    const QRectF oldGeometry = chart->geometry();
    const QPointF oldPos = chart->pos();
    const auto oldAnimation = chart->animationOptions();
    chart->setAnimationOptions(QChart::NoAnimation); // animated charts export as an empty plot
    chart->setGeometry(QRectF(QPointF(0, 0), QSizeF(size)));
    // QChart lays out on the LayoutRequest event; activate it now so axes and plot area are final.
    if (chart->layout())
        chart->layout()->activate();
    scene->render(painter, QRectF(QPointF(0, 0), QSizeF(size)), chart->sceneBoundingRect());
    if (own) {
        own->removeItem(chart); // the caller keeps owning the chart
    } else {
        chart->setGeometry(oldGeometry);
        chart->setPos(oldPos);
        if (chart->layout())
            chart->layout()->activate();
    }
    chart->setAnimationOptions(oldAnimation);
}
} // namespace

void styleChartForDocument(QChart *chart)
{
    const auto font = [](int px, bool bold) {
        QFont f(QStringLiteral("sans-serif"));
        f.setStyleHint(QFont::SansSerif);
        f.setPixelSize(px);
        f.setBold(bold);
        return f;
    };
    chart->setTitleFont(font(18, true));
    for (QAbstractAxis *axis : chart->axes()) {
        axis->setLabelsFont(font(kDocumentChartMinPixelSize, false));
        axis->setTitleFont(font(15, true));
    }
    if (QLegend *legend = chart->legend())
        legend->setFont(font(14, false));
    for (QAbstractSeries *s : chart->series())
        if (auto *xy = qobject_cast<QXYSeries *>(s))
            xy->setPointLabelsFont(font(kDocumentChartMinPixelSize, false));
    // The labels the charts draw themselves (charts/PointLabelLayer) take 80 % of the chart's font.
    chart->setFont(font(17, false));
}

bool saveChart(QChart *chart, const QString &path, QSize size, QString *error)
{
    auto fail = [&](const QString &msg) {
        if (error)
            *error = msg;
        return false;
    };
    if (!chart)
        return fail(QStringLiteral("no chart"));
    if (size.isEmpty())
        return fail(QStringLiteral("empty size"));
    const QString suffix = QFileInfo(path).suffix().toLower();
    // Rendered in memory first, then written with every write, the fsync and the rename checked
    // (io/DurableWrite.h): a full disk is reported with its reason and never leaves half a file.
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(chart->title());
        svg.setDescription(QStringLiteral("SweepBench chart"));
        QPainter painter;
        if (!painter.begin(&svg))
            return fail(QStringLiteral("cannot render %1").arg(path));
        renderChart(chart, &painter, size);
        if (!painter.end() || bytes.isEmpty())
            return fail(QStringLiteral("cannot render %1").arg(path));
    } else {
        // Raster: exactly `size` pixels, so callers control the file's resolution.
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            painter.setRenderHint(QPainter::TextAntialiasing);
            renderChart(chart, &painter, size);
        }
        if (!image.save(&buffer, suffix.toLatin1().constData()))
            return fail(QStringLiteral("cannot write %1 (unknown image format \"%2\"?)").arg(path, suffix));
    }
    buffer.close();
    QString why;
    if (!writeFileAtomically(path, bytes, &why))
        return fail(why);
    return true;
}

} // namespace sb::ui
