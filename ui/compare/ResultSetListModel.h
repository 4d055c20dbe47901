#pragma once
// The result sets open in Compare: editable legend name, a style swatch (dash + marker of the
// set) as decoration, origin and counts as tooltip. Each set keeps the style index it was given,
// so removing one set does not restyle the others.
#include "report/ResultsLoader.h"
#include <QAbstractListModel>

namespace sb::ui {

struct ChartSeriesInput;

class ResultSetListModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role { PathRole = Qt::UserRole + 1, StyleIndexRole };

    explicit ResultSetListModel(QObject *parent = nullptr);

    void add(const LoadedResults &loaded, const QString &path);
    void remove(int row);
    void clear();
    QList<ChartSeriesInput> chartInputs() const;
    const LoadedResults &loadedAt(int row) const { return m_sets.at(row).loaded; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

private:
    struct Set {
        LoadedResults loaded;
        QString path;
        QString name;
        int styleIndex = 0;
    };
    int freeStyleIndex() const;
    QList<Set> m_sets;
};

} // namespace sb::ui
