#include "engine/PromptCalibration.h"
#include "load/RequestFactory.h"
#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>
#include <algorithm>
#include <cmath>

namespace sb {

namespace {
constexpr int kMaxProbes = 24;
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
    m_all.insert(key, c.toJson());
    QSaveFile f(m_path);
    const QByteArray bytes = QJsonDocument(m_all).toJson();
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        *error = QStringLiteral("could not write %1: %2").arg(m_path, f.errorString());
        return false;
    }
    return true;
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
                            QString *error)
{
    WorkloadSpec probeShape = w;
    probeShape.outputTokens = 1;
    probeShape.streaming = false;
    const ServerTarget target = resolveTarget(baseUrl, server.endpoint);
    const RequestFactory factory(server, target, probeShape, tag, chars);
    QList<QPair<QByteArray, QByteArray>> headers;
    if (const QString key = resolveApiKey(server); !key.isEmpty())
        headers.append({QByteArrayLiteral("Authorization"), "Bearer " + key.toUtf8()});
    for (const auto &[name, value] : server.headers)
        headers.append({name.toUtf8(), value.toUtf8()});
    const ControlResponse r = m_client.call("POST", QUrl(target.origin + QString::fromUtf8(target.path)), headers, factory.body(0),
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
    const auto measure = [&](int chars) {
        ++c.probes;
        return probe(server, baseUrl, w, tag, chars, &c.error);
    };
    // Bracket the target: lo gives fewer tokens than asked, hi at least as many.
    int lo = 0;
    int pLo = measure(0);
    if (pLo < 0)
        return c;
    if (pLo >= c.target) {
        c.error = QStringLiteral("the prompt's fixed part alone is %1 tokens, more than the %2 asked for").arg(pLo).arg(c.target);
        return c;
    }
    int hi = std::max(8, (c.target - pLo) * 4);
    int pHi = measure(hi);
    while (pHi >= 0 && pHi < c.target && c.probes < kMaxProbes) {
        lo = hi, pLo = pHi;
        hi *= 2;
        pHi = measure(hi);
    }
    if (pHi < 0)
        return c;
    // Interpolate inside [lo, hi] (token counts grow about linearly with characters), keeping
    // the bracket, until a filler hits the target or no character is left between the two.
    int best = pHi == c.target ? hi : -1;
    while (best < 0 && hi - lo > 1 && c.probes < kMaxProbes && !(m_cancel && m_cancel->load())) {
        const double frac = double(c.target - pLo) / double(std::max(1, pHi - pLo));
        const int mid = std::clamp(lo + int(std::lround(frac * (hi - lo))), lo + 1, hi - 1);
        const int p = measure(mid);
        if (p < 0)
            return c;
        if (p == c.target)
            best = mid;
        else if (p < c.target)
            lo = mid, pLo = p;
        else
            hi = mid, pHi = p;
    }
    if (best < 0) // no length hits it exactly (a character adds two tokens): the closer side
        best = (c.target - pLo) <= (pHi - c.target) ? lo : hi;
    c.fillerChars = best;
    c.measuredTokens = best == lo ? pLo : best == hi ? pHi : c.target;
    c.error.clear();
    return c;
}

} // namespace sb
