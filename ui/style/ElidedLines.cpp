#include "style/ElidedLines.h"
#include <QResizeEvent>
#include <algorithm>

namespace sb::ui {

ElidedLines::ElidedLines(int maxLines, QWidget *parent)
    : QLabel(parent)
    , m_maxLines(std::max(1, maxLines))
{
    setTextFormat(Qt::PlainText); // server and set names are never markup
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

void ElidedLines::setLines(const QStringList &lines)
{
    m_lines = lines;
    setToolTip(lines.join(QLatin1Char('\n')));
    updateGeometry();
    elide();
}

QSize ElidedLines::minimumSizeHint() const
{
    return sizeHint();
}

QSize ElidedLines::sizeHint() const
{
    const int shown = std::min(int(m_lines.size()), m_maxLines);
    const QMargins m = contentsMargins();
    return {fontMetrics().horizontalAdvance(QStringLiteral("…")) * 4 + m.left() + m.right(),
            shown * fontMetrics().lineSpacing() + m.top() + m.bottom()};
}

void ElidedLines::resizeEvent(QResizeEvent *event)
{
    QLabel::resizeEvent(event);
    elide();
}

void ElidedLines::elide()
{
    const int width = std::max(0, contentsRect().width());
    QStringList shown;
    const bool more = m_lines.size() > m_maxLines;
    const int whole = more ? m_maxLines - 1 : int(m_lines.size());
    for (int i = 0; i < whole; ++i)
        shown << fontMetrics().elidedText(m_lines.at(i), Qt::ElideRight, width);
    if (more)
        shown << fontMetrics().elidedText(tr("… and %n more (hover to read them all)", nullptr, int(m_lines.size()) - whole),
                                          Qt::ElideRight, width);
    setText(shown.join(QLatin1Char('\n')));
}

} // namespace sb::ui
