#pragma once
// What request number `ticket` of a phase asks for: its input length, its max_tokens, the filler
// that makes its prompt that long on the server's tokenizer, or its dataset entry. One plan per
// server (it holds that model's calibration), shared read-only by the IO threads.
#include "spec/SweepSpec.h"
#include "workload/Dataset.h"
#include "workload/SyntheticImages.h"
#include <QList>
#include <QPair>
#include <memory>

namespace sb {

// The most filler characters a prompt of `tokens` tokens may have. A token is at least about one
// character, and tokenizers put at most ~5-6 characters of common English words (the filler's
// text) into one token; 32 characters a token is several times that, so no real tokenizer needs
// more, while a server whose counts are nonsense (always 1, never growing) can no longer make
// calibration double the filler until memory runs out. The constant covers rounding at tiny
// targets. Calibration never probes past it, FillerMap and RequestFactory never build past it,
// and a calibration.json asking for more is refused (engine/PromptCalibration).
inline constexpr int kMaxFillerCharsPerToken = 32;
inline constexpr int kFillerCharsSlack = 64;
constexpr int maxFillerChars(int tokens)
{
    return kMaxFillerCharsPerToken * (tokens < 0 ? 0 : tokens > kMaxLength ? kMaxLength : tokens) + kFillerCharsSlack;
}

// Filler characters for a prompt of N tokens, from calibration anchors (tokens, characters)
// measured on the server (engine/PromptCalibration): exact at each anchor, linear between them
// and beyond the ends along the nearest segment (token counts grow about linearly with
// characters), never past maxFillerChars. Without anchors: not calibrated (-1, prompts are words).
class FillerMap
{
public:
    FillerMap() = default;
    explicit FillerMap(QList<QPair<int, int>> anchors);
    bool calibrated() const { return !m_anchors.isEmpty(); }
    int charsFor(int tokens) const;  // ≥ 0, or -1 when not calibrated
    double charsPerToken() const;    // the marginal cost of a token; 0 when unknown
    const QList<QPair<int, int>> &anchors() const { return m_anchors; }

private:
    QList<QPair<int, int>> m_anchors; // sorted by tokens, distinct tokens
};

struct RequestShape {
    int inputTokens = -1;   // requested prompt length in tokens; -1 = the dataset's text, not counted
    int outputTokens = 1;   // sent as max_tokens
    int fillerChars = -1;   // synthetic prompts: filler length; -1 = words (not calibrated)
    const DatasetEntry *entry = nullptr;
    int images = 0;           // workload.images: image parts the request carries
    std::int64_t imageBytes = 0; // their encoded files' bytes (before base64)
};

class WorkloadPlan
{
public:
    WorkloadPlan(const WorkloadSpec &w, FillerMap fill, std::shared_ptr<const Dataset> dataset = {});
    RequestShape at(std::int64_t ticket, bool warmup) const;
    // A dataset read as sessions: how many turns session `id` has (0 = not dataset sessions),
    // and what its turn `turn` (1-based) asks for: that turn's entry and its lengths.
    int sessionTurns(std::int64_t id, bool warmup) const;
    RequestShape atTurn(std::int64_t ticket, std::int64_t session, int turn, bool warmup) const;
    const FillerMap &fill() const { return m_fill; }
    const Dataset *dataset() const { return m_dataset.get(); }
    // workload.images' pool, built once per sweep (workload/SyntheticImages); null without images.
    const ImagePool *images() const { return m_images.get(); }
    // The longest input any request asks for (prompt buffers are built for it once).
    int maxInputTokens() const { return m_maxInput; }

private:
    void fromEntry(const DatasetEntry &e, RequestShape &s) const; // a dataset entry's lengths
    WorkloadSpec m_w;
    FillerMap m_fill;
    std::shared_ptr<const Dataset> m_dataset;
    std::shared_ptr<const ImagePool> m_images;
    int m_maxInput = 0;
};

// The input lengths calibration must measure for this workload so that FillerMap serves every
// request: the one length; a histogram's few values each; else the lowest, middle and highest
// (a mooncake dataset's input lengths likewise). Empty = nothing to calibrate (text datasets).
QList<int> calibrationTargets(const WorkloadSpec &w, const Dataset *dataset);

} // namespace sb
