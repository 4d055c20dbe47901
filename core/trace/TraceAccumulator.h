#pragma once
// Turns a trace's events, as the reader streams them, into the figures of a TraceSummary: event
// count and span, engine steps (by the first rule of docs/traces.md "Steps" that finds any),
// GPU busy time per device and time per kernel, and CPU self time per op. Memory is bounded by
// TraceLimits (steps kept, names, threads, nesting), never by the file's size.
#include "results/TraceSummary.h"
#include "trace/StepLabels.h"
#include "trace/TraceReader.h"
#include <string>
#include <unordered_map>
#include <vector>

namespace sb {

struct TraceStep {
    double ts = 0, dur = 0; // microseconds
    qint64 pid = 0, tid = 0;
    StepKind kind = StepKind::Unknown;
    int batch = -1, tokens = -1;
    int label = -1; // into TraceAccumulator::labels() when it keeps them; -1 otherwise
};

// Time per name, at most limits.maxNames names (later names pooled under "(other names)").
class OpTable
{
public:
    struct Entry {
        double us = 0;
        qint64 count = 0;
    };
    explicit OpTable(const TraceLimits &limits) : m_maxNames(limits.maxNames), m_maxChars(limits.maxNameChars) {}
    // The entry for `name` (stable while the table lives).
    Entry *slot(std::string_view name);
    void add(const OpTable &other);
    QList<OpTime> top(int n) const;
    bool empty() const { return m_entries.empty(); }

    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
    };

private:
    int m_maxNames, m_maxChars;
    std::unordered_map<std::string, Entry, Hash, std::equal_to<>> m_entries;
};

// Figures of one file, or of several added together (a cell's files merged).
struct TraceTotals {
    explicit TraceTotals(const TraceLimits &limits) : kernels(limits), cpuOps(limits), maxSteps(limits.maxSteps) {}
    qint64 events = 0;
    double firstUs = INFINITY, lastUs = -INFINITY;
    qint64 stepCount = 0;            // every step found
    std::vector<TraceStep> steps;    // the first maxSteps of them: the percentiles' sample
    bool gpu = false;
    double gpuBusyUs = 0;            // summed over devices
    double gpuDeviceSpanUs = 0;      // devices x span
    OpTable kernels, cpuOps;         // kernels: total time; CPU ops: self time
    qint64 maxSteps;

    void add(const TraceTotals &other);
    TraceStats stats() const;
};

class TraceAccumulator : public TraceEventSink
{
public:
    explicit TraceAccumulator(const TraceLimits &limits);
    // Each step also keeps its event's name (a timeline's hover), pooled: a server repeats a few
    // labels thousands of times. At most limits.maxNames distinct ones (cut to maxNameChars); a
    // step past that has label -1. Off for summaries, which never show a single step.
    void keepLabels() { m_keepLabels = true; }
    const std::vector<std::string> &labels() const { return m_labels; }
    bool event(const TraceEvent &e, QString *error) override;
    // After the read (complete or not): folds what is still open and picks the steps.
    void finish();
    StepSource stepSource() const { return m_source; }
    const TraceTotals &totals() const { return m_totals; }

private:
    struct Frame {
        double end, dur, childUs;
        OpTable::Entry *entry;
    };
    struct Busy {
        double start = 0, end = -INFINITY, busy = 0;
    };
    struct PairHash {
        std::size_t operator()(const std::pair<qint64, qint64> &p) const
        {
            return std::hash<qint64>()(p.first) * 31 + std::hash<qint64>()(p.second);
        }
    };
    // A 'B' event waiting for its 'E' on the same thread (the Chrome trace format's other way to
    // write a duration): its name and category kept, cut to maxNameChars.
    struct OpenBegin {
        std::string name, cat;
        double ts;
    };
    struct BeginStack {
        std::vector<OpenBegin> open; // at most maxOpDepth
        int dropped = 0;             // B events past maxOpDepth: their E events are skipped too
    };
    bool handle(const TraceEvent &e, QString *error);
    bool beginEnd(const TraceEvent &e, QString *error);
    bool findSteps(const TraceEvent &e, QString *error);
    bool collect(StepSource rule, const TraceEvent &e, const StepLabel &label, QString *error);
    void cpuOp(const TraceEvent &e);
    void gpuWork(const TraceEvent &e);
    static void close(Frame &f);

    TraceLimits m_limits;
    TraceTotals m_totals;
    StepSource m_best = StepSource::None; // the best rule that found a step so far
    StepSource m_source = StepSource::None;
    std::vector<TraceStep> m_rules[5];    // by StepSource
    std::unordered_map<std::pair<qint64, qint64>, std::vector<Frame>, PairHash> m_stacks;
    std::unordered_map<qint64, Busy> m_devices;
    std::unordered_map<std::pair<qint64, qint64>, BeginStack, PairHash> m_begins;
    bool m_keepLabels = false;
    std::vector<std::string> m_labels;
    std::unordered_map<std::string, int, OpTable::Hash, std::equal_to<>> m_labelIndex;
    int labelOf(std::string_view name);
};

} // namespace sb
