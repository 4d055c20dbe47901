#include "style/Theme.h"
#include <cmath>
#include <QApplication>
#include <QFile>
#include <QPainter>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>
#include <QSvgRenderer>

static void initSweepResources()
{
    // Q_INIT_RESOURCE must be called from the global namespace.
    Q_INIT_RESOURCE(ui);
    Q_INIT_RESOURCE(resources);
    Q_INIT_RESOURCE(docs);
}

namespace sb::ui {

namespace {
ThemeMode g_mode = ThemeMode::Light;

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31), base(0x1f, 0x21, 0x24), text(0xe6, 0xe6, 0xe6);
    const QColor disabled(0x80, 0x80, 0x80), highlight(0x3d, 0x7e, 0xd8);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x8a, 0x8f, 0x98));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, QColor(0x6c, 0xa6, 0xf0));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Mid, QColor(0x44, 0x47, 0x4d));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Light, QColor(0x3a, 0x3d, 0x42));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

QIcon svgIcon(const QString &name, const QColor &color)
{
    QFile f(QStringLiteral(":/ui/icons/%1.svg").arg(name));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QByteArray svg = f.readAll();
    svg.replace("currentColor", color.name().toLatin1());
    QSvgRenderer renderer(svg);
    QIcon icon;
    for (int size : {16, 22, 24, 32, 48}) {
        QPixmap pm(size, size);
        pm.fill(Qt::transparent);
        QPainter painter(&pm);
        renderer.render(&painter);
        painter.end();
        icon.addPixmap(pm);
    }
    return icon;
}
} // namespace

void initResources()
{
    static bool done = false;
    if (!done) {
        initSweepResources();
        done = true;
    }
}

void applyTheme(ThemeMode mode)
{
    g_mode = mode;
    // Fusion draws the same everywhere and honours custom palettes, unlike some native styles.
    if (QStyle *fusion = QStyleFactory::create(QStringLiteral("Fusion")))
        QApplication::setStyle(fusion);
    QApplication::setPalette(mode == ThemeMode::Dark ? darkPalette() : QApplication::style()->standardPalette());
}

ThemeMode currentTheme() { return g_mode; }

QIcon themedIcon(const QString &name)
{
    initResources();
    return svgIcon(name, QApplication::palette().color(QPalette::WindowText));
}

namespace {
QIcon verdictFileIcon(const QString &file)
{
    initResources();
    static QHash<QString, QIcon> cache;
    auto it = cache.find(file);
    if (it == cache.end())
        it = cache.insert(file, svgIcon(file, Qt::black));
    return *it;
}
} // namespace

QString hookSeverityIconName(HookSeverity severity)
{
    switch (severity) {
    case HookSeverity::Ok: return QStringLiteral("verdict-ok");
    case HookSeverity::Retried: return QStringLiteral("verdict-retried");
    case HookSeverity::Warning: return QStringLiteral("verdict-warn");
    case HookSeverity::Failed: break;
    }
    return QStringLiteral("verdict-fail");
}

QIcon hookSeverityIcon(HookSeverity severity)
{
    return verdictFileIcon(hookSeverityIconName(severity));
}

QIcon hookPendingIcon() { return verdictFileIcon(QStringLiteral("verdict-pending")); }
QIcon hookSkippedIcon() { return verdictFileIcon(QStringLiteral("verdict-skip")); }

QColor hookSeverityColor(HookSeverity severity)
{
    // Darker than the icons' fills: these colour text on the pane's background.
    switch (severity) {
    case HookSeverity::Ok: return QColor(0x1a, 0x7f, 0x37);
    case HookSeverity::Retried:
    case HookSeverity::Warning: return QColor(0x8a, 0x61, 0x00);
    case HookSeverity::Failed: break;
    }
    return QColor(0xcf, 0x22, 0x2e);
}

QColor cellStatusColor(CellStatus status)
{
    switch (status) {
    case CellStatus::Failed: return QColor(0xcf, 0x22, 0x2e);
    case CellStatus::Degraded: return QColor(0xb2, 0x6a, 0x00);
    case CellStatus::Cancelled:
    case CellStatus::Skipped: return QColor(0x80, 0x80, 0x80);
    case CellStatus::Completed:
    case CellStatus::Pending: break;
    }
    return {};
}

double contrastRatio(const QColor &a, const QColor &b)
{
    auto luminance = [](const QColor &c) {
        auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor linkColor(const QPalette &palette)
{
    const QColor background = palette.color(QPalette::Window);
    QColor link = palette.color(QPalette::Link);
    // Move the link's lightness away from the background until it reads (a few steps at most).
    const bool darkBackground = background.lightnessF() < 0.5;
    for (int i = 0; i < 10 && contrastRatio(link, background) < 4.5; ++i)
        link = darkBackground ? link.lighter(125) : link.darker(125);
    return link;
}

QString linkHtml(const QString &href, const QString &text, const QPalette &palette)
{
    return QStringLiteral("<a href=\"%1\" style=\"color:%2\">%3</a>")
        .arg(href.toHtmlEscaped(), linkColor(palette).name(), text.toHtmlEscaped());
}

} // namespace sb::ui
