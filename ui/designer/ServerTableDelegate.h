#pragma once
// Combo boxes for the enumerated columns of the servers table (endpoint, flavor), so a typo
// cannot enter the model; the other columns use the default line edit.
#include <QStyledItemDelegate>

namespace sb::ui {

class ServerTableDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    void setEditorData(QWidget *editor, const QModelIndex &index) const override;
    void setModelData(QWidget *editor, QAbstractItemModel *model, const QModelIndex &index) const override;
};

} // namespace sb::ui
