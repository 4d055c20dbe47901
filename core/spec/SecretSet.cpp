#include "spec/SecretSet.h"
#include "spec/SecretMatcher.h"
#include "spec/SweepSpec.h"
#include <QRegularExpression>

namespace sb {

namespace {
const QString kMask = QStringLiteral("[redacted]");

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

QStringList credentialArgValues(const QStringList &argv)
{
    QStringList out;
    for (qsizetype i = 0; i < argv.size(); ++i) {
        const QString &arg = argv[i];
        if (!arg.startsWith(QLatin1Char('-')))
            continue;
        const qsizetype eq = arg.indexOf(QLatin1Char('='));
        const QString flag = eq > 0 ? arg.left(eq) : arg;
        QString bare = flag;
        while (bare.startsWith(QLatin1Char('-')))
            bare.remove(0, 1);
        // Tighter than the header rule: --max-num-batched-tokens and --tokenizer name no secret.
        static const QRegularExpression credentialFlag(QStringLiteral("(^|[-_])(key|token|secret|password|passwd)$|auth"),
                                                       QRegularExpression::CaseInsensitiveOption);
        if (bare.isEmpty() || !credentialFlag.match(bare).hasMatch())
            continue;
        if (eq > 0)
            out.append(arg.mid(eq + 1));
        else if (i + 1 < argv.size() && !argv[i + 1].startsWith(QLatin1Char('-')))
            out.append(argv[i + 1]);
    }
    return out;
}

SecretSet SecretSet::fromSpec(const SweepSpec &spec)
{
    SecretSet s;
    for (const ServerSpec &server : spec.servers)
        s.addServer(server);
    s.addTelemetry(spec.telemetry);
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
    addValue(value);
    rebuild();
}

void SecretSet::addValue(const QString &value)
{
    const QString v = value.trimmed();
    if (v.isEmpty())
        return;
    if (!m_values.contains(v))
        m_values.append(v);
    // "Bearer sk-..." leaks the bare key too.
    static const QRegularExpression scheme(QStringLiteral("^(Bearer|Basic|Token|Digest)\\s+(.+)$"), QRegularExpression::CaseInsensitiveOption);
    if (const auto m = scheme.match(v); m.hasMatch())
        addValue(m.captured(2));
    // "a=1; session=xyz": each cookie value on its own.
    if (v.contains(QLatin1Char('=')) && v.contains(QLatin1Char(';')))
        for (const QString &part : v.split(QLatin1Char(';'), Qt::SkipEmptyParts))
            if (const qsizetype eq = part.indexOf(QLatin1Char('=')); eq > 0)
                addValue(part.mid(eq + 1));
}

void SecretSet::addServer(const ServerSpec &server)
{
    addValue(server.apiKey);
    if (!server.apiKeyEnv.isEmpty())
        addValue(qEnvironmentVariable(server.apiKeyEnv.toLocal8Bit().constData()));
    for (const auto &[name, value] : server.headers)
        if (isCredentialHeader(name))
            addValue(value);
    for (const auto &[name, value] : server.launch.env) // HF_TOKEN and the like, by the header rule
        if (isCredentialHeader(name))
            addValue(value);
    for (const QString &value : credentialArgValues(server.launch.command))
        addValue(value);
    for (const LaunchVariant &v : server.launch.variants) {
        for (const auto &[name, value] : v.env)
            if (isCredentialHeader(name))
                addValue(value);
        for (const QString &value : credentialArgValues(v.args))
            addValue(value);
    }
    for (const LaunchMatrixAxis &axis : server.launch.matrix)
        if (isCredentialHeader(axis.key))
            for (const QString &value : axis.values)
                addValue(value);
    if (server.telemetry)
        addTelemetry(*server.telemetry);
    rebuild();
}

void SecretSet::addTelemetry(const QList<TelemetrySpec> &telemetry)
{
    // An exporter's headers follow the servers' rule: credential names hold secrets.
    for (const TelemetrySpec &t : telemetry)
        for (const auto &[name, value] : t.headers)
            if (isCredentialHeader(name))
                addValue(value);
    rebuild();
}

void SecretSet::merge(const SecretSet &other)
{
    for (const QString &v : other.m_values)
        if (!m_values.contains(v))
            m_values.append(v);
    rebuild();
}

void SecretSet::rebuild()
{
    QStringList searchable;
    for (const QString &v : std::as_const(m_values))
        if (v.size() >= kMinSecretLength)
            searchable.append(v);
    m_matcher = searchable.isEmpty() ? nullptr : std::make_shared<const SecretMatcher>(searchable);
}

QByteArray SecretSet::scrub(QByteArray data, int *count) const
{
    int n = 0;
    static const QByteArray mask = kMask.toUtf8();
    if (m_matcher)
        data = m_matcher->replace(std::move(data), mask, &n);
    if (count)
        *count = n;
    return data;
}

QString SecretSet::scrub(QString text, int *count) const
{
    int n = 0;
    text = stripUrlCredentials(std::move(text), &n);
    if (m_matcher) {
        int found = 0;
        QByteArray utf8 = scrub(text.toUtf8(), &found);
        if (found > 0)
            text = QString::fromUtf8(utf8);
        n += found;
    }
    for (const QString &s : m_values) {
        if (s.size() < kMinSecretLength)
            continue;
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
    return m_matcher && !m_matcher->find(data, /*firstOnly=*/true).isEmpty();
}

} // namespace sb
