#include "designer/ServerTableDelegate.h"
#include "designer/ServerTableModel.h"
#include <QComboBox>

namespace sb::ui {

static QStringList choices(int column)
{
    switch (column) {
    case ServerTableModel::Endpoint:
        return {toString(Endpoint::Chat), toString(Endpoint::Completions)};
    case ServerTableModel::Flavor:
        return flavorNames();
    default:
        return {};
    }
}

QWidget *ServerTableDelegate::createEditor(QWidget *parent, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QStringList items = choices(index.column());
    if (items.isEmpty())
        return QStyledItemDelegate::createEditor(parent, option, index);
    auto *combo = new QComboBox(parent);
    combo->addItems(items);
    // Commit on pick, not on focus loss: a flavor change updates the hook presets at once.
    connect(combo, &QComboBox::activated, this, [this, combo] { Q_EMIT const_cast<ServerTableDelegate *>(this)->commitData(combo); });
    return combo;
}

void ServerTableDelegate::setEditorData(QWidget *editor, const QModelIndex &index) const
{
    if (auto *combo = qobject_cast<QComboBox *>(editor))
        combo->setCurrentText(index.data(Qt::EditRole).toString());
    else
        QStyledItemDelegate::setEditorData(editor, index);
}

void ServerTableDelegate::setModelData(QWidget *editor, QAbstractItemModel *model, const QModelIndex &index) const
{
    if (auto *combo = qobject_cast<QComboBox *>(editor))
        model->setData(index, combo->currentText(), Qt::EditRole);
    else
        QStyledItemDelegate::setModelData(editor, model, index);
}

} // namespace sb::ui
