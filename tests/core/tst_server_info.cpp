// A cell's server_info (results/ServerInfo.h, engine/ServerIdentity.h): what each mock
// personality says about itself as the real servers do, a hostile server's huge or invalid
// answers bounded and named, launch commands and environments with their secrets scrubbed,
// nvidia-smi (a fake one on PATH) bounded in time and output, and the sentence Compare and
// `sweepbench diff` print when two sets' servers differ.
#include "EngineFixture.h"
#include "HostileServer.h"
#include "engine/ServerIdentity.h"
#include "report/RegressionGate.h"
#include "results/ResultsStore.h"
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>

using namespace sb;

namespace {

// Answers every request with `answer(requestLine)`, closing after each.
hostile::Server answering(std::function<QByteArray(const QByteArray &)> answer)
{
    return hostile::Server([answer](hostile::Conn &c) {
        const QByteArray req = c.readRequest();
        if (req.isEmpty())
            return;
        c.write(answer(req.left(req.indexOf('\r'))));
    });
}

QByteArray http(int status, const QByteArray &body)
{
    return "HTTP/1.1 " + QByteArray::number(status) + " X\r\nContent-Type: application/json\r\nContent-Length: "
           + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

const ServerInfoRoute *route(const ServerInfo &info, const QString &path)
{
    for (const ServerInfoRoute &r : info.routes)
        if (r.path == path)
            return &r;
    return nullptr;
}

// PATH with DIR first, for as long as it lives.
struct PathPrefix {
    explicit PathPrefix(const QString &dir) : old(qgetenv("PATH")) { qputenv("PATH", dir.toLocal8Bit() + ':' + old); }
    ~PathPrefix() { qputenv("PATH", old); }
    QByteArray old;
};

bool writeScript(const QString &path, const QByteArray &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write("#!/bin/sh\n" + text) > 0
           && f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

} // namespace

class TstServerInfo : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Each personality answers its real server's identity route; every cell records it.
    void recordedPerFlavor()
    {
        QList<ServerSpec> servers;
        for (const QString &flavor : mockPersonalityNames()) {
            ServerSpec s;
            s.name = flavor;
            s.mock = flavor;
            s.model = QStringLiteral("demo-model");
            s.flavor = *flavorFromString(flavor);
            s.metrics.enabled = false;
            servers.append(s);
        }
        QTemporaryDir dir;
        const sbtest::RunResult r = sbtest::runSweep(sbtest::smallSpec(servers, {1, 2}, 2), dir.path());
        QCOMPARE(r.exitCode, 0);
        SweepResults back;
        QString error;
        QVERIFY2(ResultsStore::readResults(dir.path(), &back, &error), qPrintable(error));
        QCOMPARE(back.cells.size(), 2 * servers.size());
        for (const CellResult &c : back.cells) {
            const ServerInfo &info = c.serverInfo;
            QCOMPARE(info.baseServer, c.server);
            QVERIFY(info.variant.isEmpty());
            QCOMPARE(info.model, QStringLiteral("demo-model")); // the /v1/models entry
            QVERIFY2(info.fetchedAt.isValid(), qPrintable(c.server));
            QVERIFY(info.command.isEmpty() && info.pid < 0); // not launched
            const QString route = identityRoutes(*flavorFromString(c.server)).first();
            QVERIFY2(::route(info, route) && ::route(info, route)->status == 200 && ::route(info, route)->error.isEmpty(), qPrintable(c.server + route));
            if (c.server == QLatin1String("llamacpp")) {
                QCOMPARE(info.version, QStringLiteral("sweepbench-mock")); // /props build_info
                QVERIFY(info.args.contains(QStringLiteral("total_slots")));
                QVERIFY(info.args.contains(QStringLiteral("n_ctx")));
            } else {
                QVERIFY2(info.version.startsWith(QStringLiteral("0.0.0+sweepbench-mock")), qPrintable(c.server + info.version));
            }
            if (c.server == QLatin1String("vllm")) { // dev mode: /server_info's config text
                QCOMPARE(info.args.value(QStringLiteral("max_num_seqs")), QStringLiteral("128"));
                QCOMPARE(info.args.value(QStringLiteral("enable_prefix_caching")), QStringLiteral("True"));
            }
            if (c.server == QLatin1String("sglang")) {
                QCOMPARE(info.args.value(QStringLiteral("max_running_requests")), QStringLiteral("256")); // mockDefaults(Sglang)
                QVERIFY(!info.args.contains(QStringLiteral("api_key")));
            }
        }
    }

    // Huge, invalid and hostile answers: bounded, named, never a crash or an unbounded field.
    void hostileAnswersAreBoundedAndNamed()
    {
        const QByteArray huge = "{\"version\":\"" + QByteArray(3 * 1024 * 1024, 'v') + "\"}";
        auto server = answering([&](const QByteArray &line) {
            if (line.contains("/version"))
                return http(200, huge); // beyond kMaxIdentityAnswerBytes
            if (line.contains("/server_info"))
                return http(200, "<html>not json \x01\x02 sk-secretkey999</html>");
            if (line.contains("/v1/models"))
                return http(200, "{\"data\":[{\"id\":\"m\",\"root\":\"" + QByteArray(5000, 'r') + "\",\"max_model_len\":-5,"
                                 "\"owned_by\":\"evil\\u0007\\u001b[31m\"}]}");
            return http(404, "{}");
        });
        ServerSpec s = sbtest::serverAt(QString::fromLatin1(server.url()), QStringLiteral("h"));
        s.flavor = Flavor::Vllm;
        SecretSet secrets;
        secrets.add(QStringLiteral("sk-secretkey999"));
        ControlClient client;
        const ServerInfo info = fetchServerIdentity(client, s, QString::fromLatin1(server.url()), QString::fromLatin1(server.url()), {}, secrets, nullptr);
        QVERIFY(info.version.isEmpty());
        QVERIFY2(route(info, QStringLiteral("/version"))->error.contains(QStringLiteral("larger than 65536 bytes")),
                 qPrintable(route(info, QStringLiteral("/version"))->error));
        const ServerInfoRoute *bad = route(info, QStringLiteral("/server_info"));
        QCOMPARE(bad->error, QStringLiteral("not a JSON object"));
        QVERIFY2(bad->excerpt.contains(QStringLiteral("[redacted]")) && !bad->excerpt.contains(QStringLiteral("sk-secretkey999")), qPrintable(bad->excerpt));
        QVERIFY(!bad->excerpt.contains(QChar(1)));
        QCOMPARE(info.model, QStringLiteral("m"));
        QVERIFY(info.modelRoot.size() <= kMaxServerInfoText + 1);
        QCOMPARE(info.maxModelLen, -1); // a negative length is no length
        QVERIFY(!info.ownedBy.contains(QChar(7)) && !info.ownedBy.contains(QChar(0x1b)));
        // What reaches results.json reads back within the same bounds.
        const ServerInfo back = serverInfoFromJson(toJson(info));
        QCOMPARE(back, info);
        QJsonObject forged = toJson(info);
        forged.insert(QStringLiteral("version"), QString(100000, QLatin1Char('x')));
        QVERIFY(serverInfoFromJson(forged).version.size() <= kMaxServerInfoText + 1);
    }

    void launchCommandAndEnvScrubbed()
    {
        LaunchSpec l;
        l.command = {QStringLiteral("vllm"), QStringLiteral("serve"), QStringLiteral("m"), QStringLiteral("--port"), QStringLiteral("{port}"),
                     QStringLiteral("--api-key"), QStringLiteral("sk-commandline123"), QStringLiteral("--hf-token=hf_inline4567"),
                     QStringLiteral("--max-num-seqs"), QStringLiteral("64")};
        l.env = {{QStringLiteral("HF_TOKEN"), QStringLiteral("hf_envtoken0001")}, {QStringLiteral("VLLM_SERVER_DEV_MODE"), QStringLiteral("1")},
                 {QStringLiteral("NOTE"), QStringLiteral("known secret sk-elsewhere42 inside")}};
        SecretSet secrets;
        secrets.add(QStringLiteral("sk-elsewhere42"));
        ServerInfo info;
        recordLaunch(info, l, 8123, secrets);
        const QByteArray json = QJsonDocument(toJson(info)).toJson();
        for (const char *secret : {"sk-commandline123", "hf_inline4567", "hf_envtoken0001", "sk-elsewhere42"})
            QVERIFY2(!json.contains(secret), json.constData());
        QCOMPARE(info.command.mid(3, 4), (QStringList{QStringLiteral("--port"), QStringLiteral("8123"), QStringLiteral("--api-key"), QStringLiteral("[redacted]")}));
        QCOMPARE(info.command.at(7), QStringLiteral("--hf-token=[redacted]"));
        QCOMPARE(info.command.last(), QStringLiteral("64"));
        QCOMPARE(info.env.first().second, QStringLiteral("[redacted]"));
        QCOMPARE(info.env.at(1).second, QStringLiteral("1"));
        QVERIFY(info.env.at(2).second.contains(QStringLiteral("[redacted]")));
    }

    void nvidiaSmi_data()
    {
        QTest::addColumn<QByteArray>("script"); // empty = no nvidia-smi on PATH
        QTest::addColumn<int>("gpus");
        QTest::addColumn<QString>("error");
        QTest::newRow("two GPUs") << QByteArray("echo 'NVIDIA H100 80GB HBM3, 81559 MiB, 550.54.15'\necho 'NVIDIA H100 80GB HBM3, 81559 MiB, 550.54.15'\n")
                                  << 2 << QString();
        QTest::newRow("not installed") << QByteArray() << 0 << QStringLiteral("not found");
        QTest::newRow("fails") << QByteArray("echo 'NVIDIA-SMI has failed' >&2\nexit 9\n") << 0 << QStringLiteral("exit code 9");
        QTest::newRow("hangs") << QByteArray("exec sleep 30\n") << 0 << QStringLiteral("did not finish within 1 s");
        QTest::newRow("floods") << QByteArray("exec yes 'GPU, 1 MiB, 1'\n") << 0 << QStringLiteral("more than 65536 bytes");
        QTest::newRow("many GPUs") << QByteArray("i=0; while [ $i -lt 40 ]; do echo \"GPU $i, 1 MiB, 1\"; i=$((i+1)); done\n")
                                   << kMaxServerInfoGpus << QStringLiteral("first 16 are listed");
    }
    void nvidiaSmi()
    {
        QFETCH(QByteArray, script);
        QFETCH(int, gpus);
        QFETCH(QString, error);
        QTemporaryDir dir;
        if (!script.isEmpty())
            QVERIFY(writeScript(dir.filePath(QStringLiteral("nvidia-smi")), script));
        // Without the script: a PATH holding only this empty folder, so a real nvidia-smi is not found either.
        const QByteArray old = qgetenv("PATH");
        qputenv("PATH", script.isEmpty() ? dir.path().toLocal8Bit() : dir.path().toLocal8Bit() + ':' + old);
        const GpuQuery q = queryGpus(1);
        qputenv("PATH", old);
        QCOMPARE(q.gpus.size(), gpus);
        if (gpus == 2) {
            QCOMPARE(q.gpus.first().name, QStringLiteral("NVIDIA H100 80GB HBM3"));
            QCOMPARE(q.gpus.first().memoryTotal, QStringLiteral("81559 MiB"));
            QCOMPARE(q.gpus.first().driverVersion, QStringLiteral("550.54.15"));
        }
        QVERIFY2(error.isEmpty() ? q.error.isEmpty() : q.error.contains(error), qPrintable(q.error));
    }

    // Two sets whose servers differ in version and flags say so, in one sentence.
    void compareSaysServersDiffer()
    {
        const auto set = [](const QString &version, const QString &seqs) {
            SweepResults r;
            CellResult c;
            c.server = QStringLiteral("vllm-tp1");
            c.status = CellStatus::Completed;
            c.concurrency = 1;
            c.completed = 10;
            for (const GateMetric &m : defaultGateMetrics()) { // the same figures: no regression
                MetricStats st;
                st.count = 10;
                st.avg = st.p50 = st.p99 = 10;
                c.metrics.insert(m.metric->key, st);
            }
            c.serverInfo.baseServer = c.server;
            c.serverInfo.version = version;
            c.serverInfo.fetchedAt = QDateTime::currentDateTimeUtc();
            c.serverInfo.command = {QStringLiteral("vllm"), QStringLiteral("serve"), QStringLiteral("m"), QStringLiteral("--port"),
                                    QStringLiteral("8000"), QStringLiteral("--max-num-seqs"), seqs};
            r.cells.append(c);
            return r;
        };
        const QString sentence = serverDifferenceSentence(set(QStringLiteral("0.6.1"), QStringLiteral("64")),
                                                          set(QStringLiteral("0.7.0"), QStringLiteral("256")), QStringLiteral("A"), QStringLiteral("B"));
        QCOMPARE(sentence, QStringLiteral("The servers differ: vllm-tp1 ran with version 0.6.1 in A and 0.7.0 in B, "
                                          "--max-num-seqs 64 in A and 256 in B."));
        SweepResults other = set(QStringLiteral("0.6.1"), QStringLiteral("64"));
        other.cells.first().serverInfo.command[4] = QStringLiteral("9000"); // another run's port is no difference
        QVERIFY(serverDifferenceSentence(set(QStringLiteral("0.6.1"), QStringLiteral("64")), other, QStringLiteral("A"), QStringLiteral("B")).isEmpty());

        // `sweepbench diff` prints it among its notes.
        LoadedResults a{set(QStringLiteral("0.6.1"), QStringLiteral("64")), QString(), {}, QStringLiteral("A")};
        LoadedResults b{set(QStringLiteral("0.7.0"), QStringLiteral("64")), QString(), {}, QStringLiteral("B")};
        const GateResult gate = compareForRegressions(a, b, GateOptions());
        QVERIFY2(gate.notes.contains(QStringLiteral("The servers differ: vllm-tp1 ran with version 0.6.1 in A and 0.7.0 in B.")),
                 qPrintable(gate.notes.join(QLatin1Char('\n')) + gate.reason));
    }
};

QTEST_GUILESS_MAIN(TstServerInfo)
#include "tst_server_info.moc"
