#pragma once
// Paints one server of the designer's servers list: its name, and beneath it "flavor · target ·
// model" elided to the pane's width; a server with validation errors gets a red bar and mark
// (the messages are the row's tooltip). Rows are edited in the form beside the list, never inline.
#include <QStyledItemDelegate>

namespace sb::ui {

class ServerListDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace sb::ui
