#pragma once
// Prompts (and output lengths) from a file: `workload.dataset: {format: jsonl|sharegpt|mooncake,
// path: FILE}` (docs/spec-reference.md "Datasets"). Read once before the sweep, bounded: a
// regular file only, each line and the whole file capped, and every malformed line is an error
// naming FILE:LINE — a dataset that loads is used whole, never partly.
#include "spec/WorkloadShapes.h"
#include <QByteArray>
#include <QList>
#include <QString>
#include <vector>

namespace sb {

struct DatasetEntry {
    // The prompt as JSON, built once at load, one form only so memory stays about the file's
    // size: `textJson` a JSON string (a `text` prompt, sent as one user message on chat), or
    // `messagesJson` a chat `messages` array (completions get its contents joined by newlines,
    // promptTextJson()). Both empty for mooncake, whose prompts are made from hash_ids blocks.
    QByteArray messagesJson;
    QByteArray textJson;
    QByteArray promptTextJson() const; // the prompt as one JSON string, whichever form it has
    int inputTokens = -1;     // mooncake input_length; -1 = not given (text prompts)
    int outputTokens = -1;    // jsonl output_tokens, mooncake output_length; -1 = not given
    int outputChars = -1;     // sharegpt: the first model turn's length in characters
    std::vector<quint64> hashIds; // mooncake: one per block_tokens block of the prompt
    double timestampMs = -1;  // mooncake, jsonl: arrival time in ms (any origin); -1 = none
    int delayMs = -1;         // mooncake sessions: `delay`, the think time before this turn in ms; -1 = none
    int line = 0;             // 1-based line of the entry in the file
};

// One conversation of a dataset read as sessions (workload.sessions with a dataset): its turns
// are entries[first .. first + turns), in the order they are sent.
struct DatasetSession {
    std::uint32_t first = 0;
    std::uint32_t turns = 0;
};

struct DatasetStats {
    int entries = 0;
    int skipped = 0;           // sharegpt conversations without a user turn followed by a model turn
    double meanPromptChars = 0; // text prompts
    int minInput = -1, maxInput = -1; // mooncake input lengths (tokens)
    double meanInput = 0;
    int withOutput = 0;        // entries that give their output length
    double meanOutput = 0;     // over those (tokens; sharegpt: characters / 4 until calibrated)
    int blocks = 0;            // mooncake: hash_ids over all entries
    int uniqueBlocks = 0;      // distinct hash_ids: blocks - uniqueBlocks are shared prefixes
    bool timestamps = false;   // every entry (as sessions: every session's first turn) has a timestamp
    int sessions = 0;          // conversations read as sessions; 0 = single-turn entries
    int maxTurns = 0;          // the longest of them, in turns
};

class Dataset
{
public:
    DatasetFormat format = DatasetFormat::Jsonl;
    QString path;              // as resolved (absolute)
    int blockTokens = 512;
    QString sha256;            // of the file's bytes (hex): in the spec fingerprint, so a changed file never resumes
    std::vector<DatasetEntry> entries;
    // Read as sessions: each conversation (ShareGPT) or session id (mooncake `session_id`), its
    // turns contiguous in `entries`; empty = one request per entry.
    std::vector<DatasetSession> sessions;
    DatasetStats stats;

    bool empty() const { return entries.empty(); }
    // The entry request `ticket` sends: the file's order, wrapping around. Warmup requests take
    // them from the end backwards, so a warmup does not pre-fill the measured prompts' cache.
    const DatasetEntry &entryFor(std::int64_t ticket, bool warmup) const;
    // As sessions: the conversation session number `id` replays (file order, wrapping around;
    // warmup sessions from the end backwards, as warmup entries), and its turn (1-based) entry.
    const DatasetSession &sessionFor(std::int64_t id, bool warmup) const;
    const DatasetEntry &turnEntry(std::int64_t id, int turn, bool warmup) const;
    // Arrival times (ms from the trace's first entry) for open-loop replay; empty when any entry
    // has none. Index i belongs to entries[i]; as sessions, to sessions[i] (its first turn's).
    std::vector<double> timestampsMs() const;
    // "mooncake trace: 2000 requests, input 112-15001 tokens (mean 8772), …" for logs and checks.
    QString describe() const;
};

// Bounds on what a dataset may hold (README "Reliability").
inline constexpr qint64 kMaxDatasetBytes = qint64(1024) * 1024 * 1024; // 1 GiB
inline constexpr qint64 kMaxDatasetLineBytes = qint64(16) * 1024 * 1024;
inline constexpr int kMaxDatasetEntries = 1000000;
inline constexpr int kMaxHashIdsPerEntry = 4096;
// ShareGPT gives a reply's length in characters: its max_tokens at this many characters a token
// until calibration measures the server's own. A reply longer than kMaxLength tokens at this
// rate is refused at its line.
inline constexpr double kShareGptCharsPerToken = 4.0;

// The spec's path resolved against the spec file's folder (relative paths), else as given.
QString resolveDatasetPath(const DatasetSpec &spec, const QString &specFile);
// Loads the whole dataset or nothing: false and *error ("FILE:LINE: what was expected").
// `asSessions` (workload.sessions is set): ShareGPT conversations keep every user turn and its
// reply, mooncake entries are grouped by `session_id`; else one request per entry.
bool loadDataset(const DatasetSpec &spec, const QString &specFile, Dataset *out, QString *error, bool asSessions = false);

} // namespace sb
