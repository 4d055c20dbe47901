#include "spec/SweepSpec.h"
#include <QUrl>

namespace sb {

namespace {
template <typename E, std::size_t N>
std::optional<E> lookup(const QString &s, const std::pair<E, const char *> (&table)[N])
{
    for (const auto &[value, name] : table)
        if (s == QLatin1String(name))
            return value;
    return std::nullopt;
}
template <typename E, std::size_t N>
QString name(E e, const std::pair<E, const char *> (&table)[N])
{
    for (const auto &[value, text] : table)
        if (value == e)
            return QString::fromLatin1(text);
    return {};
}
template <typename E, std::size_t N>
QStringList names(const std::pair<E, const char *> (&table)[N])
{
    QStringList out;
    for (const auto &[value, text] : table)
        out.append(QString::fromLatin1(text));
    return out;
}

const std::pair<Endpoint, const char *> kEndpoints[] = {{Endpoint::Chat, "chat"}, {Endpoint::Completions, "completions"}};
const std::pair<Flavor, const char *> kFlavors[] = {
    {Flavor::Vllm, "vllm"}, {Flavor::Sglang, "sglang"}, {Flavor::Trtllm, "trtllm"}, {Flavor::Llamacpp, "llamacpp"},
    {Flavor::Openai, "openai"}};
const std::pair<ResetPlacement, const char *> kPlacements[] = {{ResetPlacement::BeforeWarmup, "before_warmup"},
                                                               {ResetPlacement::AfterWarmup, "after_warmup"},
                                                               {ResetPlacement::Both, "both"}};
const std::pair<HookFailurePolicy, const char *> kPolicies[] = {
    {HookFailurePolicy::SkipCell, "skip_cell"}, {HookFailurePolicy::Abort, "abort"}, {HookFailurePolicy::Continue, "continue"}};
const std::pair<PromptMode, const char *> kPromptModes[] = {{PromptMode::Unique, "unique"}, {PromptMode::SharedPrefix, "shared_prefix"}};
const std::pair<Arrival, const char *> kArrivals[] = {{Arrival::Constant, "constant"}, {Arrival::Poisson, "poisson"}, {Arrival::Gamma, "gamma"}, {Arrival::Trace, "trace"}};
const std::pair<RateMean, const char *> kRateMeans[] = {{RateMean::Sampled, "sampled"}, {RateMean::Exact, "exact"}};
} // namespace

QString toString(Arrival a) { return name(a, kArrivals); }
std::optional<Arrival> arrivalFromString(const QString &s) { return lookup(s, kArrivals); }
QString toString(RateMean m) { return name(m, kRateMeans); }
std::optional<RateMean> rateMeanFromString(const QString &s) { return lookup(s, kRateMeans); }
QStringList rateMeanNames() { return names(kRateMeans); }
QStringList arrivalNames() { return names(kArrivals); }

QString toString(Endpoint e) { return name(e, kEndpoints); }
QString toString(Flavor f) { return name(f, kFlavors); }
QString toString(ResetPlacement p) { return name(p, kPlacements); }
QString toString(HookFailurePolicy p) { return name(p, kPolicies); }
QString toString(PromptMode m) { return name(m, kPromptModes); }
std::optional<Endpoint> endpointFromString(const QString &s) { return lookup(s, kEndpoints); }
std::optional<Flavor> flavorFromString(const QString &s) { return lookup(s, kFlavors); }
std::optional<ResetPlacement> placementFromString(const QString &s) { return lookup(s, kPlacements); }
std::optional<HookFailurePolicy> policyFromString(const QString &s) { return lookup(s, kPolicies); }
std::optional<PromptMode> promptModeFromString(const QString &s) { return lookup(s, kPromptModes); }

QStringList flavorNames() { return names(kFlavors); }

QStringList mockPersonalityNames()
{
    QStringList out;
    for (const auto &[value, text] : kFlavors)
        if (value != Flavor::Openai)
            out.append(QString::fromLatin1(text));
    return out;
}

QStringList launchSignalNames()
{
    return {QStringLiteral("TERM"), QStringLiteral("INT"), QStringLiteral("HUP"), QStringLiteral("QUIT"), QStringLiteral("KILL")};
}

QString originOf(const QString &url)
{
    const QUrl u(url);
    const QString scheme = u.scheme().toLower();
    const int port = u.port(scheme == QLatin1String("https") ? 443 : 80);
    return QStringLiteral("%1://%2:%3").arg(scheme, u.host().toLower()).arg(port);
}

QString resolveApiKey(const ServerSpec &server)
{
    if (!server.apiKey.isEmpty())
        return server.apiKey;
    if (!server.apiKeyEnv.isEmpty())
        return qEnvironmentVariable(server.apiKeyEnv.toUtf8().constData());
    return {};
}

const QList<TelemetrySpec> &telemetryFor(const SweepSpec &spec, const ServerSpec &server)
{
    return server.telemetry ? *server.telemetry : spec.telemetry;
}

std::optional<CostSpec> costFor(const SweepSpec &spec, const ServerSpec &server)
{
    return server.cost ? server.cost : spec.cost;
}

} // namespace sb
