#pragma once
// A scroll area for a form that reflows to its width and scrolls only vertically: never narrower
// than the form's narrowest layout plus a vertical scrollbar, so a splitter or window that
// shrinks it stops there instead of cutting fields off ("Fill preset" -> "Fill", hidden spin
// arrows) or adding a second, horizontal scrollbar. The minimum is asked of
// the form each time, so it follows font and style changes.
#include <QScrollArea>

namespace sb::ui {

class FormScrollArea : public QScrollArea
{
    Q_OBJECT
public:
    explicit FormScrollArea(QWidget *form, QWidget *parent = nullptr);
    QSize minimumSizeHint() const override;
};

} // namespace sb::ui
