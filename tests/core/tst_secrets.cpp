// Secrets never reach disk: a server that echoes the API key and credential headers (in a 401
// body, in an SSE error event, in a hook answer) gets them scrubbed from results.json,
// records.jsonl and the export zip; an export that cannot know a key refuses to run.
#include "EngineFixture.h"
#include "HostileServer.h"
#include "TestSupport.h"
#include "report/BundleWriter.h"
#include "spec/SecretSet.h"
#include "spec/SpecIO.h"
#include <QDirIterator>
#include <QTemporaryDir>

using namespace sb;
using namespace sbtest;

namespace {
const QString kEnvName = QStringLiteral("SB_TST_SECRETS_KEY");
const QByteArray kEnvKey = "sk-env-0123456789abcdef";
const QByteArray kInlineKey = "sk-inline-ABCDEFGHIJKL";
const QByteArray kHeaderKey = "xak-header-secret-4242";
const QByteArray kCookie = "ck-cookie-secret-7777";

QList<QByteArray> allSecrets() { return {kEnvKey, kInlineKey, kHeaderKey, kCookie}; }

// Every credential the request carried, echoed back as a server might in an error message.
QByteArray echo(const BlockingHttpPeer::Request &r)
{
    return r.header("Authorization") + " / " + r.header("X-Api-Key") + " / " + r.header("Cookie");
}

// Hooks answer ok and quote the credentials; /v1/ calls are answered by `benchmark`.
BlockingHttpPeer::Handler handler(std::function<void(int, const BlockingHttpPeer::Request &)> benchmark)
{
    return [benchmark](BlockingHttpPeer &, int fd, const BlockingHttpPeer::Request &r) {
        if (r.target.startsWith("/v1/"))
            benchmark(fd, r);
        else
            BlockingHttpPeer::send(fd, BlockingHttpPeer::response(200, "application/json", "{\"success\": true, \"seen\": \"" + echo(r) + "\"}"));
    };
}

// Which secrets (or their first ten characters, as a cut sample would keep) occur in data.
QStringList leaks(const QByteArray &data)
{
    QStringList found;
    for (const QByteArray &s : allSecrets())
        if (data.contains(s.left(10)))
            found << QString::fromLatin1(s);
    return found;
}
} // namespace

class TestSecrets : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void credentialHeaders()
    {
        for (const char *name : {"Authorization", "proxy-authorization", "Cookie", "X-Api-Key", "Api-Key", "X-Auth-Token",
                                 "OpenAI-Secret", "x-goog-api-key", "Password"})
            QVERIFY2(isCredentialHeader(QLatin1String(name)), name);
        for (const char *name : {"X-Team", "Accept", "User-Agent", "X-Request-Id"})
            QVERIFY2(!isCredentialHeader(QLatin1String(name)), name);
    }

    void scrubRules()
    {
        SecretSet set;
        set.add(QStringLiteral("Bearer sk-abcdef123"));
        set.add(QStringLiteral("a=1; session=sess-value-1; theme=dark"));
        set.add(QStringLiteral("short")); // below kMinSecretLength: never searched for
        QVERIFY(set.values().contains(QStringLiteral("sk-abcdef123")));
        QVERIFY(set.values().contains(QStringLiteral("sess-value-1")));
        QCOMPARE(set.scrub(QStringLiteral("key sk-abcdef123 and short")), QStringLiteral("key [redacted] and short"));
        QCOMPARE(set.scrub(QStringLiteral("GET http://user:pw@host/x")), QStringLiteral("GET http://***@host/x"));
        QCOMPARE(set.scrub(QStringLiteral("cookie session=sess-value-1;")), QStringLiteral("cookie session=[redacted];"));
        // A sample cut in the middle of a key keeps none of it.
        QCOMPARE(set.scrub(QStringLiteral("invalid key sk-abcd")), QStringLiteral("invalid key [redacted]"));
        QCOMPARE(set.scrub(QStringLiteral("ends in sk-")), QStringLiteral("ends in sk-")); // 3 characters say nothing
        // Escaped forms, as they appear in JSON, HTML or a URL.
        SecretSet odd;
        odd.add(QStringLiteral("k/e\"y<&>=+1"));
        int n = 0;
        const QByteArray scrubbed = odd.scrub(QByteArray("{\"m\":\"k/e\\\"y<&>=+1\"} k/e&quot;y&lt;&amp;&gt;=+1 k%2Fe%22y%3C%26%3E%3D%2B1"), &n);
        QCOMPARE(n, 3);
        QVERIFY2(!odd.containedIn(scrubbed), scrubbed.constData());
    }

    void specSecretsIncludeTheEnvironmentAndHeaders()
    {
        qputenv(kEnvName.toLatin1(), kEnvKey);
        ServerSpec a;
        a.apiKeyEnv = kEnvName;
        a.headers = {{QStringLiteral("X-Api-Key"), QString::fromLatin1(kHeaderKey)}, {QStringLiteral("X-Team"), QStringLiteral("bench-team")}};
        ServerSpec b;
        b.apiKey = QString::fromLatin1(kInlineKey);
        SweepSpec spec;
        spec.servers = {a, b};
        const SecretSet set = SecretSet::fromSpec(spec);
        for (const QByteArray &s : {kEnvKey, kHeaderKey, kInlineKey})
            QVERIFY2(set.values().contains(QString::fromLatin1(s)), s.constData());
        QVERIFY(!set.values().contains(QStringLiteral("bench-team")));
        qunsetenv(kEnvName.toLatin1());
    }

    void sweepYamlDropsEveryCredentialHeader()
    {
        SweepSpec spec = loadSpecText("servers:\n  - name: a\n    url: http://localhost:8000\n    model: m\n"
                                      "    headers: {X-Auth-Token: tok-abcdefgh, X-Team: bench}\nsweep:\n  concurrency: [1]\n",
                                      QStringLiteral("s.yaml")).spec.value();
        const QByteArray stripped = saveSpecYaml(spec, SecretPolicy::Strip);
        QVERIFY(!stripped.contains("tok-abcdefgh"));
        QVERIFY(stripped.contains("X-Team"));
    }

    void hostileServersNeverGetKeysStored()
    {
        qputenv(kEnvName.toLatin1(), kEnvKey);
        // A: 401 whose body quotes the credentials, the key cut by the 200-byte sample bound.
        BlockingHttpPeer a(handler([](int fd, const BlockingHttpPeer::Request &r) {
            const QByteArray body = "{\"error\": \"" + QByteArray(150, 'p') + " invalid credentials: " + echo(r) + "\"}";
            BlockingHttpPeer::send(fd, BlockingHttpPeer::response(401, "application/json", body));
        }));
        // B: a 200 stream whose only event is an error quoting them.
        BlockingHttpPeer b(handler([](int fd, const BlockingHttpPeer::Request &r) {
            const QByteArray event = "data: {\"error\": {\"message\": \"rejected " + echo(r) + "\"}}\n\ndata: [DONE]\n\n";
            BlockingHttpPeer::send(fd, BlockingHttpPeer::response(200, "text/event-stream", event));
        }));
        ServerSpec sa;
        sa.name = QStringLiteral("echo-401");
        sa.urls = {a.url()};
        sa.model = QStringLiteral("m");
        sa.apiKeyEnv = kEnvName;
        sa.headers = {{QStringLiteral("X-Api-Key"), QString::fromLatin1(kHeaderKey)}};
        sa.reset.enabled = true;
        sa.reset.path = QStringLiteral("/reset");
        ServerSpec sb = sa;
        sb.name = QStringLiteral("echo-sse");
        sb.urls = {b.url()};
        sb.apiKeyEnv.clear();
        sb.apiKey = QString::fromLatin1(kInlineKey);
        sb.headers = {{QStringLiteral("Cookie"), QStringLiteral("session=") + QString::fromLatin1(kCookie) + QStringLiteral("; theme=dark")}};
        QTemporaryDir out;
        const RunResult r = runSweep(smallSpec({sa, sb}, {1}, 3), out.path());
        QCOMPARE(r.results.cells.size(), 2);

        // The servers did echo: the scrub, not luck, kept the keys out.
        for (const CellResult &cell : r.results.cells) {
            QCOMPARE(cell.status, CellStatus::Failed);
            QVERIFY2(cell.hooks.value(0).ok && cell.hooks[0].message.contains(QStringLiteral("[redacted]")), qPrintable(cell.hooks.value(0).message));
            QVERIFY2(!cell.errorSamples.isEmpty() && cell.errorSamples.first().contains(QStringLiteral("[redacted]")),
                     qPrintable(cell.errorSamples.values().join(' ')));
        }
        for (const HookOutcome &o : r.hookSignals) // what the log and the GUI were sent
            QVERIFY2(leaks(o.message.toUtf8()).isEmpty(), qPrintable(o.message));

        QStringList files{QStringLiteral("results.json"), QStringLiteral("sweep.yaml")};
        for (QDirIterator it(out.path() + QStringLiteral("/cells"), {QStringLiteral("*.jsonl")}, QDir::Files, QDirIterator::Subdirectories); it.hasNext();)
            files << QDir(out.path()).relativeFilePath(it.next());
        QCOMPARE(files.size(), 4);
        for (const QString &f : files) {
            const QByteArray data = readFile(out.filePath(f));
            QVERIFY2(!data.isEmpty(), qPrintable(f));
            QVERIFY2(leaks(data).isEmpty(), qPrintable(f + QStringLiteral(" holds ") + leaks(data).join(' ')));
        }
        QVERIFY(readFile(out.filePath(files.last())).contains("[redacted]")); // the records' error field

        // The export, with the variable still set, ships none either.
        const QString zip = QDir::temp().filePath(QStringLiteral("sb-tst-secrets-%1.zip").arg(QCoreApplication::applicationPid()));
        BundleReport report;
        QString error;
        QVERIFY2(writeBundle(out.path(), zip, {}, &report, &error), qPrintable(error));
        const QMap<QString, QByteArray> entries = readZip(zip);
        QVERIFY(entries.contains(QStringLiteral("report.html")));
        for (auto it = entries.cbegin(); it != entries.cend(); ++it)
            QVERIFY2(leaks(it.value()).isEmpty(), qPrintable(it.key() + QStringLiteral(" holds ") + leaks(it.value()).join(' ')));

        // Unset now: the export cannot scan for that key, so it refuses and says how to go on.
        qunsetenv(kEnvName.toLatin1());
        QFile::remove(zip);
        QVERIFY(!writeBundle(out.path(), zip, {}, &report, &error));
        QVERIFY2(error.contains(kEnvName) && error.contains(QStringLiteral("--secret-env")) && error.contains(QStringLiteral("--no-secret-check")),
                 qPrintable(error));
        QVERIFY(!QFile::exists(zip));
        BundleOptions named;
        named.extraSecrets = {QString::fromLatin1(kEnvKey)}; // `--secret-env OTHER_VAR`
        QVERIFY2(writeBundle(out.path(), zip, named, &report, &error), qPrintable(error));
        BundleOptions forced;
        forced.allowUnknownSecrets = true; // `--no-secret-check`
        QVERIFY2(writeBundle(out.path(), zip, forced, &report, &error), qPrintable(error));
        QVERIFY2(report.warnings.join(' ').contains(kEnvName), qPrintable(report.warnings.join(' ')));
        QFile::remove(zip);
    }
};

QTEST_GUILESS_MAIN(TestSecrets)
#include "tst_secrets.moc"
