#pragma once
// The mock's performance model: a continuous-batching scheduler on a clock, not per-request
// sleeps. Each step costs base + perSeq * batch + prefillPerToken * new prefill tokens; at most
// maxBatch sequences run and the rest queue, so TTFT grows with load and throughput saturates
// the way a real server's does. A sequence is prefilled in one step (its first token comes at
// the end of that step) and then gains one token per step. Lives in the server thread.
#include "mock/MockPrefixCache.h"
#include "mock/MockServer.h"
#include <QObject>
#include <deque>
#include <functional>
#include <unordered_map>
#include <vector>

class QSocketNotifier;
class QTimer;

namespace sb {

struct MockStepRecord {
    quint64 index = 0;
    qint64 startNs = 0;
    qint64 endNs = 0;
    int batch = 0;             // sequences in the step
    int prefillSeqs = 0;
    int prefillTokens = 0;     // new (uncached) prefill tokens
    int cachedTokens = 0;      // prefill tokens served by the prefix cache
    int decodeTokens = 0;
};

class MockScheduler : public QObject
{
    Q_OBJECT
public:
    // token(seq, index, last): sequence `seq` produced output token `index`; `last` ends it.
    using TokenFn = std::function<void(quint64 seq, int index, bool last)>;
    using StepFn = std::function<void(const MockStepRecord &)>;
    using CacheFn = std::function<void(int hitBlocks, int missBlocks)>;

    MockScheduler(const MockConfig &cfg, QObject *parent = nullptr);
    ~MockScheduler() override;

    void setCallbacks(TokenFn token, StepFn step, CacheFn cache);
    // prefilled(seq, cachedTokens): the sequence's prompt was prefilled in the step that just
    // ended, `cachedTokens` of it served from a cache; called before that step's tokens.
    using PrefillFn = std::function<void(quint64 seq, int cachedTokens)>;
    void setPrefillCallback(PrefillFn fn) { m_prefillFn = std::move(fn); }
    // Queues a sequence; returns its id. `blocks` are the prompt's chain hashes.
    quint64 submit(int promptTokens, std::vector<quint64> blocks, int maxTokens);
    void cancel(quint64 seq);             // the client went away; no more callbacks for it
    void pause(quint64 seq, int ms);      // fault: the sequence sits out steps for `ms`
    void clearCache() { m_cache.clear(); }
    // llamacpp slots (MockConfig::flavor Llamacpp; empty otherwise). A slot is busy while a
    // sequence holds it; erasing a free slot drops its cached tokens and returns how many.
    int slotCount() const { return int(m_slots.size()); }
    bool slotBusy(int slot) const { return m_slots.at(size_t(slot)).seq != 0; }
    int slotTokens(int slot) const { return m_slots.at(size_t(slot)).tokens; }
    bool slotUsed(int slot) const { return m_slots.at(size_t(slot)).lastUsed > 0 || slotBusy(slot); }
    int eraseSlot(int slot);
    int cachedBlocks() const { return m_cache.size(); }
    int running() const { return int(m_running.size()); }
    int waiting() const { return int(m_waiting.size()); }
    quint64 stepsDone() const { return m_stepIndex; }
    // When the scheduler's timer fires next (the running step ends, or a stalled sequence
    // resumes); 0 when idle. The writer yields to the model at this time.
    qint64 nextWakeNs() const { return m_inStep || m_armedForPause ? m_armedNs : 0; }

private:
    struct Seq {
        int promptTokens = 0;
        std::vector<quint64> blocks;
        int maxTokens = 1;
        int generated = 0;
        bool prefilled = false;
        qint64 pausedUntilNs = 0;
        int slot = -1;           // llamacpp: the slot it holds
        int cachedTokens = 0;
    };
    struct Slot {
        std::vector<quint64> chain; // chain hashes of the cached prompt (one per token)
        int tokens = 0;             // tokens in the slot's cache: prompt and generated
        quint64 seq = 0;            // holder; 0 = free
        quint64 lastUsed = 0;
    };
    int pickSlot(const std::vector<quint64> &blocks, int *lcp) const;
    void releaseSlot(const Seq &s);
    void kick();                 // starts a step if idle and there is work
    void beginStep(qint64 startNs);
    void endStep();
    void armAt(qint64 ns);

    MockConfig m_cfg;
    MockPrefixCache m_cache;
    std::unordered_map<quint64, Seq> m_seqs;
    std::deque<quint64> m_waiting;
    std::vector<quint64> m_running;
    quint64 m_nextId = 1;
    quint64 m_stepIndex = 0;
    bool m_inStep = false;
    bool m_armedForPause = false;
    qint64 m_armedNs = 0;                 // what armAt() was last given
    MockStepRecord m_step;
    std::vector<quint64> m_stepSeqs;      // sequences taking part in the current step
    std::vector<Slot> m_slots;
    quint64 m_slotClock = 0;
    PrefillFn m_prefillFn;
    TokenFn m_token;
    StepFn m_stepFn;
    CacheFn m_cacheFn;
    // Step timing needs sub-millisecond precision (QTimer in Qt 6.4 rounds to ms): a timerfd on
    // Linux, a precise QTimer elsewhere.
    int m_timerFd = -1;
    QSocketNotifier *m_notifier = nullptr;
    QTimer *m_fallback = nullptr;
};

} // namespace sb
