#include "engine/PromptCalibration.h"
#include "hooks/HookRunner.h"
#include "io/DurableWrite.h"
#include "load/RequestFactory.h"
#include <QFile>
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
} // namespace

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

PromptCalibration PromptCalibration::fromJson(const QJsonObject &o)
{
    PromptCalibration c;
    c.target = o.value(QStringLiteral("target_tokens")).toInt();
    c.fillerChars = o.value(QStringLiteral("filler_chars")).toInt(-1);
    c.measuredTokens = o.value(QStringLiteral("measured_tokens")).toInt(-1);
    c.probes = o.value(QStringLiteral("probes")).toInt();
    c.error = o.value(QStringLiteral("error")).toString();
    c.tokenizeCalls = o.value(QStringLiteral("tokenize_calls")).toInt();
    c.viaTokenize = c.tokenizeCalls > 0;
    return c;
}

CalibrationStore::CalibrationStore(const QString &outDir)
    : m_path(outDir + QStringLiteral("/calibration.json"))
{
    QFile f(m_path);
    if (f.size() > 1024 * 1024 || !f.open(QIODevice::ReadOnly)) // ours is a few hundred bytes
        return;
    m_all = QJsonDocument::fromJson(f.readAll()).object();
    for (auto it = m_all.begin(); it != m_all.end(); ++it)
        m_byKey.insert(it.key(), PromptCalibration::fromJson(it.value().toObject()));
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
    m_all.insert(key, c.toJson());
    return writeFileAtomically(m_path, QJsonDocument(m_all).toJson(), error);
}

QString calibrationKey(const ServerSpec &server, const WorkloadSpec &w)
{
    return QStringLiteral("%1|%2|%3|%4|%5")
        .arg(server.model, toString(server.endpoint))
        .arg(w.inputTokens)
        .arg(w.prompts == PromptMode::SharedPrefix ? w.sharedPrefixTokens : 0)
        .arg(toString(w.prompts));
}

int PromptCalibrator::probe(const ServerSpec &server, const QString &baseUrl, const WorkloadSpec &w, const QByteArray &tag, int chars,
                            QString *error, int ticket)
{
    WorkloadSpec probeShape = w;
    probeShape.outputTokens = 1;
    probeShape.streaming = false;
    const ServerTarget target = resolveTarget(baseUrl, server.endpoint);
    const RequestFactory factory(server, target, probeShape, tag, chars);
    HookTarget control;
    control.server = &server;
    control.apiKey = resolveApiKey(server);
    const QList<QPair<QByteArray, QByteArray>> headers = controlHeaders(control); // as every control call sends them
    const ControlResponse r = m_client.call("POST", QUrl(target.origin + QString::fromUtf8(target.path)), headers, factory.body(ticket),
                                            kProbeTimeoutS, m_cancel);
    if (r.status != 200) {
        *error = r.status == 0 ? r.transportError : QStringLiteral("HTTP %1: %2").arg(r.status).arg(QString::fromUtf8(r.body.left(160)).simplified());
        return r.status == 400 ? -2 : -1;
    }
    const QJsonValue tokens = QJsonDocument::fromJson(r.body).object().value(QStringLiteral("usage")).toObject().value(QStringLiteral("prompt_tokens"));
    if (!tokens.isDouble() || tokens.toDouble() < 0 || tokens.toDouble() > 1e9) {
        *error = QStringLiteral("the answer has no usage.prompt_tokens");
        return -1;
    }
    return int(tokens.toDouble());
}

int PromptCalibrator::tokenize(const ServerSpec &server, const QString &baseUrl, const WorkloadSpec &w, const QByteArray &tag, int chars,
                               QString *error, int ticket)
{
    // The prompt exactly as a probe would send it, taken out of the probe's body.
    WorkloadSpec shape = w;
    shape.outputTokens = 1;
    shape.streaming = false;
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
    if (r.status != 200 || !r.complete()) {
        *error = r.status == 0 ? r.transportError : QStringLiteral("/tokenize: HTTP %1").arg(r.status);
        return -1;
    }
    const QJsonObject o = QJsonDocument::fromJson(r.body).object();
    const QJsonValue count = o.value(QStringLiteral("count")); // vLLM; llama.cpp has only the list
    if (count.isDouble() && count.toDouble() >= 0 && count.toDouble() < 1e9)
        return int(count.toDouble());
    if (o.value(QStringLiteral("tokens")).isArray())
        return int(o.value(QStringLiteral("tokens")).toArray().size());
    *error = QStringLiteral("/tokenize answered without count or tokens");
    return -1;
}

bool PromptCalibrator::search(double target, const std::function<double(int)> &measure, PromptCalibration &c, int *bestOut, double *valueOut)
{
    const auto spent = [&] { return c.probes + c.tokenizeCalls / 8 >= kMaxProbes; }; // a /tokenize call costs far less
    // Bracket the target: lo gives fewer tokens than asked, hi at least as many.
    int lo = 0;
    double pLo = measure(0);
    if (pLo < 0)
        return false;
    if (pLo >= target) {
        c.error = QStringLiteral("the prompt's fixed part alone is %1 tokens, more than the %2 asked for").arg(pLo).arg(target);
        return false;
    }
    int hi = std::max(8, int((target - pLo) * 4));
    double pHi = measure(hi);
    // A 400 past the context limit: halve the step until the server takes the prompt. A target
    // beyond the limit then fails with the server's own words.
    while (pHi == kRefused && hi - lo > 1 && !spent())
        hi = lo + (hi - lo) / 2, pHi = measure(hi);
    while (pHi >= 0 && pHi < target && !spent()) {
        lo = hi, pLo = pHi;
        int next = hi * 2;
        double pNext = measure(next);
        while (pNext == kRefused && next - lo > 1 && !spent())
            next = lo + (next - lo) / 2, pNext = measure(next);
        if (pNext == kRefused || next == lo) {
            c.error = QStringLiteral("the server refuses prompts past %1 tokens (%2), fewer than the %3 asked for").arg(pLo).arg(c.error).arg(target);
            return false;
        }
        hi = next, pHi = pNext;
    }
    if (pHi < 0)
        return false;
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
            QString error;
            const int n = viaTokenize ? (++c.tokenizeCalls, tokenize(server, baseUrl, w, tag, chars, &error, t * 7919))
                                      : (++c.probes, probe(server, baseUrl, w, tag, chars, &error, t * 7919));
            if (n < 0) {
                c.error = error;
                return n == -2 ? kRefused : -1;
            }
            sum += n;
        }
        return sum / kTicketsPerProbe;
    };
    const auto probes = [&](int chars) { return mean(chars, false); };
    int best = -1;
    double value = -1;
    // The cheaper path: search on /tokenize, then let probes say what the server really counts
    // (template, BOS) and search again for the difference. Twice at most, then probes alone.
    QString unused;
    if (tokenize(server, baseUrl, w, tag, 0, &unused) >= 0) {
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
    c.fillerChars = best;
    c.measuredTokens = int(std::lround(value));
    c.error.clear();
    return c;
}

} // namespace sb
