#include "results/TableCsv.h"
#include "report/CsvField.h"
#include "results/ResultsTableModel.h"
#include <QAbstractItemModel>

namespace sb::ui {

QString tableToCsv(const QAbstractItemModel *model, const QList<int> &rows)
{
    QList<int> order = rows;
    if (order.isEmpty())
        for (int r = 0; r < model->rowCount(); ++r)
            order.append(r);
    const int cols = model->columnCount();
    QString out;
    QStringList fields;
    for (int c = 0; c < cols; ++c)
        fields << csvField(model->headerData(c, Qt::Horizontal).toString());
    out += fields.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    for (int r : order) {
        fields.clear();
        for (int c = 0; c < cols; ++c) {
            const QModelIndex idx = model->index(r, c);
            QVariant v = model->data(idx, ResultsTableModel::CsvRole);
            if (!v.isValid())
                v = model->data(idx, Qt::DisplayRole);
            // Doubles via QVariant::toString keep full precision in the C locale; text gets the
            // same formula guard as results.csv (server names come from specs).
            fields << csvField(v.toString());
        }
        out += fields.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    }
    return out;
}

} // namespace sb::ui
