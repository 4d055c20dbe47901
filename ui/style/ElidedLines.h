#pragma once
// A plain-text label of a few lines, each elided ("…") to the width it is given instead of
// wrapping, and at most `maxLines` of them, the last saying how many more there are. Every line,
// whole, is in its tooltip. For notes under charts (one sentence per server and set) that would
// otherwise wrap into a dozen lines and take the charts' height at 1024×700.
#include <QLabel>
#include <QStringList>

namespace sb::ui {

class ElidedLines : public QLabel
{
    Q_OBJECT
public:
    explicit ElidedLines(int maxLines, QWidget *parent = nullptr);
    void setLines(const QStringList &lines);
    const QStringList &lines() const { return m_lines; }
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void elide();
    QStringList m_lines;
    int m_maxLines;
};

} // namespace sb::ui
