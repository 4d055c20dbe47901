#pragma once
// A one-line label that elides its text ("…") to the width it is given instead of widening its
// parent (the status bar's sweep estimate at 1024 px), with the whole text as its tooltip.
#include <QLabel>

namespace sb::ui {

class ElidedLabel : public QLabel
{
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget *parent = nullptr);
    void setFullText(const QString &text);
    const QString &fullText() const { return m_full; }
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void elide();
    QString m_full;
};

} // namespace sb::ui
