#include "engine/Reachability.h"
#include "load/RequestRecord.h"
#include <QNetworkProxy>
#include <QTcpSocket>
#include <QUrl>

namespace sb {

void ServerReachability::noteCell(const CellResult &cell, const QList<HookTarget> &targets)
{
    for (const HookOutcome &o : cell.hooks)
        if (!o.ok && o.status == 0 && (o.verdict == HookVerdict::Error || o.verdict == HookVerdict::Timeout))
            m_down.insert(o.origin, QStringLiteral("it stopped answering in cell %1: %2 %3").arg(cell.index).arg(hookKindName(o.hook), o.message));
    // Measured, and not one request got through: the whole server went away.
    const int unreachable = cell.errors.value(errorKey(ErrorKind::Connection, 0)) + cell.errors.value(errorKey(ErrorKind::Timeout, 0));
    if (hasMeasurements(cell.status) || cell.completed > 0 || cell.failed == 0 || unreachable < cell.failed)
        return;
    for (const HookTarget &t : targets)
        m_down.insert(t.origin, QStringLiteral("it stopped answering in cell %1: %2").arg(cell.index).arg(cell.reason));
}

QString ServerReachability::blockReason(const QList<HookTarget> &targets, int cellIndex)
{
    for (const HookTarget &t : targets) {
        const auto it = m_down.constFind(t.origin);
        if (it == m_down.cend() && m_answered.contains(t.origin))
            continue; // answered before and not known to be down: the cell finds out itself
        const QString error = probe(t.origin);
        if (error.isEmpty()) {
            m_down.remove(t.origin); // it came back (or is there from the start): measure it
            m_answered.insert(t.origin);
            continue;
        }
        if (it != m_down.cend())
            return QStringLiteral("server unreachable at %1 (%2); %3").arg(t.origin, error, it.value());
        m_down.insert(t.origin, QStringLiteral("it has not answered since cell %1, its first").arg(cellIndex));
        return QStringLiteral("server unreachable at %1 (%2) before its first cell: nothing was sent; start the server or check its URL")
            .arg(t.origin, error);
    }
    return {};
}

QString ServerReachability::probe(const QString &origin, int timeoutMs)
{
    const QUrl u(origin);
    QTcpSocket socket;
    socket.setProxy(QNetworkProxy::NoProxy);
    socket.connectToHost(u.host(), quint16(u.port(u.scheme() == QLatin1String("https") ? 443 : 80)));
    if (socket.waitForConnected(timeoutMs)) {
        socket.abort();
        return {};
    }
    return socket.errorString();
}

} // namespace sb
