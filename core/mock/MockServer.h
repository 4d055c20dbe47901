#pragma once
// The embedded mock inference server: an OpenAI-compatible HTTP/1.1 server with a
// continuous-batching performance model and the control-route quirks of vLLM, SGLang and
// TensorRT-LLM (docs/ARCHITECTURE.md §6). It runs on its own QThread so that benchmark clients on other
// threads see it like a separate process; every accessor here is thread-safe.
#include "spec/SweepSpec.h"
#include <QByteArray>
#include <QList>
#include <QString>
#include <QThread>
#include <QUrl>
#include <QtGlobal>
#include <memory>

namespace sb {

struct MockConfig {
    Flavor flavor = Flavor::Vllm;   // Openai behaves like Vllm
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 0;               // 0 = pick a free port
    QString model = QStringLiteral("demo-model"); // listed by /v1/models; any model is accepted

    // Performance model: step cost = base + perSeq * batch + prefillPerToken * new prefill tokens.
    // The defaults here are vLLM's; use mockDefaults(flavor) for the others.
    double stepBaseMs = 4.0;
    double stepPerSeqMs = 0.12;
    double prefillPerTokenMs = 0.04;
    int maxBatch = 128;             // running sequences; the rest wait in the queue
    int maxPrefillTokens = 16384;   // new prefill tokens admitted per step (at least one sequence)
    int blockTokens = 16;           // prefix-cache block size in tokens
    int cacheBlocks = 16384;        // prefix-cache capacity in blocks (LRU)
    int defaultMaxTokens = 256;     // when a request sets neither max_tokens nor max_completion_tokens
    // A reasoning model: the first N output tokens of a chat answer are thinking, streamed as
    // delta.reasoning_content (message.reasoning_content when not streaming) before the answer's
    // content, and usage.completion_tokens_details.reasoning_tokens counts them. They are part
    // of max_tokens, as on vLLM: N >= max_tokens gives an answer that is all thinking.
    int reasoningTokens = 0;
    // Prefill tokens each image_url content part costs (a vision encoder's tokens for one image),
    // so that TTFT grows with the images a request carries.
    int imageTokens = 256;

    bool devMode = true;            // vllm: false = /reset_prefix_cache is 404 (no VLLM_SERVER_DEV_MODE)
    bool profiler = true;           // vllm: false = /start_profile, /stop_profile are 404
    QString traceDir;               // vllm trace dir; sglang/trtllm default output_dir (empty = temp)

    // llamacpp (llama-server): maxBatch is --parallel, the number of slots; each slot keeps the
    // tokens of its last prompt as its cache, and a request goes to a free slot (the one sharing
    // the longest prefix, else the least recently used), so request N+1 waits for a free slot.
    int slotContext = 4096;         // tokens per slot (-c / --parallel); a longer prompt is a 400
    bool slotSavePath = true;       // false = slot actions answer 501, as without --slot-save-path
    // Host-RAM prompt cache (--cache-ram MiB). 0: erasing the slots is a full reset. > 0: every
    // prompt also stays in a host cache that erasing the slots does not touch (cacheBlocks bound).
    int cacheRamMiB = 0;
    // GET /metrics (mock/MockMetrics). llama-server serves it only with --metrics (else 501):
    // mockDefaults(Llamacpp) turns it off, `mock-server --metrics` and embedded mocks on.
    bool metrics = true;
    // GET /dcgm/metrics (mock/MockDcgm): this many GPUs as dcgm-exporter shows them, driven by
    // the scheduler; 0 = the route answers 404. `dcgmEnergyCounter` false leaves out
    // DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION (exporters configured without it).
    int dcgmGpus = 0;
    bool dcgmEnergyCounter = true;
    QString dcgmModel = QStringLiteral("NVIDIA H100 80GB HBM3");

    // Fault injection, drawn per completion request from one generator seeded with `seed`, in
    // arrival order, so a run with the same requests in the same order fails the same way.
    double errorRate = 0;           // HTTP 500 instead of an answer
    double disconnectRate = 0;      // connection closed half way through the answer
    double malformedRate = 0;       // one broken SSE frame (invalid JSON) half way through a stream
    int stallMs = 0;                // every stream goes silent this long half way through
    int firstByteDelayMs = 0;       // every completion request is held this long before it is seen
    // Every completion request blocks the server thread this long when it is read, as a busy
    // API-server event loop would (tokenizing, say): requests sent meanwhile wait unread in the
    // kernel, and that wait is server time (MockTiming::arrivalNs is when the kernel got them).
    int loopBlockMs = 0;
    quint64 seed = 1;
};

// Per-personality defaults, chosen so that the three demo curves differ visibly while a demo
// sweep stays short: trtllm is quickest per step but saturates first (small batch), sglang has
// the cheapest batching and the largest batch, vllm sits between. llamacpp has llama-server's
// defaults as docs/spec-reference.md describes them: 8 slots, token-granular prefix matching.
MockConfig mockDefaults(Flavor flavor);

struct MockStats {
    int inFlight = 0;               // completion requests received and not yet answered
    int maxInFlight = 0;
    qint64 requests = 0;            // completion requests received
    int resetsDone = 0;             // vllm reset with success, sglang flush 200
    int resetsRefused = 0;          // vllm {"success": false}, sglang 400
    int slotsErased = 0;            // llamacpp: slot erases answered
    int profileWindows = 0;         // profiler windows started
    // GET /metrics answered while a window was open: a real profiled server traces each one.
    int metricsInWindow = 0;
    qint64 cacheHitBlocks = 0;
    qint64 cacheMissBlocks = 0;
    // The output path's batching: content events streamed, and times output was handed to a
    // socket (one send() each). About one write per event while the writer keeps up with the
    // model; fewer when it lags and a connection's queued events leave together.
    qint64 streamEvents = 0;
    qint64 socketWrites = 0;
};

// steady_clock nanoseconds since its epoch (CLOCK_MONOTONIC on Linux, so comparable across
// processes on one machine). Server TTFT = firstTokenWriteNs - arrivalNs.
struct MockTiming {
    QByteArray requestId;           // the client's X-Request-Id header, else "mock-<n>"
    // When the request had arrived: the kernel's receive timestamp of the read that completed it
    // (Linux SO_TIMESTAMPING, wall clock converted to this clock; load/RxStamp.h has the error
    // bound). So time the request waited unread because the server's event loop was busy
    // (writing other streams, say) counts as server time, as it does in a real server. Its last
    // bytes, not its first: a client that uploads slowly (split writes held back by Nagle) adds
    // that time itself. For TCP the stamp is of the newest bytes in that read, so a request
    // read together with the start of a pipelined next one gets the later time (never earlier).
    // Equal to readNs when the kernel gave no stamp (kernelArrival false).
    qint64 arrivalNs = 0;
    qint64 readNs = 0;              // when the server's event loop read those bytes
    bool kernelArrival = false;     // arrivalNs is the kernel's stamp, not the readNs fallback
    // When the bytes of the first content token (non-streaming: of the whole answer) were
    // handed to the socket; 0 if never.
    qint64 firstTokenWriteNs = 0;
    qint64 endNs = 0;
};

// One call of a control route (reset, flush, profiler start/stop), in arrival order of the answers.
struct MockControlEvent {
    QByteArray method;
    QByteArray target;              // path with query
    qint64 receivedNs = 0;
    qint64 answeredNs = 0;
    int inFlightAtReceive = 0;      // completion requests in flight when the call arrived
    int inFlightAtAnswer = 0;
    int status = 0;
    QByteArray body;                // what the server answered
};

struct MockShared;
class MockWorker;

class MockServer
{
public:
    // Starts listening before it returns; nullptr and *error set when it cannot.
    static std::unique_ptr<MockServer> start(const MockConfig &cfg, QString *error = nullptr);
    ~MockServer();                  // stops the thread, closes every socket
    MockServer(const MockServer &) = delete;
    MockServer &operator=(const MockServer &) = delete;

    QUrl url() const;               // http://HOST:PORT
    quint16 port() const;
    const MockConfig &config() const { return m_config; }
    MockStats stats() const;
    void resetStats();              // counters and timings; the event log stays
    QList<MockTiming> timings() const;  // oldest first, the last 200k requests
    QList<MockControlEvent> controlEvents() const;
    void clearControlEvents();

    static qint64 nowNs();          // the clock of MockTiming

private:
    MockServer() = default;
    MockConfig m_config;
    quint16 m_port = 0;
    std::shared_ptr<MockShared> m_shared;
    std::unique_ptr<QThread> m_thread;
    MockWorker *m_worker = nullptr; // lives in m_thread
};

} // namespace sb
