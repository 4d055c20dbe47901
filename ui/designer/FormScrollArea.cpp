#include "designer/FormScrollArea.h"
#include <QScrollBar>
#include <QStyle>

namespace sb::ui {

FormScrollArea::FormScrollArea(QWidget *form, QWidget *parent)
    : QScrollArea(parent)
{
    setWidget(form);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

QSize FormScrollArea::minimumSizeHint() const
{
    const QSize base = QScrollArea::minimumSizeHint();
    if (!widget())
        return base;
    const int bar = style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
    const int width = widget()->minimumSizeHint().width() + bar + 2 * frameWidth();
    return {std::max(base.width(), width), base.height()};
}

} // namespace sb::ui
