#include "trace/TraceAccumulator.h"
#include "metrics/Stats.h"
#include <algorithm>

namespace sb {

namespace {
const std::string_view kOtherNames = "(other names)";

// Rules in order of preference: the first that finds a step in a file gives its steps.
bool better(StepSource a, StepSource b) { return b == StepSource::None || int(a) < int(b); }

// Keeps only the outermost of steps nested on one thread (vLLM's execute_model is three calls
// deep per step; a generic trace's annotations nest too).
void keepOutermost(std::vector<TraceStep> &steps)
{
    std::sort(steps.begin(), steps.end(), [](const TraceStep &a, const TraceStep &b) {
        if (a.pid != b.pid)
            return a.pid < b.pid;
        if (a.tid != b.tid)
            return a.tid < b.tid;
        if (a.ts != b.ts)
            return a.ts < b.ts;
        return a.dur > b.dur;
    });
    std::size_t kept = 0;
    double end = -INFINITY;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const TraceStep &s = steps[i];
        const bool sameThread = kept > 0 && steps[kept - 1].pid == s.pid && steps[kept - 1].tid == s.tid;
        if (sameThread && s.ts + s.dur <= end)
            continue; // inside the step before
        steps[kept++] = s;
        end = s.ts + s.dur;
    }
    steps.resize(kept);
}

// Statistics of one kind's steps.
StepKindStats kindStats(StepKind kind, const std::vector<const TraceStep *> &steps)
{
    StepKindStats k;
    k.kind = kind;
    k.count = qint64(steps.size());
    std::vector<double> ms;
    ms.reserve(steps.size());
    double batchSum = 0, tokenSum = 0;
    qint64 batchN = 0, tokenN = 0;
    for (const TraceStep *s : steps) {
        ms.push_back(s->dur / 1000);
        if (s->batch >= 0) {
            batchSum += s->batch, ++batchN;
            k.batchMax = std::max(k.batchMax, double(s->batch));
        }
        if (s->tokens >= 0) {
            tokenSum += s->tokens, ++tokenN;
            k.tokensMax = std::max(k.tokensMax, double(s->tokens));
        }
    }
    std::sort(ms.begin(), ms.end());
    k.p50Ms = percentileSorted(ms, 50);
    k.p90Ms = percentileSorted(ms, 90);
    k.p99Ms = percentileSorted(ms, 99);
    k.maxMs = ms.empty() ? 0 : ms.back();
    if (batchN > 0)
        k.batchMean = batchSum / double(batchN);
    if (tokenN > 0)
        k.tokensMean = tokenSum / double(tokenN);
    return k;
}
} // namespace

OpTable::Entry *OpTable::slot(std::string_view name)
{
    if (qsizetype(name.size()) > m_maxChars)
        name = name.substr(0, std::size_t(m_maxChars));
    if (auto it = m_entries.find(name); it != m_entries.end())
        return &it->second;
    if (int(m_entries.size()) >= m_maxNames)
        name = kOtherNames;
    return &m_entries.try_emplace(std::string(name)).first->second;
}

void OpTable::add(const OpTable &other)
{
    for (const auto &[name, e] : other.m_entries) {
        Entry *to = slot(name);
        to->us += e.us;
        to->count += e.count;
    }
}

QList<OpTime> OpTable::top(int n) const
{
    std::vector<const std::pair<const std::string, Entry> *> all;
    all.reserve(m_entries.size());
    for (const auto &p : m_entries)
        all.push_back(&p);
    const auto longer = [](auto *a, auto *b) { return a->second.us != b->second.us ? a->second.us > b->second.us : a->first < b->first; };
    const std::size_t k = std::min(all.size(), std::size_t(std::max(0, n)));
    std::partial_sort(all.begin(), all.begin() + std::ptrdiff_t(k), all.end(), longer);
    QList<OpTime> out;
    for (std::size_t i = 0; i < k; ++i)
        out.append(OpTime{QString::fromUtf8(all[i]->first.data(), qsizetype(all[i]->first.size())), all[i]->second.us / 1000,
                          all[i]->second.count});
    return out;
}

void TraceTotals::add(const TraceTotals &o)
{
    events += o.events;
    firstUs = std::min(firstUs, o.firstUs);
    lastUs = std::max(lastUs, o.lastUs);
    stepCount += o.stepCount;
    for (const TraceStep &s : o.steps) {
        if (qint64(steps.size()) >= maxSteps)
            break;
        steps.push_back(s);
    }
    gpu = gpu || o.gpu;
    gpuBusyUs += o.gpuBusyUs;
    gpuDeviceSpanUs += o.gpuDeviceSpanUs;
    kernels.add(o.kernels);
    cpuOps.add(o.cpuOps);
}

TraceStats TraceTotals::stats() const
{
    TraceStats s;
    s.events = events;
    s.spanMs = lastUs >= firstUs ? (lastUs - firstUs) / 1000 : 0;
    s.steps = stepCount;
    for (StepKind kind : {StepKind::Prefill, StepKind::Decode, StepKind::Mixed, StepKind::Unknown}) {
        std::vector<const TraceStep *> of;
        for (const TraceStep &st : steps)
            if (st.kind == kind)
                of.push_back(&st);
        if (!of.empty())
            s.stepKinds.append(kindStats(kind, of));
    }
    if (gpu) {
        s.gpuBusyShare = gpuDeviceSpanUs > 0 ? std::clamp(gpuBusyUs / gpuDeviceSpanUs, 0.0, 1.0) : 0;
        s.topKernels = kernels.top(kTopOps);
    }
    s.topCpuOps = cpuOps.top(kTopOps);
    return s;
}

TraceAccumulator::TraceAccumulator(const TraceLimits &limits) : m_limits(limits), m_totals(limits) {}

bool TraceAccumulator::collect(StepSource rule, const TraceEvent &e, const StepLabel &label, QString *error)
{
    if (!better(rule, m_best) && rule != m_best)
        return true; // a better rule already found steps in this file
    if (rule != m_best) { // the worse rules' steps will never be used: give their memory back
        for (int r = int(rule) + 1; r < 5; ++r)
            std::vector<TraceStep>().swap(m_rules[r]);
        m_best = rule;
    }
    std::vector<TraceStep> &steps = m_rules[int(rule)];
    if (qint64(steps.size()) >= m_limits.maxSteps) {
        *error = QStringLiteral("more than %1 engine steps (the cap on a trace)").arg(m_limits.maxSteps);
        return false;
    }
    steps.push_back(TraceStep{e.ts, e.dur, e.pid, e.tid, label.kind, label.batch, label.tokens, m_keepLabels ? labelOf(e.name) : -1});
    return true;
}

int TraceAccumulator::labelOf(std::string_view name)
{
    name = name.substr(0, std::size_t(m_limits.maxNameChars));
    if (auto it = m_labelIndex.find(name); it != m_labelIndex.end())
        return it->second;
    if (int(m_labels.size()) >= m_limits.maxNames)
        return -1;
    m_labels.emplace_back(name);
    m_labelIndex.try_emplace(m_labels.back(), int(m_labels.size()) - 1);
    return int(m_labels.size()) - 1;
}

void TraceAccumulator::close(Frame &f)
{
    f.entry->us += std::max(0.0, f.dur - f.childUs);
    f.entry->count += 1;
}

void TraceAccumulator::cpuOp(const TraceEvent &e)
{
    const auto key = std::make_pair(e.pid, e.tid);
    auto it = m_stacks.find(key);
    if (it == m_stacks.end()) {
        if (int(m_stacks.size() + m_devices.size()) >= m_limits.maxThreads) { // no nesting followed: all self time
            OpTable::Entry *entry = m_totals.cpuOps.slot(e.name);
            entry->us += e.dur, entry->count += 1;
            return;
        }
        it = m_stacks.try_emplace(key).first;
    }
    std::vector<Frame> &stack = it->second;
    // Kineto writes a thread's CPU ops in start order: an op that starts after the open one
    // ended is not inside it.
    while (!stack.empty() && stack.back().end <= e.ts) {
        close(stack.back());
        stack.pop_back();
    }
    if (!stack.empty())
        stack.back().childUs += e.dur;
    Frame f{e.ts + e.dur, e.dur, 0, m_totals.cpuOps.slot(e.name)};
    if (int(stack.size()) < m_limits.maxOpDepth)
        stack.push_back(f);
    else
        close(f);
}

void TraceAccumulator::gpuWork(const TraceEvent &e)
{
    m_totals.gpu = true;
    if (e.cat == "kernel") {
        OpTable::Entry *entry = m_totals.kernels.slot(e.name);
        entry->us += e.dur, entry->count += 1;
    }
    auto it = m_devices.find(e.pid);
    if (it == m_devices.end()) {
        if (int(m_stacks.size() + m_devices.size()) >= m_limits.maxThreads)
            return;
        it = m_devices.try_emplace(e.pid).first;
    }
    // A device's work merged into busy intervals as it arrives (Kineto writes each stream in
    // time order; overlapping streams extend the open interval).
    Busy &b = it->second;
    if (e.ts > b.end) {
        if (b.end > b.start)
            b.busy += b.end - b.start;
        b.start = e.ts;
        b.end = e.ts + e.dur;
    } else {
        b.end = std::max(b.end, e.ts + e.dur);
    }
}

bool TraceAccumulator::event(const TraceEvent &e, QString *error)
{
    ++m_totals.events;
    return handle(e, error);
}

// Times beyond ~30 years of microseconds are no profiler's: their sums would overflow.
constexpr double kMaxUs = 1e15;

bool TraceAccumulator::handle(const TraceEvent &e, QString *error)
{
    if (e.ph == 'M' || !(std::abs(e.ts) < kMaxUs))
        return true;
    const bool complete = e.ph == 'X' && e.dur >= 0 && e.dur < kMaxUs;
    m_totals.firstUs = std::min(m_totals.firstUs, e.ts);
    m_totals.lastUs = std::max(m_totals.lastUs, e.ts + (complete ? e.dur : 0));
    if (e.ph == 'B' || e.ph == 'E')
        return beginEnd(e, error);
    if (!complete)
        return true;
    if (isGpuWork(e.cat)) {
        gpuWork(e);
        return true;
    }
    if (isGpuCategory(e.cat))
        return true;
    if (e.cat == "cpu_op")
        cpuOp(e);
    return findSteps(e, error);
}

// B/E pairs become one duration at the E (the innermost open B of the thread, as the format
// says). They feed the step rules only: CPU self time is computed from events in start order,
// and a pair arrives in end order.
bool TraceAccumulator::beginEnd(const TraceEvent &e, QString *error)
{
    const std::pair<qint64, qint64> key{e.pid, e.tid};
    auto it = m_begins.find(key);
    if (e.ph == 'B') {
        if (it == m_begins.end()) {
            if (int(m_stacks.size() + m_devices.size() + m_begins.size()) >= m_limits.maxThreads)
                return true;
            it = m_begins.try_emplace(key).first;
        }
        BeginStack &stack = it->second;
        if (int(stack.open.size()) >= m_limits.maxOpDepth) {
            ++stack.dropped;
            return true;
        }
        const std::size_t chars = std::size_t(m_limits.maxNameChars);
        stack.open.push_back({std::string(e.name.substr(0, chars)), std::string(e.cat.substr(0, chars)), e.ts});
        return true;
    }
    if (it == m_begins.end())
        return true; // an E without its B (the window opened inside it)
    BeginStack &stack = it->second;
    if (stack.dropped > 0) {
        --stack.dropped;
        return true;
    }
    if (stack.open.empty())
        return true;
    const OpenBegin b = std::move(stack.open.back());
    stack.open.pop_back();
    TraceEvent pair;
    pair.ph = 'X';
    pair.name = b.name;
    pair.cat = b.cat;
    pair.pid = e.pid;
    pair.tid = e.tid;
    pair.ts = b.ts;
    pair.dur = e.ts - b.ts;
    if (!(pair.dur >= 0 && pair.dur < kMaxUs) || isGpuWork(pair.cat) || isGpuCategory(pair.cat))
        return true;
    return findSteps(pair, error);
}

bool TraceAccumulator::findSteps(const TraceEvent &e, QString *error)
{
    StepLabel label;
    if (parseStepLabel(e.name, &label))
        return collect(StepSource::StepLabels, e, label, error);
    if (parseVllmStepAnnotation(e.name, &label))
        return collect(StepSource::VllmAnnotations, e, label, error);
    if (isExecuteModel(e.name))
        return collect(StepSource::ExecuteModel, e, StepLabel(), error);
    if (e.cat == "user_annotation")
        return collect(StepSource::UserAnnotations, e, StepLabel(), error);
    return true;
}

void TraceAccumulator::finish()
{
    for (auto &[key, stack] : m_stacks) {
        for (Frame &f : stack)
            close(f);
        stack.clear();
    }
    double devices = 0;
    for (auto &[pid, b] : m_devices) {
        if (b.end > b.start)
            b.busy += b.end - b.start;
        m_totals.gpuBusyUs += b.busy;
        b = Busy();
        ++devices;
    }
    if (m_totals.lastUs > m_totals.firstUs)
        m_totals.gpuDeviceSpanUs = devices * (m_totals.lastUs - m_totals.firstUs);
    m_source = m_best;
    if (m_source == StepSource::None)
        return;
    std::vector<TraceStep> &steps = m_rules[int(m_source)];
    if (m_source == StepSource::ExecuteModel || m_source == StepSource::UserAnnotations)
        keepOutermost(steps);
    m_totals.stepCount = qint64(steps.size());
    m_totals.steps = std::move(steps);
}

} // namespace sb
