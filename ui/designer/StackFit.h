#pragma once
// A QStackedWidget is as tall as its tallest page, which leaves a gap under a short one (a fixed
// length under the normal distribution's four rows). Hidden pages are made vertically Ignored, so
// the stack is as tall as the page shown; widths still count every page (QStackedLayout skips an
// Ignored direction only), so switching pages never needs a wider pane.
#include <QStackedWidget>

namespace sb::ui {

inline void fitStackToCurrent(QStackedWidget *stack)
{
    for (int i = 0; i < stack->count(); ++i) {
        QWidget *page = stack->widget(i);
        page->setSizePolicy(page->sizePolicy().horizontalPolicy(),
                            i == stack->currentIndex() ? QSizePolicy::Preferred : QSizePolicy::Ignored);
    }
    stack->updateGeometry();
}

} // namespace sb::ui
