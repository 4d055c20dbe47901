#include "TestSupport.h"
#include <QTcpServer>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>
#include <quazip/quazip.h>
#include <quazip/quazipfile.h>

namespace sbtest {

void failOnQtWarnings()
{
    // The offscreen platform plugin warns on every show() and on raising a floated dock; those
    // messages say what the plugin lacks, not what the code did wrong.
    QTest::failOnWarning(QRegularExpression(QStringLiteral("^(?!This plugin does not support (propagateSizeHints|raise)\\(\\)).*")));
}

QString sourcePath(const QString &relative)
{
    return qEnvironmentVariable("SWEEPBENCH_SOURCE_DIR", QStringLiteral(".")) + QLatin1Char('/') + relative;
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}


QMap<QString, QByteArray> readZip(const QString &path)
{
    QMap<QString, QByteArray> out;
    QuaZip zip(path);
    if (!zip.open(QuaZip::mdUnzip))
        return out;
    for (bool more = zip.goToFirstFile(); more; more = zip.goToNextFile()) {
        QuaZipFile f(&zip);
        if (f.open(QIODevice::ReadOnly))
            out.insert(zip.getCurrentFileName(), f.readAll());
    }
    return out;
}

QList<QJsonObject> readJsonLines(const QString &path)
{
    QList<QJsonObject> out;
    for (const QByteArray &line : readFile(path).split('\n'))
        if (!line.isEmpty())
            out.append(QJsonDocument::fromJson(line).object());
    return out;
}

quint16 freePort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return 0;
    const quint16 port = probe.serverPort();
    probe.close();
    return port;
}

CliRun runSweepbench(const QStringList &args, int timeoutMs, const QProcessEnvironment &env)
{
    QProcess p;
    if (!env.isEmpty())
        p.setProcessEnvironment(env);
    p.start(qEnvironmentVariable("SWEEPBENCH_BINARY"), args);
    if (!p.waitForFinished(timeoutMs))
        p.kill();
    p.waitForFinished();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

} // namespace sbtest
