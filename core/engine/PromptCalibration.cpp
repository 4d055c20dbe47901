#include "engine/PromptCalibration.h"
#include "hooks/HookRunner.h"
#include "io/DurableWrite.h"
#include "load/RequestFactory.h"
#include <QFile>
#include <QJsonDocument>
#include <algorithm>
#include <cmath>

namespace sb {

namespace {
constexpr int kTicketsPerProbe = 4;
constexpr int kMaxProbes = 24 * kTicketsPerProbe;
constexpr double kProbeTimeoutS = 120;
} // namespace

QJsonObject PromptCalibration::toJson() const
{
    QJsonObject o{{QStringLiteral("target_tokens"), target}, {QStringLiteral("filler_chars"), fillerChars},
                  {QStringLiteral("measured_tokens"), measuredTokens}, {QStringLiteral("probes"), probes}};
    if (!error.isEmpty())
        o.insert(QStringLiteral("error"), error);
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
        return -1;
    }
    const QJsonValue tokens = QJsonDocument::fromJson(r.body).object().value(QStringLiteral("usage")).toObject().value(QStringLiteral("prompt_tokens"));
    if (!tokens.isDouble() || tokens.toDouble() < 0 || tokens.toDouble() > 1e9) {
        *error = QStringLiteral("the answer has no usage.prompt_tokens");
        return -1;
    }
    return int(tokens.toDouble());
}

PromptCalibration PromptCalibrator::calibrate(const ServerSpec &server, const QString &baseUrl, const WorkloadSpec &w, const QByteArray &tag)
{
    PromptCalibration c;
    c.target = w.inputTokens;
    // The mean count over a few request numbers: each prompt leads with its own digits, which a
    // tokenizer may cut into one token more or less; the sweep's average is what must match.
    const auto measure = [&](int chars) -> double {
        double sum = 0;
        for (int t = 0; t < kTicketsPerProbe; ++t) {
            ++c.probes;
            const int n = probe(server, baseUrl, w, tag, chars, &c.error, t * 7919);
            if (n < 0)
                return -1;
            sum += n;
        }
        return sum / kTicketsPerProbe;
    };
    const double target = c.target;
    // Bracket the target: lo gives fewer tokens than asked, hi at least as many.
    int lo = 0;
    double pLo = measure(0);
    if (pLo < 0)
        return c;
    if (pLo >= target) {
        c.error = QStringLiteral("the prompt's fixed part alone is %1 tokens, more than the %2 asked for").arg(pLo).arg(c.target);
        return c;
    }
    int hi = std::max(8, int((target - pLo) * 4));
    double pHi = measure(hi);
    while (pHi >= 0 && pHi < target && c.probes < kMaxProbes) {
        lo = hi, pLo = pHi;
        hi *= 2;
        pHi = measure(hi);
    }
    if (pHi < 0)
        return c;
    // Interpolate inside [lo, hi] (token counts grow about linearly with characters), keeping
    // the bracket, until a filler's mean is within half a token or no character is left between.
    int best = std::abs(pHi - target) < 0.5 ? hi : -1;
    double pBest = pHi;
    while (best < 0 && hi - lo > 1 && c.probes < kMaxProbes && !(m_cancel && m_cancel->load())) {
        const double frac = (target - pLo) / std::max(1e-9, pHi - pLo);
        const int mid = std::clamp(lo + int(std::lround(frac * (hi - lo))), lo + 1, hi - 1);
        const double p = measure(mid);
        if (p < 0)
            return c;
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
    c.fillerChars = best;
    c.measuredTokens = int(std::lround(pBest));
    c.error.clear();
    return c;
}

} // namespace sb
