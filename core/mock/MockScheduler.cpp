#include "mock/MockScheduler.h"
#include "spec/PrefixCaching.h"
#include <QSocketNotifier>
#include <QTimer>
#include <algorithm>
#include <cmath>
#ifdef Q_OS_LINUX
#include <sys/timerfd.h>
#include <unistd.h>
#endif

namespace sb {

MockScheduler::MockScheduler(const MockConfig &cfg, QObject *parent)
    : QObject(parent), m_cfg(cfg), m_cache(cfg.cacheBlocks)
{
    m_cfg.maxBatch = std::max(1, m_cfg.maxBatch);
    m_cfg.maxPrefillTokens = std::max(1, m_cfg.maxPrefillTokens);
    if (m_cfg.flavor == Flavor::Llamacpp)
        m_slots.resize(size_t(m_cfg.maxBatch)); // one slot per parallel sequence
    auto fire = [this] {
        if (m_inStep)
            endStep();
        else if (m_armedForPause) {
            m_armedForPause = false;
            kick();
        }
    };
#ifdef Q_OS_LINUX
    m_timerFd = ::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (m_timerFd >= 0) {
        m_notifier = new QSocketNotifier(m_timerFd, QSocketNotifier::Read, this);
        connect(m_notifier, &QSocketNotifier::activated, this, [this, fire] {
            quint64 expirations = 0;
            if (::read(m_timerFd, &expirations, sizeof expirations) != sizeof expirations)
                return; // spurious wake-up (EAGAIN)
            fire();
        });
        return;
    }
#endif
    m_fallback = new QTimer(this);
    m_fallback->setSingleShot(true);
    m_fallback->setTimerType(Qt::PreciseTimer);
    connect(m_fallback, &QTimer::timeout, this, fire);
}

MockScheduler::~MockScheduler()
{
#ifdef Q_OS_LINUX
    if (m_timerFd >= 0) {
        delete m_notifier;
        m_notifier = nullptr;
        ::close(m_timerFd);
    }
#endif
}

void MockScheduler::setCallbacks(TokenFn token, StepFn step, CacheFn cache)
{
    m_token = std::move(token);
    m_stepFn = std::move(step);
    m_cacheFn = std::move(cache);
}

void MockScheduler::armAt(qint64 ns)
{
    m_armedNs = ns;
#ifdef Q_OS_LINUX
    if (m_timerFd >= 0) {
        itimerspec spec{};
        ns = std::max<qint64>(ns, 1); // zero would disarm the timer
        spec.it_value.tv_sec = time_t(ns / 1000000000);
        spec.it_value.tv_nsec = long(ns % 1000000000);
        ::timerfd_settime(m_timerFd, TFD_TIMER_ABSTIME, &spec, nullptr);
        return;
    }
#endif
    const qint64 waitNs = ns - MockServer::nowNs();
    m_fallback->start(int(std::max<qint64>(0, (waitNs + 999999) / 1000000)));
}

quint64 MockScheduler::submit(int promptTokens, std::vector<quint64> blocks, int maxTokens)
{
    const quint64 id = m_nextId++;
    Seq s;
    s.promptTokens = std::max(1, promptTokens);
    s.blocks = std::move(blocks);
    s.maxTokens = std::max(1, maxTokens);
    m_seqs.emplace(id, std::move(s));
    m_waiting.push_back(id);
    kick();
    return id;
}

int MockScheduler::pickSlot(const std::vector<quint64> &blocks, int *lcp) const
{
    // As llama-server picks: the free slot sharing the largest fraction of the prompt (above
    // 10 %), else the least recently used free slot (the last of equals: a fresh server starts
    // with its highest slot id).
    int best = -1, lru = -1;
    double bestSim = 0.1;
    *lcp = 0;
    for (int i = 0; i < int(m_slots.size()); ++i) {
        const Slot &sl = m_slots[size_t(i)];
        if (sl.seq != 0)
            continue;
        if (lru < 0 || sl.lastUsed <= m_slots[size_t(lru)].lastUsed)
            lru = i;
        size_t n = 0;
        while (n < sl.chain.size() && n < blocks.size() && sl.chain[n] == blocks[n])
            ++n;
        const double sim = blocks.empty() ? 0 : double(n) / double(blocks.size());
        if (sim > bestSim) {
            bestSim = sim;
            best = i;
            *lcp = int(n);
        }
    }
    if (best >= 0)
        return best;
    if (lru >= 0) {
        const Slot &sl = m_slots[size_t(lru)];
        size_t n = 0;
        while (n < sl.chain.size() && n < blocks.size() && sl.chain[n] == blocks[n])
            ++n;
        *lcp = int(n);
    }
    return lru;
}

void MockScheduler::releaseSlot(const Seq &s)
{
    if (s.slot < 0)
        return;
    Slot &sl = m_slots[size_t(s.slot)];
    sl.seq = 0;
    sl.lastUsed = ++m_slotClock;
    // The slot keeps what it computed: the prompt and every generated token but the last one,
    // which was sampled and never evaluated (n_erased = prompt + generated - 1 on llama-server).
    if (s.prefilled)
        sl.tokens = s.promptTokens + std::max(0, s.generated - 1);
}

int MockScheduler::eraseSlot(int slot)
{
    Slot &sl = m_slots.at(size_t(slot));
    if (sl.seq != 0)
        return -1;
    const int erased = sl.tokens;
    sl.chain.clear();
    sl.tokens = 0;
    return erased;
}

void MockScheduler::cancel(quint64 seq)
{
    const auto found = m_seqs.find(seq);
    if (found == m_seqs.end())
        return;
    releaseSlot(found->second);
    m_seqs.erase(found);
    m_running.erase(std::remove(m_running.begin(), m_running.end(), seq), m_running.end());
    m_waiting.erase(std::remove(m_waiting.begin(), m_waiting.end(), seq), m_waiting.end());
    // A cancelled sequence still in m_stepSeqs is skipped at the end of the step.
}

void MockScheduler::pause(quint64 seq, int ms)
{
    auto it = m_seqs.find(seq);
    if (it != m_seqs.end())
        it->second.pausedUntilNs = MockServer::nowNs() + qint64(ms) * 1000000;
}

void MockScheduler::kick()
{
    if (m_inStep || (m_running.empty() && m_waiting.empty()))
        return;
    beginStep(MockServer::nowNs());
}

void MockScheduler::beginStep(qint64 startNs)
{
    m_stepSeqs.clear();
    MockStepRecord rec;
    rec.index = m_stepIndex;
    rec.startNs = startNs;
    qint64 nextResume = 0;
    for (quint64 id : m_running) {
        const Seq &s = m_seqs.at(id);
        if (s.pausedUntilNs > startNs) {
            nextResume = nextResume ? std::min(nextResume, s.pausedUntilNs) : s.pausedUntilNs;
            continue;
        }
        m_stepSeqs.push_back(id);
        ++rec.decodeTokens;
    }
    // Admit waiting sequences while the batch and this step's prefill budget allow; a long
    // prompt alone may exceed the budget (it is never starved).
    while (!m_waiting.empty() && int(m_running.size()) < m_cfg.maxBatch) {
        Seq &s = m_seqs.at(m_waiting.front());
        int hits = 0;
        int slot = -1;
        if (!m_slots.empty()) {
            slot = pickSlot(s.blocks, &hits);
            if (m_cfg.cacheRamMiB > 0) // the host-RAM cache may hold more than the slot
                hits = std::max(hits, m_cache.lookup(s.blocks));
        } else {
            hits = m_cache.lookup(s.blocks);
        }
        // The last prompt token is always evaluated again (its logits start the answer).
        const int cached = std::min(hits * m_cfg.blockTokens, s.promptTokens - 1);
        const int fresh = s.promptTokens - cached;
        if (rec.prefillSeqs > 0 && rec.prefillTokens + fresh > m_cfg.maxPrefillTokens)
            break;
        // Admitted: a server that caches at scheduling holds the prompt from now on; the
        // others once its prefill has run (endStep).
        if (m_slots.empty() && cachesPromptWhenScheduled(m_cfg.flavor))
            m_cache.insert(s.blocks);
        if (m_cacheFn)
            m_cacheFn(hits, int(s.blocks.size()) - hits);
        const quint64 id = m_waiting.front();
        m_waiting.pop_front();
        m_running.push_back(id);
        m_stepSeqs.push_back(id);
        s.cachedTokens = std::max(0, cached);
        if (slot >= 0) {
            s.slot = slot;
            m_slots[size_t(slot)].seq = id;
        }
        ++rec.prefillSeqs;
        rec.prefillTokens += fresh;
        rec.cachedTokens += cached;
    }
    rec.batch = int(m_stepSeqs.size());
    if (rec.batch == 0) {
        // Every running sequence sits out a stall: wake up when the first one resumes.
        if (nextResume) {
            m_armedForPause = true;
            armAt(nextResume);
        }
        return;
    }
    m_armedForPause = false;
    const double costMs = m_cfg.stepBaseMs + m_cfg.stepPerSeqMs * rec.batch
                          + m_cfg.prefillPerTokenMs * rec.prefillTokens;
    rec.endNs = startNs + std::max<qint64>(1000, qint64(std::llround(costMs * 1e6)));
    m_step = rec;
    m_inStep = true;
    armAt(rec.endNs);
}

void MockScheduler::endStep()
{
    const qint64 firedNs = MockServer::nowNs();
    struct Emit { quint64 seq; int index; bool last; };
    std::vector<Emit> emits;
    emits.reserve(m_stepSeqs.size());
    std::vector<std::pair<quint64, int>> prefilled;
    for (quint64 id : m_stepSeqs) {
        auto it = m_seqs.find(id);
        if (it == m_seqs.end())
            continue; // cancelled during the step
        Seq &s = it->second;
        if (!s.prefilled) {
            s.prefilled = true;
            if (s.slot >= 0) // the slot's cache is now this prompt
                m_slots[size_t(s.slot)].chain = s.blocks;
            if ((m_slots.empty() && !cachesPromptWhenScheduled(m_cfg.flavor)) || (!m_slots.empty() && m_cfg.cacheRamMiB > 0))
                m_cache.insert(s.blocks);
            if (m_prefillFn)
                prefilled.push_back({id, s.cachedTokens});
        }
        const int index = s.generated++;
        const bool last = s.generated >= s.maxTokens;
        emits.push_back({id, index, last});
        if (last) {
            releaseSlot(s);
            m_seqs.erase(it);
            m_running.erase(std::find(m_running.begin(), m_running.end(), id));
        }
    }
    ++m_stepIndex;
    // Still "in a step" while calling out, so that a submit() from a callback (a pipelined
    // request) queues instead of starting a second step.
    if (m_stepFn)
        m_stepFn(m_step);
    for (const auto &[seq, cachedTokens] : prefilled)
        m_prefillFn(seq, cachedTokens);
    if (m_token) {
        for (const Emit &e : emits)
            if (e.last || m_seqs.count(e.seq)) // skip sequences cancelled by an earlier callback
                m_token(e.seq, e.index, e.last);
    }
    m_inStep = false;
    if (m_running.empty() && m_waiting.empty())
        return;
    // The next step starts when this one ended (GPU work overlaps output processing), or now
    // if the timer fired late, so a busy CPU stretches steps instead of accumulating debt.
    beginStep(std::max(m_step.endNs, firedNs));
}

} // namespace sb
