#include "results/ResultsStore.h"
#include "spec/SpecIO.h"
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSysInfo>
#include <QThread>

namespace sb {

namespace {
bool atomicWrite(const QString &path, const QByteArray &data, QString *error)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit()) {
        if (error)
            *error = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}
} // namespace

ResultsStore::ResultsStore(const QString &outDir) : m_outDir(QDir(outDir).absolutePath()) {}

bool ResultsStore::prepare(QString *error)
{
    if (!QDir().mkpath(m_outDir + QStringLiteral("/cells"))) {
        if (error)
            *error = QStringLiteral("cannot create results folder %1").arg(m_outDir);
        return false;
    }
    return true;
}

bool ResultsStore::writeSpec(const SweepSpec &spec, QString *error)
{
    return atomicWrite(m_outDir + QStringLiteral("/sweep.yaml"), saveSpecYaml(spec, SecretPolicy::Strip), error);
}

bool ResultsStore::writeResults(const SweepResults &results, QString *error)
{
    return atomicWrite(m_outDir + QStringLiteral("/results.json"), QJsonDocument(toJson(results)).toJson(QJsonDocument::Indented), error);
}

bool ResultsStore::readResults(const QString &outDir, SweepResults *out, QString *error)
{
    QFile f(outDir + QStringLiteral("/results.json"));
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("no results.json in %1").arg(outDir);
        return false;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (!doc.isObject()) {
        if (error)
            *error = QStringLiteral("%1: invalid JSON at offset %2: %3").arg(f.fileName()).arg(pe.offset).arg(pe.errorString());
        return false;
    }
    return sweepResultsFromJson(doc.object(), out, error);
}

QString ResultsStore::cellDirName(int index, const QString &server, int concurrency)
{
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]+"));
    QString safe = server;
    safe.replace(unsafe, QStringLiteral("_"));
    return QStringLiteral("cells/%1-%2-c%3").arg(index, 3, 10, QLatin1Char('0')).arg(safe.left(60)).arg(concurrency);
}

QString ResultsStore::absolute(const QString &relative) const
{
    return m_outDir + QLatin1Char('/') + relative;
}

QJsonObject hostInfo()
{
    return QJsonObject{{QStringLiteral("hostname"), QSysInfo::machineHostName()},
                       {QStringLiteral("os"), QSysInfo::prettyProductName()},
                       {QStringLiteral("kernel"), QSysInfo::kernelVersion()},
                       {QStringLiteral("cpu_arch"), QSysInfo::currentCpuArchitecture()},
                       {QStringLiteral("cpu_count"), QThread::idealThreadCount()},
                       {QStringLiteral("qt_version"), QString::fromLatin1(qVersion())}};
}

} // namespace sb
