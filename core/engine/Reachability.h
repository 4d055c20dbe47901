#pragma once
// A server that stopped answering mid-sweep (killed, crashed, network gone) must not cost every
// later cell its whole hook retry budget and request timeout. After a cell whose hooks could not
// reach an origin, or whose every request failed to connect or timed out, the origin is marked
// down; before each later cell of that server a single TCP connect (2 s) decides: still down ->
// the cell fails at once, naming when and why the server went away; answering again -> the cell
// runs as usual (a restarted server is measured). Before an origin's first cell the same connect
// runs once: a server that is not there at all fails its cell at once, not after a reset's whole
// retry budget (55 s of "Connection refused" at the default 60 s).
#include "hooks/HookRunner.h"
#include "results/Results.h"
#include <QHash>
#include <QSet>

namespace sb {

class ServerReachability
{
public:
    void noteCell(const CellResult &cell, const QList<HookTarget> &targets);
    // Empty when cell `cellIndex` may run; otherwise why it fails without being tried.
    QString blockReason(const QList<HookTarget> &targets, int cellIndex);
    // One TCP connect to scheme://host:port; empty on success, else the socket's error.
    static QString probe(const QString &origin, int timeoutMs = kProbeTimeoutMs);
    // A loopback peer answers a connect in microseconds, a LAN one in milliseconds.
    static constexpr int kProbeTimeoutMs = 2000;

private:
    QHash<QString, QString> m_down; // origin -> since when and why ("it stopped answering in cell N: …")
    QSet<QString> m_answered;       // origins that accepted a connect in this run
};

} // namespace sb
