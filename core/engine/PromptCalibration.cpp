#include "engine/PromptCalibration.h"
#include "hooks/HookRunner.h"
#include "io/BoundedJson.h"
#include "io/DurableWrite.h"
#include "load/RequestFactory.h"
#include "workload/WorkloadPlan.h"
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>
#include <cmath>

namespace sb {

namespace {
constexpr int kTicketsPerProbe = 4;
constexpr int kMaxProbes = 24 * kTicketsPerProbe;
constexpr double kProbeTimeoutS = 120;
constexpr double kRefused = -2;                         // a measure's "HTTP 400": the prompt is too long
constexpr qint64 kMaxTokenizeBodyBytes = 64 * 1024 * 1024; // a token list of a long prompt (~8 bytes a token)
constexpr qint64 kMaxCount = 1000000000;                // a token count past this is no count
constexpr int kMaxSavedCounter = 1000000;                // probes / tokenize_calls in calibration.json

// A count a server gave: a whole number of at least one token (every prompt holds its unique lead).
std::optional<int> tokenCount(const QJsonValue &v)
{
    const std::optional<qint64> n = jsonWholeNumber(v, 1, kMaxCount);
    return n ? std::optional<int>(int(*n)) : std::nullopt;
}

QString jsonText(const QJsonValue &v)
{
    if (v.isUndefined())
        return QStringLiteral("missing");
    if (v.isDouble() && v.toDouble() == 0 && std::signbit(v.toDouble()))
        return QStringLiteral("-0.0");
    return QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact).chopped(1).mid(1)).left(80);
}
} // namespace

QString calibrationFailureName(CalibrationFailure f)
{
    switch (f) {
    case CalibrationFailure::None: return QStringLiteral("none");
    case CalibrationFailure::NoAnswer: return QStringLiteral("no_answer");
    case CalibrationFailure::NonsenseCount: return QStringLiteral("nonsense_count");
    case CalibrationFailure::CountNotGrowing: return QStringLiteral("count_not_growing");
    case CalibrationFailure::FillerCap: return QStringLiteral("filler_cap");
    case CalibrationFailure::FixedPartTooLong: return QStringLiteral("fixed_part_too_long");
    case CalibrationFailure::ContextLimit: return QStringLiteral("context_limit");
    case CalibrationFailure::FarFromTarget: return QStringLiteral("far_from_target");
    }
    return QStringLiteral("none");
}

bool calibrationMissTooFar(int target, double measured)
{
    const double miss = std::abs(measured - target);
    return !(miss <= kCalibrationMissTokens || miss <= kCalibrationMissShare * target);
}

QString PromptCalibration::failureText() const
{
    if (failure == CalibrationFailure::None && error.isEmpty())
        return {};
    return calibrationFailureName(failure == CalibrationFailure::None ? CalibrationFailure::NoAnswer : failure) + QStringLiteral(": ") + error;
}

QJsonObject PromptCalibration::toJson() const
{
    QJsonObject o{{QStringLiteral("target_tokens"), target}, {QStringLiteral("filler_chars"), fillerChars},
                  {QStringLiteral("measured_tokens"), measuredTokens}, {QStringLiteral("probes"), probes}};
    if (!error.isEmpty())
        o.insert(QStringLiteral("error"), error);
    if (viaTokenize)
        o.insert(QStringLiteral("tokenize_calls"), tokenizeCalls);
    return o;
}

bool PromptCalibration::fromJson(const QJsonValue &v, int keyTarget, PromptCalibration *out, QString *error)
{
    if (!v.isObject()) {
        *error = QStringLiteral("is %1, expected an object").arg(jsonText(v));
        return false;
    }
    const QJsonObject o = v.toObject();
    PromptCalibration c;
    // Each check names the key and what it holds ("missing" when it is not there).
    const auto whole = [&](const char *key, qint64 lo, qint64 hi, bool optional, int *to) {
        const QJsonValue x = o.value(QLatin1String(key));
        if (optional && x.isUndefined())
            return true;
        const std::optional<qint64> n = jsonWholeNumber(x, lo, hi);
        if (!n)
            *error = QStringLiteral("%1 is %2, expected a whole number from %3 to %4").arg(QLatin1String(key), jsonText(x)).arg(lo).arg(hi);
        else
            *to = int(*n);
        return n.has_value();
    };
    if (!whole("target_tokens", 1, kMaxLength, false, &c.target))
        return false;
    if (c.target != keyTarget) {
        *error = QStringLiteral("target_tokens is %1, but its key is for %2-token prompts").arg(c.target).arg(keyTarget);
        return false;
    }
    if (!whole("filler_chars", 0, maxFillerChars(c.target), false, &c.fillerChars)) {
        error->append(QStringLiteral(" (%1 characters a token at most, for %2 tokens)").arg(kMaxFillerCharsPerToken).arg(c.target));
        return false;
    }
    if (!whole("measured_tokens", 1, kMaxLength, false, &c.measuredTokens) || !whole("probes", 0, kMaxSavedCounter, false, &c.probes)
        || !whole("tokenize_calls", 0, kMaxSavedCounter, true, &c.tokenizeCalls))
        return false;
    if (calibrationMissTooFar(c.target, c.measuredTokens)) {
        *error = QStringLiteral("measured_tokens %1 is too far from target_tokens %2 for a calibration that succeeded").arg(c.measuredTokens).arg(c.target);
        return false;
    }
    const QJsonValue e = o.value(QStringLiteral("error"));
    if (!e.isUndefined() && !e.isString()) {
        *error = QStringLiteral("error is %1, expected a string").arg(jsonText(e));
        return false;
    }
    c.error = e.toString().left(1000);
    c.viaTokenize = c.tokenizeCalls > 0;
    *out = c;
    return true;
}

CalibrationStore::CalibrationStore(const QString &outDir)
    : m_path(outDir + QStringLiteral("/calibration.json"))
{
    const QFileInfo info(m_path);
    if (!info.exists() && !info.isSymLink())
        return;
    const QString name = QDir::toNativeSeparators(m_path);
    QString error;
    JsonFileCaps caps;
    caps.maxBytes = kMaxCalibrationFileBytes;
    if (!readJsonFile(m_path, &m_all, &error, caps)) {
        m_fileProblem = error;
        m_problems.append(error + QStringLiteral(": not used; every length is calibrated again"));
        return;
    }
    for (auto it = m_all.begin(); it != m_all.end(); ++it) {
        // The key is calibrationKey's "model|endpoint|tokens|prefix|mode" (a model may hold '|').
        bool keyOk = false;
        const int keyTarget = it.key().section(QLatin1Char('|'), -3, -3).toInt(&keyOk);
        PromptCalibration c;
        if (keyOk && PromptCalibration::fromJson(it.value(), keyTarget, &c, &error)) {
            m_byKey.insert(it.key(), c);
            continue;
        }
        if (!keyOk)
            error = QStringLiteral("the key names no prompt length (expected model|endpoint|tokens|prefix|mode)");
        const QString why = QStringLiteral("%1: key \"%2\": %3").arg(name, it.key().left(200), error);
        m_refused.insert(it.key(), why);
        m_problems.append(why + QStringLiteral(": not used; that length is calibrated again"));
    }
}

const PromptCalibration *CalibrationStore::find(const QString &key) const
{
    const auto it = m_byKey.constFind(key);
    return it == m_byKey.cend() ? nullptr : &it.value();
}

bool CalibrationStore::put(const QString &key, const PromptCalibration &c, QString *error)
{
    m_byKey.insert(key, c);
    if (!c.ok()) // remembered for this run only: a resumed run tries again
        return true;
    if (!m_fileProblem.isEmpty() && !m_fileSetAside) { // kept for whoever wants to know what was in it, never overwritten
        const QString aside = m_path + QStringLiteral(".refused-") + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'HHmmsszzz'Z'"));
        if (!QFile::rename(m_path, aside) && (QFileInfo::exists(m_path) || QFileInfo(m_path).isSymLink())) {
            *error = QStringLiteral("cannot set the refused %1 aside as %2; the new calibration is not saved").arg(QDir::toNativeSeparators(m_path), aside);
            return false;
        }
        m_fileSetAside = true;
    }
    m_all.insert(key, c.toJson());
    return writeFileAtomically(m_path, QJsonDocument(m_all).toJson(), error);
}

namespace {
// A probe is the benchmark's request without shared prefix or session: one answer token, not
// streamed. Prefixes are sized from the calibration's characters per token afterwards
// (load/RequestFactory), taking their characters out of the filler.
WorkloadSpec probeWorkload(const WorkloadSpec &w)
{
    WorkloadSpec shape = w;
    shape.outputTokens = 1;
    shape.streaming = false;
    shape.prompts = PromptMode::Unique;
    shape.sharedPrefixTokens = 0;
    shape.sharedPrefixCount = 1;
    shape.sessions.reset();
    return shape;
}
} // namespace

QString calibrationKey(const ServerSpec &server, const WorkloadSpec &w)
{
    return QStringLiteral("%1|%2|%3|%4|%5")
        .arg(server.model, toString(server.endpoint))
        .arg(w.inputTokens)
        .arg(w.prompts == PromptMode::SharedPrefix ? w.sharedPrefixTokens : 0)
        .arg(toString(w.prompts));
}

PromptCalibrator::Count PromptCalibrator::probe(const ServerSpec &server, const QString &baseUrl, const WorkloadSpec &w, const QByteArray &tag,
                                                int chars, int ticket)
{
    const WorkloadSpec probeShape = probeWorkload(w);
    const ServerTarget target = resolveTarget(baseUrl, server.endpoint);
    const RequestFactory factory(server, target, probeShape, tag, chars);
    HookTarget control;
    control.server = &server;
    control.apiKey = resolveApiKey(server);
    const QList<QPair<QByteArray, QByteArray>> headers = controlHeaders(control); // as every control call sends them
    const ControlResponse r = m_client.call("POST", QUrl(target.origin + QString::fromUtf8(target.path)), headers, factory.body(ticket),
                                            kProbeTimeoutS, m_cancel);
    Count n;
    if (r.status != 200) {
        n.failure = r.status == 400 ? CalibrationFailure::ContextLimit : CalibrationFailure::NoAnswer;
        n.refused = r.status == 400;
        n.error = r.status == 0 ? r.transportError : QStringLiteral("HTTP %1: %2").arg(r.status).arg(QString::fromUtf8(r.body.left(160)).simplified());
        return n;
    }
    const QJsonValue tokens = QJsonDocument::fromJson(r.body).object().value(QStringLiteral("usage")).toObject().value(QStringLiteral("prompt_tokens"));
    if (tokens.isUndefined() || tokens.isNull()) {
        n.failure = CalibrationFailure::NoAnswer;
        n.error = QStringLiteral("the answer has no usage.prompt_tokens");
    } else if (const std::optional<int> count = tokenCount(tokens)) {
        n.tokens = *count;
    } else {
        n.failure = CalibrationFailure::NonsenseCount;
        n.error = QStringLiteral("usage.prompt_tokens %1 is no token count (a whole number of at least 1 expected)").arg(jsonText(tokens));
    }
    return n;
}

PromptCalibrator::Count PromptCalibrator::tokenize(const ServerSpec &server, const QString &baseUrl, const WorkloadSpec &w, const QByteArray &tag,
                                                   int chars, int ticket)
{
    // The prompt exactly as a probe would send it, taken out of the probe's body.
    const WorkloadSpec shape = probeWorkload(w);
    const ServerTarget target = resolveTarget(baseUrl, server.endpoint);
    const QJsonObject probeBody = QJsonDocument::fromJson(RequestFactory(server, target, shape, tag, chars).body(ticket)).object();
    QJsonObject body{{QStringLiteral("model"), server.model}};
    if (server.flavor == Flavor::Llamacpp) { // {"content"}: no chat template, a constant the probes measure
        QString text = probeBody.value(QStringLiteral("prompt")).toString();
        if (server.endpoint == Endpoint::Chat)
            text = probeBody.value(QStringLiteral("messages")).toArray().at(0).toObject().value(QStringLiteral("content")).toString();
        body.insert(QStringLiteral("content"), text);
    } else if (server.endpoint == Endpoint::Chat) { // vLLM applies the chat template as a chat request would
        body.insert(QStringLiteral("messages"), probeBody.value(QStringLiteral("messages")));
    } else {
        body.insert(QStringLiteral("prompt"), probeBody.value(QStringLiteral("prompt")));
    }
    HookTarget control;
    control.server = &server;
    control.apiKey = resolveApiKey(server);
    const ControlResponse r = m_client.call("POST", QUrl(target.origin + QStringLiteral("/tokenize")), controlHeaders(control),
                                            QJsonDocument(body).toJson(QJsonDocument::Compact), kProbeTimeoutS, m_cancel,
                                            kMaxTokenizeBodyBytes);
    Count n;
    n.failure = CalibrationFailure::NoAnswer;
    if (r.status != 200 || !r.complete()) {
        n.error = r.status == 0 ? r.transportError : QStringLiteral("/tokenize: HTTP %1").arg(r.status);
        return n;
    }
    const QJsonObject o = QJsonDocument::fromJson(r.body).object();
    const QJsonValue count = o.value(QStringLiteral("count")); // vLLM; llama.cpp has only the list
    const QJsonValue list = o.value(QStringLiteral("tokens"));
    const QJsonValue given = count.isUndefined() && list.isArray() ? QJsonValue(list.toArray().size()) : count;
    if (given.isUndefined()) {
        n.error = QStringLiteral("/tokenize answered without count or tokens");
    } else if (const std::optional<int> tokens = tokenCount(given)) {
        n.tokens = *tokens;
        n.failure = CalibrationFailure::None;
    } else {
        n.failure = CalibrationFailure::NonsenseCount;
        n.error = QStringLiteral("/tokenize counted %1 tokens, which is no token count (a whole number of at least 1 expected)").arg(jsonText(given));
    }
    return n;
}

bool PromptCalibrator::search(double target, const std::function<double(int)> &measure, PromptCalibration &c, int *bestOut, double *valueOut)
{
    const auto spent = [&] { return c.probes + c.tokenizeCalls / 8 >= kMaxProbes; }; // a /tokenize call costs far less
    const auto fail = [&](CalibrationFailure f, const QString &why) {
        c.failure = f;
        c.error = why;
        return false;
    };
    // No filler ever goes past the cap: a server whose counts grow too slowly (or not at all)
    // ends the search there instead of doubling the prompt until memory runs out.
    const int cap = maxFillerChars(c.target);
    // Bracket the target: lo gives fewer tokens than asked, hi at least as many.
    int lo = 0;
    double pLo = measure(0);
    if (pLo < 0)
        return false;
    if (pLo >= target)
        return fail(CalibrationFailure::FixedPartTooLong,
                    QStringLiteral("the prompt's fixed part alone is %1 tokens, more than the %2 asked for").arg(pLo).arg(target));
    const double fixedPart = pLo;
    // A filler this much longer than none adds at least a token on any tokenizer within the cap's
    // characters per token (and the digits' ±1 from ticket to ticket is averaged out).
    const auto stuck = [&](int chars, double p) { return chars >= 2 * kMaxFillerCharsPerToken && p <= fixedPart; };
    const auto notGrowing = [&](int chars, double p) {
        return fail(CalibrationFailure::CountNotGrowing, QStringLiteral("the server counts %1 tokens for a prompt with %2 filler characters, no more than "
                                                                        "for none (%3): its counts do not follow the prompt")
                                                             .arg(p).arg(chars).arg(fixedPart));
    };
    int hi = std::min(cap, std::max(8, int((target - pLo) * 4)));
    double pHi = measure(hi);
    // A 400 past the context limit: halve the step until the server takes the prompt. A target
    // beyond the limit then fails with the server's own words.
    while (pHi == kRefused && hi - lo > 1 && !spent())
        hi = lo + (hi - lo) / 2, pHi = measure(hi);
    if (pHi >= 0 && stuck(hi, pHi))
        return notGrowing(hi, pHi);
    while (pHi >= 0 && pHi < target && !spent()) {
        if (hi >= cap)
            return fail(CalibrationFailure::FillerCap,
                        QStringLiteral("the server counts only %1 tokens for %2 filler characters, the most %3 tokens may take (%4 characters a token): "
                                       "its counts are not believable")
                            .arg(pHi).arg(hi).arg(c.target).arg(kMaxFillerCharsPerToken));
        lo = hi, pLo = pHi;
        int next = std::min(cap, hi * 2);
        double pNext = measure(next);
        while (pNext == kRefused && next - lo > 1 && !spent())
            next = lo + (next - lo) / 2, pNext = measure(next);
        if (pNext == kRefused || next == lo)
            return fail(CalibrationFailure::ContextLimit, QStringLiteral("the server refuses prompts past %1 tokens (%2), fewer than the %3 asked for")
                                                              .arg(pLo).arg(c.error).arg(target));
        hi = next, pHi = pNext;
        if (pHi >= 0 && stuck(hi, pHi))
            return notGrowing(hi, pHi);
    }
    if (pHi < 0)
        return false;
    if (pHi < target) // the probe budget ran out before the bracket closed
        return fail(CalibrationFailure::FarFromTarget,
                    QStringLiteral("%1 probes reached only %2 tokens (%3 filler characters), short of the %4 asked for").arg(c.probes).arg(pHi).arg(hi).arg(target));
    // Interpolate inside [lo, hi] (token counts grow about linearly with characters), keeping
    // the bracket, until a filler's mean is within half a token or no character is left between.
    int best = std::abs(pHi - target) < 0.5 ? hi : -1;
    double pBest = pHi;
    while (best < 0 && hi - lo > 1 && !spent() && !(m_cancel && m_cancel->load())) {
        const double frac = (target - pLo) / std::max(1e-9, pHi - pLo);
        const int mid = std::clamp(lo + int(std::lround(frac * (hi - lo))), lo + 1, hi - 1);
        const double p = measure(mid);
        if (p == kRefused) { // refused inside the bracket: too long as well
            hi = mid;
            continue;
        }
        if (p < 0)
            return false;
        if (std::abs(p - target) < 0.5)
            best = mid, pBest = p;
        else if (p < target)
            lo = mid, pLo = p;
        else
            hi = mid, pHi = p;
    }
    if (best < 0) { // no length is within half a token (a character adds two): the closer side
        const bool low = (target - pLo) <= (pHi - target);
        best = low ? lo : hi;
        pBest = low ? pLo : pHi;
    }
    *bestOut = best;
    *valueOut = pBest;
    return true;
}

PromptCalibration PromptCalibrator::calibrate(const ServerSpec &server, const QString &baseUrl, const WorkloadSpec &w, const QByteArray &tag)
{
    PromptCalibration c;
    c.target = w.inputTokens;
    // The mean count over a few request numbers: each prompt leads with its own digits, which a
    // tokenizer may cut into one token more or less; the sweep's average is what must match.
    const auto mean = [&](int chars, bool viaTokenize) -> double {
        double sum = 0;
        for (int t = 0; t < kTicketsPerProbe; ++t) {
            const Count n = viaTokenize ? (++c.tokenizeCalls, tokenize(server, baseUrl, w, tag, chars, t * 7919))
                                        : (++c.probes, probe(server, baseUrl, w, tag, chars, t * 7919));
            if (n.tokens < 0) {
                c.failure = n.failure;
                c.error = n.error;
                return n.refused ? kRefused : -1;
            }
            sum += n.tokens;
        }
        return sum / kTicketsPerProbe;
    };
    const auto probes = [&](int chars) { return mean(chars, false); };
    int best = -1;
    double value = -1;
    // The cheaper path: search on /tokenize, then let probes say what the server really counts
    // (template, BOS) and search again for the difference. Twice at most, then probes alone.
    // A /tokenize whose counts are nonsense fails its search and leaves the probes to it.
    if (tokenize(server, baseUrl, w, tag, 0, 0).tokens >= 0) {
        ++c.tokenizeCalls;
        double offset = 0;
        for (int round = 0; round < 3 && !(m_cancel && m_cancel->load()); ++round) {
            const auto viaTokenize = [&](int chars) {
                const double n = mean(chars, true);
                return n < 0 ? n : n + offset;
            };
            double estimate = 0;
            if (!search(c.target, viaTokenize, c, &best, &estimate))
                break;
            value = probes(best);
            if (value == kRefused) // /tokenize has no context limit: the probes' search finds it
                break;
            if (value < 0)
                return c;
            if (std::abs(value - c.target) < 0.5 || std::abs(value - estimate) < 0.5) {
                c.viaTokenize = true;
                break;
            }
            offset += value - estimate;
        }
    }
    if (!c.viaTokenize && !search(c.target, probes, c, &best, &value))
        return c;
    // The closest length found may still be far off (a budget spent, counts that jump): then
    // the counts are not to be trusted, and the words are used instead of this filler.
    if (calibrationMissTooFar(c.target, value)) {
        c.failure = CalibrationFailure::FarFromTarget;
        c.error = QStringLiteral("the closest prompt found (%1 filler characters) counts %2 tokens, more than %3 % (and %4 tokens) off the %5 asked for")
                      .arg(best).arg(value).arg(kCalibrationMissShare * 100).arg(kCalibrationMissTokens).arg(c.target);
        return c;
    }
    c.fillerChars = best;
    c.measuredTokens = int(std::lround(value));
    c.failure = CalibrationFailure::None;
    c.error.clear();
    return c;
}

} // namespace sb
