#pragma once
// Owns the connections of one IO thread for the duration of a phase.
#include "load/IoReactor.h"
#include "load/PhaseState.h"
#include <QObject>
#include <QPointer>
#include <memory>

namespace sb {

class HttpConnection;

class IoWorker : public QObject
{
    Q_OBJECT
public:
    explicit IoWorker(int index) : m_index(index) {}
    ~IoWorker() override;
    // All three run on the worker's thread (invoked queued).
    // Opens `connections` connections numbered from `firstConnection` (the number picks the
    // target URL) and starts their closed loops.
    void startPhase(std::shared_ptr<PhaseState> state, int firstConnection, int connections);
    void cancelPhase();
    void endPhase(); // deletes the phase's connections

private:
    int m_index;
    std::shared_ptr<PhaseState> m_state;
    std::unique_ptr<IoReactor> m_reactor; // made on the worker's thread (its notifier lives there)
    std::unique_ptr<ThreadRunDelay> m_runDelay; // likewise: it reads this thread's schedstat
    QList<QPointer<HttpConnection>> m_connections;
};

} // namespace sb
