#include "load/IoWorker.h"
#include "load/HttpConnection.h"
#include "load/IoReactor.h"

namespace sb {

IoWorker::~IoWorker()
{
    qDeleteAll(m_connections); // before the reactor their sockets are registered with
}

void IoWorker::startPhase(std::shared_ptr<PhaseState> state, int firstConnection, int connections)
{
    m_state = std::move(state);
    WorkerData *data = m_state->workers[std::size_t(m_index)].get();
    if (!m_reactor)
        m_reactor = std::make_unique<IoReactor>();
    if (!m_runDelay)
        m_runDelay = std::make_unique<ThreadRunDelay>();
    data->cpuStartS = threadCpuSeconds();
    data->waitStartS = m_runDelay->seconds();
    data->wallStartNs = steadyNowNs();
    data->records.reserve(std::size_t(m_state->config.requests > 0 ? m_state->config.requests / std::max<std::size_t>(1, m_state->workers.size()) + 16 : 1024));
    for (int i = 0; i < connections; ++i) {
        const int target = (firstConnection + i) % int(m_state->config.targets.size());
        auto *c = new HttpConnection(m_state, data, target, m_reactor.get(), this);
        m_connections.append(c);
    }
    for (const auto &c : std::as_const(m_connections))
        if (c)
            c->start();
}

void IoWorker::cancelPhase()
{
    for (const auto &c : std::as_const(m_connections))
        if (c)
            c->abortForCancel();
}

void IoWorker::endPhase()
{
    if (m_state) {
        WorkerData *data = m_state->workers[std::size_t(m_index)].get();
        data->cpuEndS = threadCpuSeconds();
        data->waitEndS = m_runDelay->seconds();
        data->wallEndNs = steadyNowNs();
        m_state->writeRecords(data->jsonl);
    }
    qDeleteAll(m_connections);
    m_connections.clear();
    m_state.reset();
}

} // namespace sb
