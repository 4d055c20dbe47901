#include "charts/ChartExport.h"
#include <QChart>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <QGraphicsLayout>
#include <memory>

namespace sb {

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
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(chart->title());
        svg.setDescription(QStringLiteral("SweepBench chart"));
        QPainter painter;
        if (!painter.begin(&svg))
            return fail(QStringLiteral("cannot write %1").arg(path));
        renderChart(chart, &painter, size);
        if (!painter.end())
            return fail(QStringLiteral("cannot write %1").arg(path));
        if (QFileInfo(path).size() <= 0)
            return fail(QStringLiteral("cannot write %1").arg(path));
        return true;
    }
    // Raster: exactly `size` pixels, so callers control the file's resolution.
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        renderChart(chart, &painter, size);
    }
    if (!image.save(path))
        return fail(QStringLiteral("cannot write %1 (unknown image format \"%2\"?)").arg(path, suffix));
    return true;
}

} // namespace sb
