#pragma once
// Every secret value a run or an export knows — API keys (inline or from api_key_env's variable),
// credential header values and launch.env values under credential names — learnt from the spec before anything is written, and scrubbed
// from every stored message: hook messages, error samples, records, results, logs, exports.
// One type so every writer applies the same rule (docs/spec-reference.md, "Secrets").
#include <QByteArray>
#include <QString>
#include <QStringList>

namespace sb {

struct ServerSpec;
struct SweepSpec;

// Secrets shorter than this are not searched for: a text search for them would mangle ordinary
// content (exports warn when one is configured).
inline constexpr int kMinSecretLength = 6;
// A sample cut in the middle of a key must not keep the key's first characters either.
inline constexpr int kMinTailLength = 4;

// True for header names that carry credentials: Authorization, Proxy-Authorization, Cookie,
// X-Api-Key, Api-Key, and any name containing key, token, secret, auth or password.
bool isCredentialHeader(const QString &name);

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
    void merge(const SecretSet &other);

    bool isEmpty() const { return m_values.isEmpty(); }
    const QStringList &values() const { return m_values; }

    // Replaces every occurrence of every secret (raw, JSON-escaped, HTML-escaped, percent-encoded)
    // with "[redacted]", and URL credentials (scheme://user:pw@) with "***@". A text that ends in
    // the first kMinTailLength or more characters of a secret (a sample cut mid-key) has that tail
    // masked too. Returns the number of replacements through `count` when given.
    QString scrub(QString text, int *count = nullptr) const;
    QByteArray scrub(QByteArray data, int *count = nullptr) const;
    // True when any form of any secret occurs in data.
    bool containedIn(const QByteArray &data) const;

private:
    QStringList m_values;
};

} // namespace sb
