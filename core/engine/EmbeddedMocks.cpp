#include "engine/EmbeddedMocks.h"
#include <QDir>

namespace sb {

bool EmbeddedMocks::start(const SweepSpec &spec, const std::function<QString(int)> &traceDirFor, QString *error)
{
    for (int i = 0; i < spec.servers.size(); ++i) {
        const ServerSpec &s = spec.servers[i];
        if (s.mock.isEmpty()) {
            m_urls[i] = s.urls;
            continue;
        }
        const auto flavor = flavorFromString(s.mock);
        if (!flavor) {
            *error = QStringLiteral("server %1: unknown mock personality '%2'").arg(s.name, s.mock);
            return false;
        }
        MockConfig cfg = mockDefaults(*flavor);
        cfg.metrics = true; // an embedded llamacpp mock plays llama-server started with --metrics
        cfg.reasoningTokens = s.mockReasoningTokens;
        cfg.traceDir = traceDirFor ? traceDirFor(i) : QString();
        if (!cfg.traceDir.isEmpty())
            QDir().mkpath(cfg.traceDir);
        QString err;
        auto mock = MockServer::start(cfg, &err);
        if (!mock) {
            *error = QStringLiteral("server %1: cannot start the embedded %2 mock: %3").arg(s.name, s.mock, err);
            return false;
        }
        m_urls[i] = QStringList{mock->url().toString()};
        m_mocks[i] = std::move(mock);
    }
    return true;
}

QStringList EmbeddedMocks::baseUrls(int serverIndex) const
{
    const auto it = m_urls.find(serverIndex);
    return it == m_urls.end() ? QStringList() : it->second;
}

MockServer *EmbeddedMocks::mock(int serverIndex) const
{
    const auto it = m_mocks.find(serverIndex);
    return it == m_mocks.end() ? nullptr : it->second.get();
}

} // namespace sb
