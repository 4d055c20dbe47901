#pragma once
// What a workload's requests look like beyond one fixed length: per-request input/output length
// distributions (`input_tokens: {mean, stddev, min, max}` …) and datasets (`workload.dataset`).
// Plain data plus the seeded sampling rule, so the spec, the engine and the designer share one
// definition (docs/spec-reference.md "Length distributions" and "Datasets").
#include <QList>
#include <QString>
#include <QStringList>
#include <QtGlobal>
#include <cstdint>
#include <optional>

namespace sb {

enum class LengthKind { Uniform, Normal, Choices };

struct LengthChoice {
    int value = 0;
    double weight = 1;
};

// `{min, max}` (uniform), `{mean, stddev, min, max}` (normal, drawn again while outside
// [min, max]), or a list of lengths / `{value, weight}` entries (a histogram).
struct LengthDistribution {
    LengthKind kind = LengthKind::Uniform;
    double mean = 0;
    double stddev = 0;
    int min = 1;
    int max = 0;
    QList<LengthChoice> choices;

    // The length of request `ticket`: a pure function of (seed, stream, ticket), so every cell and
    // every server sends the same lengths in the same order for a seed, whatever the order in
    // which connections take tickets. `stream` keeps input and output draws independent.
    int sample(std::uint64_t seed, std::uint64_t stream, std::int64_t ticket) const;
    double expectedMean() const; // of the distribution as drawn (the clipped normal's is estimated)
    int lowest() const;
    int highest() const;
    // "normal mean 256 stddev 64 in [64, 512]" — for logs, the designer and `validate`.
    QString describe() const;
};

constexpr std::uint64_t kInputStream = 1;
constexpr std::uint64_t kOutputStream = 2;
constexpr std::uint64_t kTurnsStream = 3;   // a session's number of turns, by session number
constexpr std::uint64_t kThinkStream = 4;   // the think time before a turn, by session and turn
constexpr std::uint64_t kPrefixStream = 5;  // which of shared_prefix_count prefixes a request (or session) uses
constexpr int kMaxLength = 1000000;       // tokens; a bound on any requested length
constexpr int kMaxLengthChoices = 10000;  // entries of a histogram list

// `workload.sessions: {turns, think_time_ms, history: full, session_header}`: each load slot (a
// concurrency level's connection, or an open-loop arrival) runs a chat session: turn 1, the whole
// answer, the think time, then turn 2 sent with every earlier user message and the server's own
// answers in `messages`, and so on. Turns and think times are numbers or distributions, drawn per
// session (and per turn) from the workload seed, so every cell and server sees the same sessions.
struct SessionSpec {
    int turns = 1;                                // fixed, or the distribution's mean
    std::optional<LengthDistribution> turnsDist;
    int thinkTimeMs = 0;                          // fixed, or the distribution's mean
    std::optional<LengthDistribution> thinkDist;
    QString header;                               // session_header: sends the session id (session-affine routers)
    // follow_up_tokens: each later turn's new user message, in tokens (a long first message and
    // short follow-ups, as chats go); 0 = input_tokens like the first turn
    int followUpTokens = 0;

    int turnsOf(std::uint64_t seed, std::int64_t session) const;
    int thinkMsBefore(std::uint64_t seed, std::int64_t session, int turn) const; // turn ≥ 2
    int maxTurns() const { return turnsDist ? turnsDist->highest() : turns; }
    double meanTurns() const { return turnsDist ? turnsDist->expectedMean() : turns; }
};
constexpr int kMaxSessionTurns = 1000;
constexpr int kMaxThinkTimeMs = 3600 * 1000;
// Distinct shared prefixes (`shared_prefix_count`): one per agent or tenant, never so many that
// the prefixes themselves are the load.
constexpr int kMaxSharedPrefixes = 1024;

enum class DatasetFormat { Jsonl, ShareGpt, Mooncake };
QString toString(DatasetFormat f);
std::optional<DatasetFormat> datasetFormatFromString(const QString &s);
QStringList datasetFormatNames();

// `workload.dataset: {format: jsonl|sharegpt|mooncake, path: FILE, block_tokens: 512}`
struct DatasetSpec {
    DatasetFormat format = DatasetFormat::Jsonl;
    QString path;          // relative paths are relative to the spec file's folder
    int blockTokens = 512; // mooncake: tokens per hash_id block (the trace's block size)
};

// `workload.images: {count, width, height, format: png|jpeg}`: synthetic images added to every
// chat request as OpenAI image_url content parts (base64 data URLs), generated locally from the
// workload's seed (workload/SyntheticImages). The bounds keep a request, and the pool of encoded
// images a phase holds, finite.
enum class ImageFormat { Png, Jpeg };
QString toString(ImageFormat f);
std::optional<ImageFormat> imageFormatFromString(const QString &s);
QStringList imageFormatNames();
struct ImageSpec {
    int count = 1;
    int width = 512;
    int height = 512;
    ImageFormat format = ImageFormat::Png;
    bool operator==(const ImageSpec &) const = default;
};
constexpr int kMaxImagesPerRequest = 16;
constexpr int kMinImageSide = 8;
constexpr int kMaxImageSide = 4096;
constexpr qint64 kMaxImagePixelsPerRequest = 16LL * 1024 * 1024; // count × width × height

struct WorkloadSpec;
// Range problems of a distribution / of the workload's shapes, as (key path, message): the
// validator reports them, the loader only uses a distribution's mean when it has none.
struct ShapeProblem {
    QString path;
    QString message;
};
// `lowest`/`highest`: the range every value must lie in (lengths 1..kMaxLength; think times from 0).
QList<ShapeProblem> lengthProblems(const LengthDistribution &d, const QString &path, int lowest = 1, int highest = kMaxLength);
QList<ShapeProblem> workloadShapeProblems(const WorkloadSpec &w);
QList<ShapeProblem> sessionProblems(const SessionSpec &s);

} // namespace sb
