#include "results/ResultsStore.h"
#include "io/BoundedJson.h"
#include "io/DurableWrite.h"
#include "results/CellCheck.h"
#include "spec/SpecIO.h"
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSysInfo>
#include <QThread>
#include <filesystem>

namespace sb {

ResultsStore::ResultsStore(const QString &outDir) : m_outDir(QDir(outDir).absolutePath()) {}

bool ResultsStore::prepare(QString *error)
{
    std::error_code ec;
    std::filesystem::create_directories(QFile::encodeName(m_outDir + QStringLiteral("/cells")).toStdString(), ec);
    if (ec) {
        if (error)
            *error = QStringLiteral("cannot create results folder %1: %2").arg(QDir::toNativeSeparators(m_outDir), qt_error_string(ec.value()));
        return false;
    }
    return true;
}

bool ResultsStore::writeSpec(const SweepSpec &spec, QString *error)
{
    return writeFileAtomically(m_outDir + QStringLiteral("/sweep.yaml"), saveSpecYaml(spec, SecretPolicy::Strip), error);
}

bool ResultsStore::writeResults(const SweepResults &results, QString *error)
{
    return writeFileAtomically(m_outDir + QStringLiteral("/results.json"), QJsonDocument(toJson(results)).toJson(QJsonDocument::Indented), error);
}

bool ResultsStore::hasResults(const QString &outDir)
{
    return QFileInfo::exists(outDir + QStringLiteral("/results.json"));
}

bool ResultsStore::readResults(const QString &outDir, SweepResults *out, QString *error)
{
    return readResultsForResume(outDir, out, nullptr, error);
}

bool ResultsStore::readResultsForResume(const QString &outDir, SweepResults *out, QStringList *cellProblems, QString *error)
{
    const QString path = outDir + QStringLiteral("/results.json");
    QJsonObject o;
    QString why;
    if (!readJsonFile(path, &o, &why, resultsFileCaps())) {
        if (error)
            *error = why;
        return false;
    }
    if (!sweepResultsFromJson(o, out, &why)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), why);
        return false;
    }
    if (cellProblems) {
        cellProblems->clear();
        const QJsonArray cells = o.value(QStringLiteral("cells")).toArray();
        for (qsizetype i = 0; i < cells.size(); ++i) {
            if (!cells[i].isObject())
                cellProblems->append(QStringLiteral("cells[%1]: expected an object").arg(i));
            else
                cellProblems->append(storedCellProblems(cells[i].toObject(), int(i)));
        }
    }
    return true;
}

JsonFileCaps ResultsStore::resultsFileCaps()
{
    JsonFileCaps caps;
    caps.maxBytes = kMaxResultsFileBytes;
    caps.arrayKey = "cells";
    caps.maxItems = kMaxResultsCells;
    caps.itemName = "cells";
    caps.maxItemValues = kMaxCellJsonValues;
    return caps;
}

QString ResultsStore::cellDirName(int index, const QString &server, int concurrency)
{
    return cellDirName(index, server, QStringLiteral("c%1").arg(concurrency));
}

QString ResultsStore::cellDirName(int index, const QString &server, const QString &pointTag)
{
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]+"));
    QString safe = server;
    safe.replace(unsafe, QStringLiteral("_"));
    return QStringLiteral("cells/%1-%2-%3").arg(index, 3, 10, QLatin1Char('0')).arg(safe.left(60), pointTag);
}

QString ResultsStore::absolute(const QString &relative) const
{
    return m_outDir + QLatin1Char('/') + relative;
}

bool ResultsStore::isCellFilePath(const QString &relative, const QString &fileName)
{
    const QStringList parts = relative.split(QLatin1Char('/'));
    return parts.size() == 3 && parts[0] == QLatin1String("cells") && parts[2] == fileName && !parts[1].isEmpty()
           && parts[1] != QLatin1String(".") && parts[1] != QLatin1String("..") && !parts[1].contains(QLatin1Char('\\'))
           && !parts[1].contains(QLatin1Char(':'));
}

HostInfo hostInfo()
{
    return HostInfo{QSysInfo::machineHostName(),       QSysInfo::prettyProductName(), QSysInfo::kernelVersion(),
                    QSysInfo::currentCpuArchitecture(), QThread::idealThreadCount(),   QString::fromLatin1(qVersion())};
}

} // namespace sb
