#include "spec/SecretSet.h"
#include "spec/SweepSpec.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUrl>

namespace sb {

namespace {
const QString kMask = QStringLiteral("[redacted]");

// The forms a secret takes once written: raw, inside a JSON string, in HTML, in a URL.
QList<QByteArray> forms(const QString &secret)
{
    QList<QByteArray> f{secret.toUtf8()};
    const QByteArray json = QJsonDocument(QJsonArray{secret}).toJson(QJsonDocument::Compact);
    f.append(json.mid(2, json.size() - 4)); // ["..."] -> ...
    f.append(secret.toHtmlEscaped().toUtf8());
    f.append(QUrl::toPercentEncoding(secret));
    QList<QByteArray> unique;
    for (const QByteArray &b : f)
        if (!b.isEmpty() && !unique.contains(b))
            unique.append(b);
    return unique;
}

QString stripUrlCredentials(QString text, int *count)
{
    static const QRegularExpression userinfo(QStringLiteral("([A-Za-z][A-Za-z0-9+.-]*://)[^/@\\s\"']+@"));
    for (auto it = userinfo.globalMatch(text); it.hasNext(); it.next())
        ++*count;
    return text.replace(userinfo, QStringLiteral("\\1***@"));
}
} // namespace

bool isCredentialHeader(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("key|token|secret|auth|cookie|password"),
                                       QRegularExpression::CaseInsensitiveOption);
    return re.match(name).hasMatch();
}

SecretSet SecretSet::fromSpec(const SweepSpec &spec)
{
    SecretSet s;
    for (const ServerSpec &server : spec.servers)
        s.addServer(server);
    return s;
}

SecretSet SecretSet::forServer(const ServerSpec &server)
{
    SecretSet s;
    s.addServer(server);
    return s;
}

void SecretSet::add(const QString &value)
{
    const QString v = value.trimmed();
    if (v.isEmpty())
        return;
    if (!m_values.contains(v))
        m_values.append(v);
    // "Bearer sk-..." leaks the bare key too.
    static const QRegularExpression scheme(QStringLiteral("^(Bearer|Basic|Token|Digest)\\s+(.+)$"), QRegularExpression::CaseInsensitiveOption);
    if (const auto m = scheme.match(v); m.hasMatch())
        add(m.captured(2));
    // "a=1; session=xyz": each cookie value on its own.
    if (v.contains(QLatin1Char('=')) && v.contains(QLatin1Char(';')))
        for (const QString &part : v.split(QLatin1Char(';'), Qt::SkipEmptyParts))
            if (const qsizetype eq = part.indexOf(QLatin1Char('=')); eq > 0)
                add(part.mid(eq + 1));
}

void SecretSet::addServer(const ServerSpec &server)
{
    add(server.apiKey);
    if (!server.apiKeyEnv.isEmpty())
        add(qEnvironmentVariable(server.apiKeyEnv.toLocal8Bit().constData()));
    for (const auto &[name, value] : server.headers)
        if (isCredentialHeader(name))
            add(value);
    for (const auto &[name, value] : server.launch.env) // HF_TOKEN and the like, by the header rule
        if (isCredentialHeader(name))
            add(value);
}

void SecretSet::merge(const SecretSet &other)
{
    for (const QString &v : other.m_values)
        if (!m_values.contains(v))
            m_values.append(v);
}

QByteArray SecretSet::scrub(QByteArray data, int *count) const
{
    int n = 0;
    static const QByteArray mask = kMask.toUtf8();
    for (const QString &s : m_values) {
        if (s.size() < kMinSecretLength)
            continue;
        for (const QByteArray &f : forms(s)) {
            n += int(data.count(f));
            data.replace(f, mask);
        }
    }
    if (count)
        *count = n;
    return data;
}

QString SecretSet::scrub(QString text, int *count) const
{
    int n = 0;
    text = stripUrlCredentials(std::move(text), &n);
    for (const QString &s : m_values) {
        if (s.size() < kMinSecretLength)
            continue;
        for (const QByteArray &f : forms(s)) {
            const QString form = QString::fromUtf8(f);
            n += int(text.count(form));
            text.replace(form, kMask);
        }
        // A cut sample may end in the first characters of a key.
        for (qsizetype len = std::min<qsizetype>(s.size() - 1, text.size()); len >= kMinTailLength; --len) {
            if (text.endsWith(QStringView(s).left(len))) {
                text.replace(text.size() - len, len, kMask);
                ++n;
                break;
            }
        }
    }
    if (count)
        *count = n;
    return text;
}

bool SecretSet::containedIn(const QByteArray &data) const
{
    for (const QString &s : m_values)
        if (s.size() >= kMinSecretLength)
            for (const QByteArray &f : forms(s))
                if (data.contains(f))
                    return true;
    return false;
}

} // namespace sb
