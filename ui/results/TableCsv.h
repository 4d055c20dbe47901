#pragma once
// Table to CSV (RFC 4180) for the clipboard: headers + the given rows, unformatted values from
// ResultsTableModel::CsvRole when the model provides them (full precision), else DisplayRole.
// Fields are escaped by core/report/CsvField.h, the one escaper for every CSV.
#include <QList>
#include <QString>

QT_BEGIN_NAMESPACE
class QAbstractItemModel;
QT_END_NAMESPACE

namespace sb::ui {

// rows: source rows of `model` in output order; empty = all rows.
QString tableToCsv(const QAbstractItemModel *model, const QList<int> &rows = {});

} // namespace sb::ui
