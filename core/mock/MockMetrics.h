#pragma once
// The mock's /metrics (docs/server-metrics.md): each personality answers with its server's
// metric names, types and semantics, driven by the mock's real scheduler and prefix cache — vLLM
// and SGLang in the Prometheus text format, llama-server too but only when started with
// --metrics (else 501, as the real one), trtllm-serve as a JSON array of iteration stats.
// Lives in the server thread, like the scheduler it reads.
#include "mock/MockServer.h"
#include <QByteArray>
#include <array>

namespace sb {

class MockScheduler;

class MockMetrics
{
public:
    // TTFT histogram buckets (seconds), vLLM's lower ones.
    static constexpr std::array<double, 12> kTtftBuckets = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 1.0, 2.5};

    void onPrefill(int promptTokens, int cachedTokens);
    void onToken() { ++m_generated; }
    void onFirstToken(double ttftS);

    // Status and body of a GET /metrics.
    int answer(const MockConfig &cfg, const MockScheduler &scheduler, QByteArray *contentType, QByteArray *body);

private:
    double m_promptTokens = 0;   // all prompt tokens prefilled
    double m_cachedTokens = 0;   // of them served by a cache
    double m_generated = 0;
    double m_requests = 0;
    std::array<double, kTtftBuckets.size()> m_ttftBuckets{}; // non-cumulative counts per bucket
    double m_ttftCount = 0, m_ttftSum = 0;
    // llama-server's *_seconds gauges are throughput since the previous read, reset by each read.
    double m_promptAtRead = 0, m_generatedAtRead = 0;
    qint64 m_lastReadNs = 0;
};

} // namespace sb
