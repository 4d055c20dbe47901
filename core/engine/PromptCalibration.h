#pragma once
// Prompts that are as long as asked on the server's own tokenizer, with no tokenizer download.
// `input_tokens: 256` used to send 256 words: a real llama-server counted 300 prompt tokens
// (+17 %), a real vLLM with a small BPE vocabulary 2.25 tokens per word (+125 %). Before a
// server's first cell, probe requests shaped exactly like the benchmark's (same endpoint, chat
// template, tag width; no shared prefix: its characters come out of the filler) but with max_tokens 1 and no streaming are sent through the
// control client (never counted as load); each answer's usage.prompt_tokens says how the server
// counted that prompt. Interpolation between a too-short and a too-long filler (in characters)
// converges on the requested count, template overhead included. The result is cached per model
// and endpoint, so servers serving the same model get the same prompt text and a comparison is
// fair (docs/ARCHITECTURE.md §15). A server's counts are believed only within bounds: no
// probe's filler passes maxFillerChars (workload/WorkloadPlan), a count that is no count or does
// not grow with the prompt fails the calibration by name, and so does a result far off the
// target; a failed calibration leaves the prompts as words.
#include "hooks/ControlClient.h"
#include "spec/SweepSpec.h"
#include <QHash>
#include <QJsonObject>
#include <QStringList>
#include <atomic>
#include <functional>

namespace sb {

// Why a calibration failed, by name (the cell's warning, the log and `hooks check` lead with it).
enum class CalibrationFailure {
    None,
    NoAnswer,          // no_answer: transport or HTTP error, no usage.prompt_tokens / count in the answer
    NonsenseCount,     // nonsense_count: a count that is no token count (≤ 0, -0.0, fractional, past 10^9)
    CountNotGrowing,   // count_not_growing: a prompt longer by at least two tokens' worth counted no more
    FillerCap,         // filler_cap: maxFillerChars (workload/WorkloadPlan) reached below the target
    FixedPartTooLong,  // fixed_part_too_long: the prompt without filler is already past the target
    ContextLimit,      // context_limit: the server refuses (400) prompts as long as the target
    FarFromTarget,     // far_from_target: the closest length found misses by more than kCalibrationMiss
};
QString calibrationFailureName(CalibrationFailure f);

// A calibration whose closest length misses the target by more than this share (and more than
// kCalibrationMissTokens) failed: requests fall back to words. A real tokenizer lands within a
// token (one filler character adds at most about one), so a larger miss means the counts cannot
// be believed; five times the cells' length tolerance (engine/CellValidity) because the words a
// failed calibration falls back to are off by 17-125 % on real servers, so a calibrated prompt
// a few per cent off is still the better one.
inline constexpr double kCalibrationMissShare = 0.10;
inline constexpr int kCalibrationMissTokens = 2;
bool calibrationMissTooFar(int target, double measured);

struct PromptCalibration {
    int target = 0;          // requested prompt tokens
    int fillerChars = -1;    // -1 = not calibrated (word heuristic)
    int measuredTokens = -1; // the server's count of the chosen prompt
    int probes = 0;          // requests sent
    int tokenizeCalls = 0;   // POST /tokenize calls (the cheaper path, when the server has it)
    bool viaTokenize = false; // the search ran on /tokenize, checked by probes
    CalibrationFailure failure = CalibrationFailure::None;
    QString error;           // why calibration failed (requests then use the word heuristic)
    bool ok() const { return fillerChars >= 0; }
    // "far_from_target: the closest ..." for warnings and logs; empty when it did not fail.
    QString failureText() const;
    QJsonObject toJson() const;
    // One saved calibration (calibration.json) checked like any input: target_tokens a whole
    // number equal to `keyTarget` (the length its key names), filler_chars a whole number within
    // maxFillerChars(target_tokens), measured_tokens not far from the target, counters whole
    // numbers. False and *error saying which key holds what, and what was expected.
    static bool fromJson(const QJsonValue &v, int keyTarget, PromptCalibration *out, QString *error);
};

// The key servers share a calibration under: same model and endpoint, same prompt shape.
QString calibrationKey(const ServerSpec &server, const WorkloadSpec &w);

// The calibrations of one results folder (OUT/calibration.json): a resumed run reuses them, so
// its new cells get the same prompts as the kept ones. The file is read as any input is (a
// regular file within kMaxCalibrationFileBytes, each entry checked by PromptCalibration::fromJson):
// an entry that fails is not used (its length is calibrated again, and the new result replaces
// it); a file that cannot be read at all is set aside as calibration.json.refused-<time> before
// the first new calibration is saved, so nothing in it is lost.
class CalibrationStore
{
public:
    explicit CalibrationStore(const QString &outDir);
    const PromptCalibration *find(const QString &key) const;
    // Why the saved entry for `key` was refused (or the whole file, whatever it held); empty when
    // it was not.
    QString refusal(const QString &key) const { return m_refused.value(key, m_fileProblem); }
    // Every refusal, the file's own first ("FILE: ..."), for the run's log.
    const QStringList &problems() const { return m_problems; }
    const QHash<QString, PromptCalibration> &entries() const { return m_byKey; }
    // Records and saves (atomically); false and *error when the file could not be written.
    bool put(const QString &key, const PromptCalibration &c, QString *error);

private:
    QString m_path;
    QJsonObject m_all;
    QHash<QString, PromptCalibration> m_byKey;
    QHash<QString, QString> m_refused;
    QStringList m_problems;
    QString m_fileProblem;      // the whole file was refused: set aside before the first write
    bool m_fileSetAside = false;
};

class PromptCalibrator
{
public:
    PromptCalibrator(ControlClient &client, const std::atomic<bool> *cancel) : m_client(client), m_cancel(cancel) {}
    // `baseUrl`: the server's OpenAI base URL; `tag`: a prompt tag of the benchmark's shape.
    // No prompt it sends has more than maxFillerChars(input_tokens) filler characters.
    PromptCalibration calibrate(const ServerSpec &server, const QString &baseUrl, const WorkloadSpec &w, const QByteArray &tag);

private:
    // One count: the tokens (≥ 1), else why not.
    struct Count {
        int tokens = -1;
        bool refused = false; // HTTP 400: past the context limit (or otherwise refused); the search shrinks
        CalibrationFailure failure = CalibrationFailure::None;
        QString error;
    };
    // The server's prompt token count for a filler of `chars` characters, by a probe.
    Count probe(const ServerSpec &server, const QString &baseUrl, const WorkloadSpec &w, const QByteArray &tag, int chars, int ticket);
    // The server's token count of the same prompt by its /tokenize route (vLLM: the chat
    // template applied; llama.cpp: the text alone — probes measure the difference); fails when
    // the route is missing or answers something else.
    Count tokenize(const ServerSpec &server, const QString &baseUrl, const WorkloadSpec &w, const QByteArray &tag, int chars, int ticket);
    // Finds the filler length whose mean count by `measure` is closest to `target` (bracket,
    // then interpolation), within maxFillerChars(c.target); false and c.failure / c.error when
    // it cannot.
    bool search(double target, const std::function<double(int)> &measure, PromptCalibration &c, int *best, double *value);

    ControlClient &m_client;
    const std::atomic<bool> *m_cancel;
};

} // namespace sb
