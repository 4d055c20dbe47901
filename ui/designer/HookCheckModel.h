#pragma once
// Verdicts of the "Check hooks" preflight, one row per server: does it answer, does it serve the
// model, then reset, profiler start and stop, and whether its GPU telemetry answered (✓ ✗ ⚠ icons
// with status, latency and attempts in the tooltip) and the hints for failures.
#include "results/Results.h"
#include <QAbstractTableModel>

namespace sb::ui {

class HookCheckModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Server, Reachable, Model, Reset, ProfilerStart, ProfilerStop, Telemetry, Advice, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;

    // Starts a check: one pending row per server (bulk reset). `enabled[i]` = which hooks are on.
    struct Row {
        QString server;
        bool resetOn = false, profilerOn = false;
        bool checked = false;
        QList<HookOutcome> outcomes;
        QStringList hints;
        bool reached = false;      // the reachability / model answers arrived
        QList<HookOutcome> checks; // reachability and model_list outcomes
        QStringList checkHints;
        // Some telemetry source (an exporter, nvidia-smi) is configured for this server; its
        // outcomes arrive with the reachability ones.
        bool telemetryOn = false;
    };
    void begin(const QList<Row> &rows);
    void setServerChecked(const QString &server, const QList<HookOutcome> &outcomes, const QStringList &hints);
    void setServerReached(const QString &server, const QList<HookOutcome> &checks, const QStringList &hints);
    // Drops rows of servers no longer in the design: a removed server's check says nothing now.
    void keepOnly(const QStringList &servers);
    void clear();
    const QList<Row> &rows() const { return m_rows; }
    // ok | warning | failed | pending: the worst verdict of a row, for summaries and tests.
    QString rowVerdict(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    const HookOutcome *outcome(const Row &row, HookKind hook) const; // the worst of its origins
    QList<Row> m_rows;
};

} // namespace sb::ui
