#pragma once
// The designer's servers: one row per ServerSpec. The model owns the list; the designer replaces
// it in bulk on load (beginResetModel) and edits single rows through setServer() from the server
// form. The designer shows it as a list (column Name with SummaryRole and RowErrorRole); the
// columns stay for the model's other readers and its tests.
#include "spec/SweepSpec.h"
#include <QAbstractTableModel>
#include <QHash>

namespace sb::ui {

class ServerTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Target, Model, Endpoint, Flavor, ApiKey, Hooks, ColumnCount };
    enum Role {
        SummaryRole = Qt::UserRole + 1, // "vllm · http://host:8000 · model" (any column)
        RowErrorRole,                   // every error of the row, one per line; "" = fine
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setServers(const QList<ServerSpec> &servers); // bulk reset
    const QList<ServerSpec> &servers() const { return m_servers; }
    const ServerSpec &server(int row) const { return m_servers.at(row); }
    void setServer(int row, const ServerSpec &server); // one row changed (detail editor)

    int addServer(const ServerSpec &server);  // returns the new row
    int duplicateServer(int row);             // returns the copy's row
    void removeServer(int row);

    // Validation messages per row ("" = fine); shown as a red cell and a tooltip.
    void setRowErrors(const QHash<int, QHash<int, QString>> &errors);

    // A name not used by any server yet ("server-3").
    QString uniqueName(const QString &base) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role) override;

Q_SIGNALS:
    void serversEdited(); // any change made through the model (not setServers)

private:
    QList<ServerSpec> m_servers;
    QHash<int, QHash<int, QString>> m_errors; // row -> column -> message
};

// "mock:vllm" or the URL: the text the Target column shows and accepts.
// Several URLs of one server are shown and typed as one line, separated by commas.
QString urlsText(const QStringList &urls);
QStringList urlsFromText(const QString &text);
QString targetText(const ServerSpec &s);
void setTargetText(ServerSpec &s, const QString &text);

} // namespace sb::ui
