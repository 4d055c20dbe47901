#include "results/TableCsv.h"
#include "results/ResultsTableModel.h"
#include <QAbstractItemModel>

namespace sb {

QString csvField(const QString &s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n'))
        && !s.contains(QLatin1Char('\r')))
        return s;
    QString q = s;
    q.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

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
            // Doubles via QVariant::toString keep full precision in the C locale.
            fields << csvField(v.toString());
        }
        out += fields.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    }
    return out;
}

} // namespace sb
