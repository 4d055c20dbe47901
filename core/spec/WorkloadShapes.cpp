#include "spec/WorkloadShapes.h"
#include "spec/SweepSpec.h"
#include <QRegularExpression>
#include <algorithm>
#include <cmath>

namespace sb {

namespace {
// splitmix64: a well-mixed 64-bit hash, so draw k of request t is independent of every other
// draw without keeping generator state between requests (the same ticket gives the same length
// on every cell, server and resumed run).
std::uint64_t mix(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// A uniform double in (0, 1) for draw `k` of one request.
double unit(std::uint64_t seed, std::uint64_t stream, std::int64_t ticket, int k)
{
    const std::uint64_t h = mix(mix(mix(seed) ^ (stream * 0x632be59bd9b4e019ull)) ^ std::uint64_t(ticket) ^ (std::uint64_t(k) << 48));
    return (double(h >> 11) + 0.5) / 9007199254740992.0; // 53 bits, never 0 or 1
}

constexpr int kNormalTries = 64; // draws outside [min, max] are drawn again, then clamped

double normalDraw(std::uint64_t seed, std::uint64_t stream, std::int64_t ticket, int k)
{
    const double u1 = unit(seed, stream, ticket, 2 * k), u2 = unit(seed, stream, ticket, 2 * k + 1);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2); // Box-Muller
}
} // namespace

int LengthDistribution::sample(std::uint64_t seed, std::uint64_t stream, std::int64_t ticket) const
{
    switch (kind) {
    case LengthKind::Uniform: {
        const double span = double(max) - double(min) + 1;
        return std::min(max, min + int(unit(seed, stream, ticket, 0) * span));
    }
    case LengthKind::Normal:
        for (int k = 0; k < kNormalTries; ++k) {
            const long v = std::lround(mean + stddev * normalDraw(seed, stream, ticket, k));
            if (v >= min && v <= max)
                return int(v);
        }
        return std::clamp(int(std::lround(mean)), min, max);
    case LengthKind::Choices: {
        double total = 0;
        for (const LengthChoice &c : choices)
            total += c.weight;
        double at = unit(seed, stream, ticket, 0) * total;
        for (const LengthChoice &c : choices) {
            if (at < c.weight)
                return c.value;
            at -= c.weight;
        }
        return choices.isEmpty() ? 1 : choices.last().value;
    }
    }
    return 1;
}

double LengthDistribution::expectedMean() const
{
    switch (kind) {
    case LengthKind::Uniform:
        return (double(min) + double(max)) / 2;
    case LengthKind::Normal: {
        // The truncated normal's mean, by the same draws the requests use (deterministic).
        constexpr int kDraws = 4096;
        double sum = 0;
        for (int t = 0; t < kDraws; ++t)
            sum += sample(0x5eed, 99, t);
        return sum / kDraws;
    }
    case LengthKind::Choices: {
        double total = 0, sum = 0;
        for (const LengthChoice &c : choices)
            total += c.weight, sum += c.weight * c.value;
        return total > 0 ? sum / total : 0;
    }
    }
    return 0;
}

int LengthDistribution::lowest() const
{
    if (kind != LengthKind::Choices)
        return min;
    int v = kMaxLength;
    for (const LengthChoice &c : choices)
        v = std::min(v, c.value);
    return v;
}

int LengthDistribution::highest() const
{
    if (kind != LengthKind::Choices)
        return max;
    int v = 0;
    for (const LengthChoice &c : choices)
        v = std::max(v, c.value);
    return v;
}

QString LengthDistribution::describe() const
{
    switch (kind) {
    case LengthKind::Uniform:
        return QStringLiteral("uniform in [%1, %2]").arg(min).arg(max);
    case LengthKind::Normal:
        return QStringLiteral("normal mean %1 stddev %2 in [%3, %4]").arg(mean).arg(stddev).arg(min).arg(max);
    case LengthKind::Choices: {
        QStringList parts;
        for (const LengthChoice &c : choices)
            parts.append(c.weight == 1 ? QString::number(c.value) : QStringLiteral("%1 x%2").arg(c.value).arg(c.weight));
        if (parts.size() > 8)
            parts = parts.mid(0, 8) << QStringLiteral("… (%1 entries)").arg(choices.size());
        return QStringLiteral("one of [%1]").arg(parts.join(QStringLiteral(", ")));
    }
    }
    return {};
}

QString toString(DatasetFormat f)
{
    switch (f) {
    case DatasetFormat::Jsonl: return QStringLiteral("jsonl");
    case DatasetFormat::ShareGpt: return QStringLiteral("sharegpt");
    case DatasetFormat::Mooncake: return QStringLiteral("mooncake");
    }
    return {};
}

QStringList datasetFormatNames()
{
    return {QStringLiteral("jsonl"), QStringLiteral("sharegpt"), QStringLiteral("mooncake")};
}

std::optional<DatasetFormat> datasetFormatFromString(const QString &s)
{
    for (DatasetFormat f : {DatasetFormat::Jsonl, DatasetFormat::ShareGpt, DatasetFormat::Mooncake})
        if (toString(f) == s)
            return f;
    return std::nullopt;
}

QString toString(ImageFormat f)
{
    return f == ImageFormat::Jpeg ? QStringLiteral("jpeg") : QStringLiteral("png");
}

QStringList imageFormatNames()
{
    return {QStringLiteral("png"), QStringLiteral("jpeg")};
}

std::optional<ImageFormat> imageFormatFromString(const QString &s)
{
    for (ImageFormat f : {ImageFormat::Png, ImageFormat::Jpeg})
        if (toString(f) == s)
            return f;
    return std::nullopt;
}

namespace {
QList<ShapeProblem> imageProblems(const ImageSpec &im)
{
    QList<ShapeProblem> out;
    const QString p = QStringLiteral("workload.images");
    if (im.count < 1 || im.count > kMaxImagesPerRequest)
        out.append({p + QStringLiteral(".count"), QStringLiteral("expected an integer from 1 to %1 (images per request), got %2").arg(kMaxImagesPerRequest).arg(im.count)});
    const auto side = [&](const char *key, int v) {
        if (v < kMinImageSide || v > kMaxImageSide)
            out.append({p + QLatin1Char('.') + QLatin1String(key),
                        QStringLiteral("expected an integer from %1 to %2 (pixels), got %3").arg(kMinImageSide).arg(kMaxImageSide).arg(v)});
    };
    side("width", im.width);
    side("height", im.height);
    if (out.isEmpty() && qint64(im.count) * im.width * im.height > kMaxImagePixelsPerRequest)
        out.append({p, QStringLiteral("expected at most %1 pixels per request (count × width × height), got %2 × %3 × %4")
                           .arg(kMaxImagePixelsPerRequest).arg(im.count).arg(im.width).arg(im.height)});
    return out;
}
} // namespace

QList<ShapeProblem> lengthProblems(const LengthDistribution &d, const QString &path, int lowest, int highest)
{
    QList<ShapeProblem> out;
    const auto bad = [&](const QString &key, const QString &message) { out.append({key.isEmpty() ? path : path + QLatin1Char('.') + key, message}); };
    const QString range = QStringLiteral("an integer from %1 to %2").arg(lowest).arg(highest);
    if (d.kind == LengthKind::Choices) {
        if (d.choices.isEmpty())
            bad(QString(), QStringLiteral("expected at least one length"));
        for (int i = 0; i < d.choices.size(); ++i) {
            const QString at = QStringLiteral("%1[%2]").arg(path).arg(i);
            if (d.choices[i].value < lowest || d.choices[i].value > highest)
                out.append({at, QStringLiteral("expected %1, got %2").arg(range).arg(d.choices[i].value)});
            if (!(d.choices[i].weight > 0) || !std::isfinite(d.choices[i].weight))
                out.append({at + QStringLiteral(".weight"), QStringLiteral("expected a number > 0, got %1").arg(d.choices[i].weight)});
        }
        return out;
    }
    if (d.min < lowest || d.min > highest)
        bad(QStringLiteral("min"), QStringLiteral("expected %1, got %2").arg(range).arg(d.min));
    if (d.max < lowest || d.max > highest)
        bad(QStringLiteral("max"), QStringLiteral("expected %1, got %2").arg(range).arg(d.max));
    else if (d.max < d.min)
        bad(QStringLiteral("max"), QStringLiteral("expected max ≥ min (%1), got %2").arg(d.min).arg(d.max));
    if (d.kind == LengthKind::Normal) {
        if (!(d.mean >= lowest) || d.mean > highest || (lowest < 1 && !(d.mean > 0)))
            bad(QStringLiteral("mean"), QStringLiteral("expected a number from %1 to %2, got %3").arg(std::max(lowest, 1)).arg(highest).arg(d.mean));
        if (!(d.stddev >= 0))
            bad(QStringLiteral("stddev"), QStringLiteral("expected a number ≥ 0, got %1").arg(d.stddev));
        else if (out.isEmpty() && (d.mean + 3 * d.stddev < d.min || d.mean - 3 * d.stddev > d.max))
            bad(QString(), QStringLiteral("[min, max] = [%1, %2] lies more than 3 stddev from the mean %3: almost every draw would be clipped")
                               .arg(d.min).arg(d.max).arg(d.mean));
    }
    return out;
}

int SessionSpec::turnsOf(std::uint64_t seed, std::int64_t session) const
{
    return turnsDist ? std::clamp(turnsDist->sample(seed, kTurnsStream, session), 1, kMaxSessionTurns) : std::max(1, turns);
}

int SessionSpec::thinkMsBefore(std::uint64_t seed, std::int64_t session, int turn) const
{
    if (!thinkDist)
        return std::max(0, thinkTimeMs);
    // One draw per (session, turn): sessions are numbered far apart so their turns never meet.
    return std::clamp(thinkDist->sample(seed, kThinkStream, session * kMaxSessionTurns + turn), 0, kMaxThinkTimeMs);
}

QList<ShapeProblem> sessionProblems(const SessionSpec &s)
{
    QList<ShapeProblem> out;
    const QString turns = QStringLiteral("workload.sessions.turns"), think = QStringLiteral("workload.sessions.think_time_ms");
    if (s.turnsDist)
        out += lengthProblems(*s.turnsDist, turns, 1, kMaxSessionTurns);
    else if (s.turns < 1 || s.turns > kMaxSessionTurns)
        out.append({turns, QStringLiteral("expected an integer from 1 to %1, got %2").arg(kMaxSessionTurns).arg(s.turns)});
    if (s.thinkDist) // 0 ms is a fine think time, so its distribution may start at 0 (lengths may not)
        out += lengthProblems(*s.thinkDist, think, 0, kMaxThinkTimeMs);
    else if (s.thinkTimeMs < 0 || s.thinkTimeMs > kMaxThinkTimeMs)
        out.append({think, QStringLiteral("expected an integer from 0 to %1 (ms), got %2").arg(kMaxThinkTimeMs).arg(s.thinkTimeMs)});
    if (s.followUpTokens < 0 || s.followUpTokens > kMaxLength)
        out.append({QStringLiteral("workload.sessions.follow_up_tokens"),
                    QStringLiteral("expected an integer from 1 to %1, got %2").arg(kMaxLength).arg(s.followUpTokens)});
    // An HTTP header name is a token (RFC 9110): nothing that could end the header line.
    static const QRegularExpression token(QStringLiteral("^[!#$%&'*+.^_`|~0-9A-Za-z-]+\\z"));
    if (!s.header.isEmpty() && !token.match(s.header).hasMatch())
        out.append({QStringLiteral("workload.sessions.session_header"),
                    QStringLiteral("expected an HTTP header name (letters, digits, '-'), such as X-Session-ID")});
    return out;
}

QList<ShapeProblem> workloadShapeProblems(const WorkloadSpec &w)
{
    QList<ShapeProblem> out;
    if (w.inputLengths)
        out += lengthProblems(*w.inputLengths, QStringLiteral("workload.input_tokens"));
    if (w.outputLengths)
        out += lengthProblems(*w.outputLengths, QStringLiteral("workload.output_tokens"));
    if (w.seed < 0)
        out.append({QStringLiteral("workload.seed"), QStringLiteral("expected an integer ≥ 0, got %1").arg(w.seed)});
    if (w.dataset) {
        const QString p = QStringLiteral("workload.dataset");
        if (w.dataset->path.trimmed().isEmpty())
            out.append({p + QStringLiteral(".path"), QStringLiteral("expected the path of the dataset file")});
        if (w.dataset->blockTokens < 1 || w.dataset->blockTokens > 65536)
            out.append({p + QStringLiteral(".block_tokens"), QStringLiteral("expected an integer from 1 to 65536, got %1").arg(w.dataset->blockTokens)});
        if (w.inputLengths)
            out.append({QStringLiteral("workload.input_tokens"), QStringLiteral("a distribution cannot be combined with a dataset: the dataset gives the prompts")});
        if (w.prompts == PromptMode::SharedPrefix)
            out.append({QStringLiteral("workload.prompts"), QStringLiteral("shared_prefix cannot be combined with a dataset: the dataset gives the prompts")});
    }
    if (w.sessions) {
        out += sessionProblems(*w.sessions);
        // With a dataset the file gives each session's turns (Dataset: ShareGPT conversations,
        // mooncake and jsonl session_id).
        if (w.dataset && (w.sessions->turnsDist || w.sessions->turns != 1))
            out.append({QStringLiteral("workload.sessions.turns"), QStringLiteral("not with a dataset: each conversation of the dataset gives its own turns")});
        if (w.dataset && w.sessions->followUpTokens > 0)
            out.append({QStringLiteral("workload.sessions.follow_up_tokens"), QStringLiteral("not with a dataset: the dataset gives each turn's message")});
    }
    if (w.sharedPrefixCount != 1 && w.prompts != PromptMode::SharedPrefix)
        out.append({QStringLiteral("workload.shared_prefix_count"), QStringLiteral("only allowed with prompts: shared_prefix")});
    else if (w.sharedPrefixCount < 1 || w.sharedPrefixCount > kMaxSharedPrefixes)
        out.append({QStringLiteral("workload.shared_prefix_count"),
                    QStringLiteral("expected an integer from 1 to %1, got %2").arg(kMaxSharedPrefixes).arg(w.sharedPrefixCount)});
    if (w.images) {
        out += imageProblems(*w.images);
        if (w.dataset)
            out.append({QStringLiteral("workload.images"), QStringLiteral("images cannot be combined with a dataset: images go with synthetic prompts")});
    }
    if (w.prompts == PromptMode::SharedPrefix && w.inputLengths && w.sharedPrefixTokens >= w.inputLengths->lowest())
        out.append({QStringLiteral("workload.shared_prefix_tokens"),
                    QStringLiteral("expected fewer than the shortest input length (%1), got %2").arg(w.inputLengths->lowest()).arg(w.sharedPrefixTokens)});
    return out;
}

} // namespace sb
