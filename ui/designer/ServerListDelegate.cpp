#include "designer/ServerListDelegate.h"
#include "designer/FieldErrors.h"
#include "designer/ServerTableModel.h"
#include <QApplication>
#include <QPainter>

namespace sb::ui {

namespace {
constexpr int kPad = 4;
constexpr int kBar = 3; // the error bar's width
} // namespace

void ServerListDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear(); // the background and selection only; the text is drawn below
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const bool selected = option.state & QStyle::State_Selected;
    const QString error = index.data(ServerTableModel::RowErrorRole).toString();
    const QPalette::ColorGroup group = option.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled;
    const QColor text = option.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text);
    QColor dim = text;
    dim.setAlphaF(0.7f);

    painter->save();
    QRect r = option.rect.adjusted(kPad + kBar, kPad, -kPad, -kPad);
    if (!error.isEmpty()) {
        painter->fillRect(QRect(option.rect.left(), option.rect.top(), kBar, option.rect.height()), errorColor());
        const QString mark = QStringLiteral("✗");
        painter->setPen(selected ? text : errorColor());
        painter->drawText(r, Qt::AlignRight | Qt::AlignTop, mark);
        r.setRight(r.right() - option.fontMetrics.horizontalAdvance(mark) - kPad);
    }
    QFont bold = option.font;
    bold.setBold(true);
    const QFontMetrics boldMetrics(bold);
    painter->setFont(bold);
    painter->setPen(text);
    const QString name = index.data(Qt::DisplayRole).toString();
    painter->drawText(r, Qt::AlignLeft | Qt::AlignTop, boldMetrics.elidedText(name, Qt::ElideRight, r.width()));
    painter->setFont(option.font);
    painter->setPen(dim);
    const QRect second = r.adjusted(0, boldMetrics.height(), 0, 0);
    const QString summary = index.data(ServerTableModel::SummaryRole).toString();
    painter->drawText(second, Qt::AlignLeft | Qt::AlignTop, option.fontMetrics.elidedText(summary, Qt::ElideMiddle, second.width()));
    painter->restore();
}

QSize ServerListDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const
{
    QFont bold = option.font;
    bold.setBold(true);
    // Width is the view's; only the two lines' height matters.
    return {0, QFontMetrics(bold).height() + option.fontMetrics.height() + 2 * kPad};
}

} // namespace sb::ui
