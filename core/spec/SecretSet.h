#pragma once
// Every secret value a run or an export knows — API keys (inline or from api_key_env's variable),
// credential header values and launch.env values under credential names — learnt from the spec before anything is written, and scrubbed
// from every stored message: hook messages, error samples, records, results, logs, exports.
// One type so every writer applies the same rule (docs/spec-reference.md, "Secrets").
#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <memory>

namespace sb {

class SecretMatcher;
struct ServerSpec;
struct SweepSpec;
struct TelemetrySpec;

// Secrets shorter than this are not searched for: a text search for them would mangle ordinary
// content (exports warn when one is configured).
inline constexpr int kMinSecretLength = 6;
// A sample cut in the middle of a key must not keep the key's first characters either.
inline constexpr int kMinTailLength = 4;

// True for header names that carry credentials: Authorization, Proxy-Authorization, Cookie,
// X-Api-Key, Api-Key, and any name containing key, token, secret, auth or password.
bool isCredentialHeader(const QString &name);
// The values of credential flags in an argv (`--api-key X`, `--hf-token=X`: a flag whose name
// ends in key, token, secret or password, or holds auth): a launch command's secrets.
QStringList credentialArgValues(const QStringList &argv);

class SecretSet
{
public:
    // The secrets of every server of the spec; api_key_env variables are read now.
    static SecretSet fromSpec(const SweepSpec &spec);
    static SecretSet forServer(const ServerSpec &server);

    // Adds a secret value. A credential with a scheme ("Bearer X", "Basic X", "Token X") adds the
    // bare X too; a Cookie value adds each cookie's value.
    void add(const QString &value);
    void addServer(const ServerSpec &server);
    // Credential header values of GPU exporters (`telemetry:`, top level or a server's).
    void addTelemetry(const QList<TelemetrySpec> &telemetry);
    void merge(const SecretSet &other);

    bool isEmpty() const { return m_values.isEmpty(); }
    const QStringList &values() const { return m_values; }

    // Replaces every occurrence of every secret, in any form spec/SecretMatcher.h finds (raw,
    // JSON/HTML/URL-escaped, base64, split by zero-width characters, other case, '-' as '_'),
    // with "[redacted]", and URL credentials (scheme://user:pw@) with "***@". A text that ends in
    // the first kMinTailLength or more characters of a secret (a sample cut mid-key) has that tail
    // masked too. Returns the number of replacements through `count` when given.
    QString scrub(QString text, int *count = nullptr) const;
    QByteArray scrub(QByteArray data, int *count = nullptr) const;
    // True when any form of any secret occurs in data: the same matcher as scrub(), so what an
    // export's final check looks for is exactly what its scrub replaced.
    bool containedIn(const QByteArray &data) const;

private:
    void addValue(const QString &value);
    void rebuild(); // the matcher, after m_values changed

    QStringList m_values;
    // Built from the values at least kMinSecretLength long; shared by copies (it never changes
    // once built, so threads may share it). Null when there is nothing to search for.
    std::shared_ptr<const SecretMatcher> m_matcher;
};

} // namespace sb
