#include "workload/WorkloadPlan.h"
#include <QSet>
#include <algorithm>
#include <cmath>

namespace sb {

namespace {
constexpr std::int64_t kWarmupDraws = std::int64_t(1) << 40; // warmup draws never equal measured ones
constexpr int kMaxExactAnchors = 4;          // a histogram with more values gets three anchors
} // namespace

FillerMap::FillerMap(QList<QPair<int, int>> anchors)
{
    std::sort(anchors.begin(), anchors.end());
    for (const auto &a : anchors)
        if (m_anchors.isEmpty() || m_anchors.last().first != a.first)
            m_anchors.append(a);
}

int FillerMap::charsFor(int tokens) const
{
    if (m_anchors.isEmpty())
        return -1;
    const auto bounded = [tokens](double v) { return int(std::clamp<double>(std::round(v), 0, maxFillerChars(tokens))); };
    if (m_anchors.size() == 1) { // one length: exact there, proportional elsewhere
        const auto [t0, c0] = m_anchors.first();
        return bounded(tokens == t0 ? c0 : double(c0) * tokens / std::max(1, t0));
    }
    qsizetype k = 1;
    while (k < m_anchors.size() - 1 && tokens > m_anchors[k].first)
        ++k;
    const auto [t0, c0] = m_anchors[k - 1];
    const auto [t1, c1] = m_anchors[k];
    return bounded(c0 + double(c1 - c0) * (tokens - t0) / double(t1 - t0));
}

double FillerMap::charsPerToken() const
{
    if (m_anchors.size() >= 2) {
        const auto [t0, c0] = m_anchors.first();
        const auto [t1, c1] = m_anchors.last();
        return std::max(0.0, double(c1 - c0) / double(t1 - t0));
    }
    if (m_anchors.size() == 1)
        return double(m_anchors.first().second) / std::max(1, m_anchors.first().first);
    return 0;
}

WorkloadPlan::WorkloadPlan(const WorkloadSpec &w, FillerMap fill, std::shared_ptr<const Dataset> dataset)
    : m_w(w), m_fill(std::move(fill)), m_dataset(std::move(dataset))
{
    if (w.images && !m_dataset)
        m_images = ImagePool::shared(*w.images, std::uint64_t(w.seed));
    if (m_dataset)
        m_maxInput = std::max(0, m_dataset->stats.maxInput);
    else
        m_maxInput = w.inputLengths ? w.inputLengths->highest() : w.inputTokens;
}

RequestShape WorkloadPlan::at(std::int64_t ticket, bool warmup) const
{
    RequestShape s;
    const std::int64_t draw = warmup ? ticket + kWarmupDraws : ticket;
    const std::uint64_t seed = std::uint64_t(m_w.seed);
    s.outputTokens = m_w.outputLengths ? m_w.outputLengths->sample(seed, kOutputStream, draw) : m_w.outputTokens;
    if (m_dataset && !m_dataset->empty()) {
        fromEntry(m_dataset->entryFor(ticket, warmup), s);
        return s;
    }
    s.inputTokens = m_w.inputLengths ? m_w.inputLengths->sample(seed, kInputStream, draw) : m_w.inputTokens;
    s.fillerChars = m_fill.charsFor(s.inputTokens);
    if (m_images) {
        s.images = m_images->spec().count;
        s.imageBytes = m_images->requestBytes(ticket, warmup);
    }
    return s;
}

void WorkloadPlan::fromEntry(const DatasetEntry &e, RequestShape &s) const
{
    s.entry = &e;
    s.inputTokens = e.inputTokens;
    if (e.outputTokens > 0)
        s.outputTokens = e.outputTokens;
    else if (e.outputChars > 0) {
        const double perToken = m_fill.charsPerToken() > 0 ? m_fill.charsPerToken() : kShareGptCharsPerToken;
        // Clamped as a double: a calibration of a few characters a token must not overflow the int.
        s.outputTokens = int(std::clamp(std::round(e.outputChars / perToken), 1.0, double(kMaxLength)));
    }
    if (s.inputTokens > 0)
        s.fillerChars = m_fill.charsFor(s.inputTokens);
}

int WorkloadPlan::sessionTurns(std::int64_t id, bool warmup) const
{
    if (!m_dataset || m_dataset->sessions.empty())
        return 0;
    return int(m_dataset->sessionFor(id, warmup).turns);
}

RequestShape WorkloadPlan::atTurn(std::int64_t ticket, std::int64_t session, int turn, bool warmup) const
{
    RequestShape s = at(ticket, warmup);
    if (m_dataset && !m_dataset->sessions.empty())
        fromEntry(m_dataset->turnEntry(session, turn, warmup), s);
    return s;
}

QList<int> calibrationTargets(const WorkloadSpec &w, const Dataset *dataset)
{
    int lo = w.inputTokens, hi = w.inputTokens;
    if (dataset) {
        if (dataset->stats.minInput <= 0)
            return {};
        lo = dataset->stats.minInput, hi = dataset->stats.maxInput;
    } else if (w.inputLengths) {
        const LengthDistribution &d = *w.inputLengths;
        if (d.kind == LengthKind::Choices) {
            QSet<int> values;
            for (const LengthChoice &c : d.choices)
                values.insert(c.value);
            if (values.size() <= kMaxExactAnchors) {
                QList<int> out(values.cbegin(), values.cend());
                std::sort(out.begin(), out.end());
                return out;
            }
        }
        lo = d.lowest(), hi = d.highest();
    }
    QList<int> out;
    if (lo == hi)
        out = {lo};
    else if (const int mid = lo + (hi - lo) / 2; mid == lo)
        out = {lo, hi};
    else
        out = {lo, mid, hi};
    // Sessions' follow-up messages have a length of their own, calibrated like the rest; a shared
    // prefix's length too, so the characters per token it is sized by are measured between two
    // lengths (one length alone counts the template's tokens in).
    for (const int extra : {w.sessions ? w.sessions->followUpTokens : 0, w.prompts == PromptMode::SharedPrefix ? w.sharedPrefixTokens : 0})
        if (extra > 0 && !out.contains(extra))
            out.append(extra);
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace sb
