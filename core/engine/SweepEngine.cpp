#include "engine/SweepEngine.h"
#include "engine/SweepEngineWorker.h"

namespace sb {

SweepEngine::SweepEngine(const SweepSpec &spec, const RunOptions &options, QObject *parent)
    : QObject(parent), m_worker(std::make_unique<SweepEngineWorker>(this, spec, options))
{
    qRegisterMetaType<sb::ProgressSnapshot>();
    qRegisterMetaType<sb::HookOutcome>();
    qRegisterMetaType<sb::CellResult>();
}

SweepEngine::~SweepEngine()
{
    m_worker->cancel();
    m_worker->wait();
}

void SweepEngine::start()
{
    if (!m_worker->isRunning() && !m_worker->isFinished())
        m_worker->start();
}

void SweepEngine::cancel()
{
    m_worker->cancel();
}

bool SweepEngine::isRunning() const
{
    return m_worker->isRunning();
}

SweepResults SweepEngine::results() const
{
    return m_worker->snapshot();
}

QString SweepEngine::failureMessage() const
{
    return m_worker->failureMessage();
}

void SweepEngine::log(const QString &line)
{
    Q_EMIT logMessage(m_worker->secrets().scrub(line), QPrivateSignal());
}

QString SweepEngine::outDir() const
{
    return m_worker->outDir();
}

} // namespace sb
