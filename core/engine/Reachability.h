#pragma once
// A server that stopped answering mid-sweep (killed, crashed, network gone) must not cost every
// later cell its whole hook retry budget and request timeout. After a cell whose hooks could not
// reach an origin, or whose every request failed to connect or timed out, the origin is marked
// down; before each later cell of that server a single TCP connect (2 s) decides: still down ->
// the cell fails at once, naming when and why the server went away; answering again -> the cell
// runs as usual (a restarted server is measured).
#include "hooks/HookRunner.h"
#include "results/Results.h"
#include <QHash>

namespace sb {

class ServerReachability
{
public:
    void noteCell(const CellResult &cell, const QList<HookTarget> &targets);
    // Empty when the cell may run; otherwise why it fails without being tried.
    QString blockReason(const QList<HookTarget> &targets);
    // One TCP connect to scheme://host:port; empty on success, else the socket's error.
    static QString probe(const QString &origin, int timeoutMs);

private:
    QHash<QString, QString> m_down; // origin -> "in cell N: reason"
};

} // namespace sb
