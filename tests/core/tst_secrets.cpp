// Secrets never reach disk: a server that echoes the API key and credential headers (in a 401
// body, in an SSE error event, in a hook answer) gets them scrubbed from results.json,
// records.jsonl and the export zip; an export that cannot know a key refuses to run.
#include "EngineFixture.h"
#include "HostileServer.h"
#include "TestSupport.h"
#include "report/BundleWriter.h"
#include "report/SecretScrub.h"
#include "spec/SecretSet.h"
#include "spec/SpecIO.h"
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QUrl>
#include <functional>

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

// A key with every character the encodings treat specially: '/', '+', '-' and '_'.
const QByteArray kEncodedKey = "sk-live/Abc+123_XYZ-789";

// Every form a key takes on its way into a file, written out here independently of the scrubber:
// JSON escapes (some, all, \/, escaped twice), HTML entities, %XX, base64 (alone, of "Bearer <key>",
// inside a longer base64 string at each of the three byte offsets, URL alphabet), zero-width
// characters between its characters, other case, and '-' turned into '_' (a /metrics series name).
QList<QPair<QString, QByteArray>> encodings(const QByteArray &key)
{
    const auto each = [&](const std::function<QByteArray(uchar)> &f) {
        QByteArray out;
        for (const char c : key)
            out += f(uchar(c));
        return out;
    };
    const auto hex2 = [](uchar c) { return QByteArray::number(c, 16).rightJustified(2, '0'); };
    QList<QPair<QString, QByteArray>> e{
        {QStringLiteral("raw"), key},
        {QStringLiteral("JSON \\u002d escapes"), QByteArray(key).replace("-", "\\u002d").replace("/", "\\u002F").replace("+", "\\u002b")},
        {QStringLiteral("JSON all \\uXXXX"), each([&](uchar c) { return "\\u00" + hex2(c); })},
        {QStringLiteral("JSON \\/"), QByteArray(key).replace("/", "\\/")},
        {QStringLiteral("JSON escaped twice"), QByteArray(key).replace("-", "\\\\u002d").replace("/", "\\\\/")},
        {QStringLiteral("HTML &#x"), each([&](uchar c) { return "&#x" + hex2(c).toUpper() + ";"; })},
        {QStringLiteral("HTML &#"), each([](uchar c) { return "&#" + QByteArray::number(c) + ";"; })},
        {QStringLiteral("HTML &amp;#"), each([](uchar c) { return "&amp;#" + QByteArray::number(c) + ";"; })},
        {QStringLiteral("URL %XX every byte"), each([&](uchar c) { return "%" + hex2(c).toUpper(); })},
        {QStringLiteral("URL-encoded"), QUrl::toPercentEncoding(QString::fromLatin1(key))},
        {QStringLiteral("base64"), key.toBase64()},
        {QStringLiteral("base64 of Bearer"), ("Bearer " + key).toBase64()},
        {QStringLiteral("base64 at offset 1"), ("a" + key + "!").toBase64()},
        {QStringLiteral("base64 at offset 2"), ("ab" + key + "!").toBase64()},
        {QStringLiteral("base64 at offset 0, inside"), ("abc" + key + "!").toBase64()},
        {QStringLiteral("base64url"), ("x" + key).toBase64(QByteArray::Base64UrlEncoding)},
        {QStringLiteral("base64 in JSON"), ("Bearer " + key).toBase64().replace("/", "\\/").replace("+", "\\u002b")},
        {QStringLiteral("zero-width \\u200b in JSON"), each([](uchar c) { return QByteArray(1, char(c)) + "\\u200b"; })},
        {QStringLiteral("zero-width &#8203;"), each([](uchar c) { return QByteArray(1, char(c)) + "&#8203;"; })},
        {QStringLiteral("lower case"), key.toLower()},
        {QStringLiteral("upper case"), key.toUpper()},
        {QStringLiteral("'-' as '_'"), QByteArray(key).replace('-', '_')},
        {QStringLiteral("'_' as '-'"), QByteArray(key).replace('_', '-')},
    };
    for (const char32_t zw : {U'\u200B', U'\u200C', U'\u200D', U'\u2060', U'\uFEFF'}) {
        const QByteArray split = QString::fromUcs4(&zw, 1).toUtf8();
        e.append({QStringLiteral("zero-width U+%1").arg(quint32(zw), 4, 16, QLatin1Char('0')),
                  each([&](uchar c) { return QByteArray(1, char(c)) + split; })});
    }
    return e;
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

    // Each encoding is found, by the scrub and by the export's final check (the same matcher),
    // and replaced whole: the text around it stays.
    void everyEncodingOfAKeyIsFound()
    {
        SecretSet set;
        set.add(QString::fromLatin1(kEncodedKey));
        const QStringList secrets{QString::fromLatin1(kEncodedKey)};
        const QByteArray before = "{\"error\":\"bad key: ";
        const QByteArray after = " (try again)\"}";
        for (const auto &[name, form] : encodings(kEncodedKey)) {
            const QByteArray text = before + form + after;
            const QByteArray what = name.toUtf8() + ": " + text;
            QVERIFY2(set.containedIn(text), what.constData());
            QVERIFY2(containsSecret(text, secrets), what.constData()); // the export refuses a file still holding it
            int n = 0;
            const QByteArray scrubbed = set.scrub(text, &n);
            QVERIFY2(n == 1 && scrubbed.contains("[redacted]"), qPrintable(name + QStringLiteral(": ") + QString::fromUtf8(scrubbed)));
            QVERIFY2(scrubbed.startsWith(before) && scrubbed.endsWith(after), qPrintable(name + QStringLiteral(": ") + QString::fromUtf8(scrubbed)));
            QVERIFY2(!set.containedIn(scrubbed), qPrintable(name + QStringLiteral(": ") + QString::fromUtf8(scrubbed)));
            QVERIFY2(!containsSecret(scrubbed, secrets), what.constData());
            // Log lines and messages are QStrings: the same matcher.
            const QString line = set.scrub(QString::fromUtf8(text));
            QVERIFY2(!set.containedIn(line.toUtf8()) && line.contains(QStringLiteral("[redacted]")), qPrintable(name + QStringLiteral(": ") + line));
        }
    }

    // Decoding never hides a key written plainly: a '%', '\\' or '&' right before it would decode
    // its first characters into something else.
    void aKeyAfterAnEscapeCharacterIsFound()
    {
        for (const auto &[key, text] : QList<QPair<QByteArray, QByteArray>>{{"deadbeef-4242-cafe", "100%deadbeef-4242-cafe"},
                                                                             {"nk-0123456789", "C:\\nk-0123456789"},
                                                                             {"u0041-secret-key", "x\\u0041-secret-key"},
                                                                             {"amp;secret-key", "&amp;secret-key"}}) {
            SecretSet set;
            set.add(QString::fromLatin1(key));
            QVERIFY2(set.containedIn(text), text.constData());
            QVERIFY2(!set.scrub(text).contains(key), text.constData());
        }
    }

    // What must stay as it is: text without the key (also a key one character off), secrets too
    // short to search for, and base64 that differs from the key's only in case.
    void ordinaryTextIsLeftAlone()
    {
        SecretSet set;
        set.add(QString::fromLatin1(kEncodedKey));
        set.add(QStringLiteral("abc12")); // below kMinSecretLength
        const QByteArray text = "{\"i\":1,\"ttft_ms\":45.679,\"error\":\"sk-live/Abc+124_XYZ-789 abc12 \\u0026 &amp; %41 "
                                + kEncodedKey.toBase64().toLower() + "\"}";
        int n = -1;
        QCOMPARE(set.scrub(text, &n), text);
        QCOMPARE(n, 0);
        QVERIFY(!set.containedIn(text));
    }

    // A records file holding every encoded form (as one written before the scrub knew them
    // would): the export replaces each, and what it ships holds none.
    void exportRedactsEveryEncoding()
    {
        ServerSpec s;
        s.name = QStringLiteral("mocked");
        s.mock = QStringLiteral("vllm");
        s.model = QStringLiteral("m");
        s.apiKey = QString::fromLatin1(kEncodedKey);
        QTemporaryDir out;
        const RunResult r = runSweep(smallSpec({s}, {1}, 2), out.path());
        QCOMPARE(r.results.cells.value(0).status, CellStatus::Completed);
        const QString recordsPath = r.results.cells[0].recordsPath;
        QFile records(out.filePath(recordsPath));
        QVERIFY(records.open(QIODevice::Append));
        const auto forms = encodings(kEncodedKey);
        for (const auto &[name, form] : forms)
            QVERIFY(records.write("{\"i\":-1,\"error\":\"" + form + "\"}\n") > 0);
        records.close();

        const QString zip = QDir::temp().filePath(QStringLiteral("sb-tst-secrets-enc-%1.zip").arg(QCoreApplication::applicationPid()));
        BundleOptions options;
        options.extraSecrets = {QString::fromLatin1(kEncodedKey)}; // sweep.yaml in OUT no longer holds it
        BundleReport report;
        QString error;
        QVERIFY2(writeBundle(out.path(), zip, options, &report, &error), qPrintable(error));
        QVERIFY2(report.redactions >= forms.size(), qPrintable(QString::number(report.redactions)));
        const QMap<QString, QByteArray> entries = readZip(zip);
        QFile::remove(zip);
        QVERIFY(entries.value(recordsPath).contains("[redacted]"));
        for (auto it = entries.cbegin(); it != entries.cend(); ++it) {
            for (const auto &[name, form] : forms)
                QVERIFY2(!it.value().contains(form), qPrintable(it.key() + QStringLiteral(" holds the key as ") + name));
            QVERIFY2(!containsSecret(it.value(), options.extraSecrets), qPrintable(it.key()));
        }
    }

    // A calibration probe the server refuses with a body quoting the key: neither the run log
    // (every line of the logMessage signal) nor results.json holds the key. The probes run before
    // the cell's other requests, where the key used to reach the log unscrubbed.
    void calibrationFailureNeverLogsTheKey()
    {
        static const QByteArray kKey = "sk-calib-0123456789abcdef";
        hostile::Server server([](hostile::Conn &c) {
            for (;;) {
                const QByteArray req = c.readRequest();
                if (req.isEmpty())
                    return;
                const QByteArray body = "{\"error\":\"invalid key " + hostile::headerValue(req, "Authorization") + "\"}";
                if (!c.write(hostile::jsonResponse(401, body)))
                    return;
            }
        });
        ServerSpec s = serverAt(QString::fromLatin1(server.url()), QStringLiteral("echo"));
        s.apiKey = QString::fromLatin1(kKey);
        SweepSpec spec = smallSpec({s}, {1}, 2);
        spec.workload.calibratePrompts = true;
        QTemporaryDir out;
        QStringList log;
        {
            SweepEngine engine(spec, RunOptions{out.path()});
            QObject::connect(&engine, &SweepEngine::logMessage, &engine, [&](const QString &line) { log << line; });
            QSignalSpy finished(&engine, &SweepEngine::finished);
            engine.start();
            QVERIFY(waitForSignal(finished, 120000));
            QTRY_VERIFY2(log.join('\n').contains(QStringLiteral("prompt calibration failed")), qPrintable(log.join('\n')));
        }
        const QString all = log.join('\n');
        QVERIFY2(all.contains(QStringLiteral("[redacted]")), qPrintable(all)); // the server did echo it
        QVERIFY2(!all.contains(QString::fromLatin1(kKey.left(10))), qPrintable(all));
        const QByteArray results = readFile(out.filePath(QStringLiteral("results.json")));
        QVERIFY(results.contains("not calibrated") && !results.contains(kKey.left(10))); // the cells' warnings quote it too
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
