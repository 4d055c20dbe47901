#include "style/ElidedLabel.h"
#include <QResizeEvent>

namespace sb::ui {

ElidedLabel::ElidedLabel(QWidget *parent) : QLabel(parent)
{
    // Preferred: as wide as the whole text when there is room, shrinking (and eliding) when not.
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
}

void ElidedLabel::setFullText(const QString &text)
{
    m_full = text;
    setToolTip(text);
    updateGeometry();
    elide();
}

QSize ElidedLabel::minimumSizeHint() const
{
    return {fontMetrics().horizontalAdvance(QStringLiteral("…")) * 4, QLabel::minimumSizeHint().height()};
}

QSize ElidedLabel::sizeHint() const
{
    // The whole text when there is room; the layout may give less and we elide.
    return {fontMetrics().horizontalAdvance(m_full) + 2 * margin() + 4, QLabel::sizeHint().height()};
}

void ElidedLabel::resizeEvent(QResizeEvent *event)
{
    QLabel::resizeEvent(event);
    elide();
}

void ElidedLabel::elide()
{
    setText(fontMetrics().elidedText(m_full, Qt::ElideRight, std::max(0, contentsRect().width())));
}

} // namespace sb::ui
