#include "report/BundleWriter.h"
#include "io/BoundedRead.h"
#include "io/DurableWrite.h"
#include "report/ResultsCsv.h"
#include "report/ResultsLoader.h"
#include "report/SecretScrub.h"
#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSysInfo>
#include <QRandomGenerator>
#include <cerrno>
#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <unistd.h>
#include <quazip/quazip.h>
#include <quazip/quazipfile.h>
#include <quazip/quazipnewinfo.h>

namespace sb {

namespace {
// Our own importer refuses archives over 2 GiB uncompressed; stay well below so bundles re-open.
constexpr qint64 kMaxRecordsBytes = qint64(1536) * 1024 * 1024;

QString nowIso() { return QDateTime::currentDateTimeUtc().toString(Qt::ISODate); }

// Records are copied only from cells/<dir>/...jsonl so they cannot shadow another bundle file.
bool acceptableRecordsPath(const QString &p)
{
    return p.startsWith(QLatin1String("cells/")) && p.endsWith(QLatin1String(".jsonl")) && !p.contains(QLatin1String(".."));
}

// A records.jsonl cut short (a crash or a full disk while it was written elsewhere, a partial
// copy) ends without a newline or with a line that is not JSON. Only the last line is parsed:
// the file is large and that is where a cut shows.
QString recordsDamage(const QByteArray &data)
{
    if (data.isEmpty())
        return {};
    if (!data.endsWith('\n'))
        return QStringLiteral("the last line has no newline");
    const qsizetype start = data.lastIndexOf('\n', data.size() - 2) + 1;
    QJsonParseError pe;
    QJsonDocument::fromJson(data.mid(start), &pe);
    if (pe.error != QJsonParseError::NoError)
        return QStringLiteral("the last line is not JSON: %1").arg(pe.errorString());
    return {};
}

// QuaZip seeks while it writes, and a seek clears a QFile's error: this file keeps the first
// failed write's reason ("No space left on device") for the message. Open it unbuffered.
class ErrorKeepingFile : public QFile
{
public:
    using QFile::QFile;
    const QString &firstError() const { return m_firstError; }

protected:
    qint64 writeData(const char *data, qint64 size) override
    {
        qint64 n = QFile::writeData(data, size);
        if (n >= 0 && n < size) { // a short write sets no error: the next write meets it
            const qint64 more = QFile::writeData(data + n, size - n);
            n = more < 0 ? more : n + more;
        }
        if (n != size && m_firstError.isEmpty())
            m_firstError = error() != QFileDevice::NoError ? errorString() : QStringLiteral("short write");
        return n;
    }

private:
    QString m_firstError;
};

void addRecords(const LoadedResults &loaded, QList<BundleFile> *files, QSet<QString> *bundled, QStringList *warnings)
{
    qint64 total = 0;
    for (const CellResult &c : loaded.results.cells) {
        // The cell's records and, when its server or GPUs were scraped, their series.
        for (const QString &relPath : {c.recordsPath, c.serverMetricsInfo.series, c.gpuTelemetry ? c.gpuTelemetry->series : QString()}) {
            if (relPath.isEmpty() || bundled->contains(relPath))
                continue;
            if (!acceptableRecordsPath(relPath)) {
                warnings->append(QStringLiteral("cell %1: records path \"%2\" is not under cells/; not bundled").arg(c.index).arg(relPath));
                continue;
            }
            const QString path = loaded.folder + QLatin1Char('/') + relPath;
            const QFileInfo fi(path);
            if (fi.isSymLink() || !fi.exists()) {
                warnings->append(QStringLiteral("cell %1: records file %2 is missing").arg(c.index).arg(relPath));
                continue;
            }
            QByteArray data;
            QString why;
            if (!readRegularFile(path, kMaxRecordsBytes - total, &data, &why)) {
                warnings->append(fi.isFile() && fi.size() > kMaxRecordsBytes - total
                                     ? QStringLiteral("cell %1: records left out (bundle records limit of %2 MiB reached)")
                                           .arg(c.index).arg(kMaxRecordsBytes / (1024 * 1024))
                                     : QStringLiteral("cell %1: records not bundled: %2").arg(c.index).arg(why));
                continue;
            }
            if (const QString damage = recordsDamage(data); !damage.isEmpty())
                warnings->append(QStringLiteral("cell %1: %2 is truncated (%3); bundled as it is").arg(c.index).arg(relPath, damage));
            total += data.size();
            files->append({relPath, data});
            bundled->insert(relPath);
        }
    }
}

// Profiler traces into traces/<cell index>/<file name>: one folder per cell, so ranks of
// different cells with the same file name do not collide. Only regular files, never symlinks.
void addTraces(const LoadedResults &loaded, QList<BundleFile> *files, QMap<QString, QString> *bundled, QStringList *warnings)
{
    qint64 total = 0;
    for (const CellResult &c : loaded.results.cells) {
        for (const QString &t : c.traces) {
            if (bundled->contains(t))
                continue;
            const QFileInfo fi(t);
            const QString name = fi.fileName();
            if (name.isEmpty() || name == QLatin1String("..") || fi.isSymLink() || !fi.isFile()) {
                warnings->append(QStringLiteral("cell %1: trace %2 is not on disk; not bundled").arg(c.index).arg(name.isEmpty() ? t : name));
                continue;
            }
            QByteArray data;
            QString why;
            if (fi.size() > kMaxBundledTraceBytes - total || !readRegularFile(t, kMaxBundledTraceBytes - total, &data, &why)) {
                warnings->append(why.isEmpty() || fi.size() > kMaxBundledTraceBytes - total
                                     ? QStringLiteral("cell %1: trace %2 left out (bundle traces limit of %3 MiB reached)")
                                           .arg(c.index).arg(name).arg(kMaxBundledTraceBytes / (1024 * 1024))
                                     : QStringLiteral("cell %1: trace %2 not bundled: %3").arg(c.index).arg(name, why));
                continue;
            }
            total += data.size();
            const QString rel = QStringLiteral("traces/%1/%2").arg(c.index, 3, 10, QLatin1Char('0')).arg(name);
            files->append({rel, data});
            bundled->insert(t, rel);
        }
    }
}

QStringList collectSecrets(const QByteArray &specYaml, const BundleOptions &options, StrippedSpec *stripped)
{
    QStringList secrets = options.extraSecrets;
    if (!specYaml.isEmpty()) {
        *stripped = stripSpecYaml(specYaml);
        secrets += stripped->secrets;
    }
    for (const QByteArray &spec : options.extraSpecs)
        secrets += secretsInSpec(spec);
    secrets.removeDuplicates();
    secrets.removeAll(QString());
    return secrets;
}
} // namespace

TraceTotals traceTotals(const SweepResults &results)
{
    TraceTotals t;
    QSet<QString> seen;
    for (const CellResult &c : results.cells)
        for (const QString &path : c.traces) {
            if (seen.contains(path))
                continue;
            seen.insert(path);
            const QFileInfo fi(path);
            if (fi.isFile() && !fi.isSymLink()) {
                ++t.files;
                t.bytes += fi.size();
            } else {
                ++t.missing;
            }
        }
    return t;
}

QByteArray manifestJson(const QList<BundleFile> &files, const QString &sourceName, const QString &sourceTool,
                        const QStringList &warnings)
{
    QJsonArray list;
    for (const BundleFile &f : files)
        list.append(QJsonObject{{QStringLiteral("path"), f.path},
                                {QStringLiteral("size"), qint64(f.data.size())},
                                {QStringLiteral("sha256"), QString::fromLatin1(QCryptographicHash::hash(f.data, QCryptographicHash::Sha256).toHex())}});
    const QJsonObject o{
        {QStringLiteral("schema"), QStringLiteral("sweepbench-bundle/1")},
        {QStringLiteral("tool"), QJsonObject{{QStringLiteral("name"), QStringLiteral("sweepbench")}, {QStringLiteral("version"), QStringLiteral(SWEEPBENCH_VERSION)}}},
        {QStringLiteral("created_at"), nowIso()},
        {QStringLiteral("host"), QJsonObject{{QStringLiteral("hostname"), QHostInfo::localHostName()},
                                             {QStringLiteral("os"), QSysInfo::prettyProductName()},
                                             {QStringLiteral("kernel"), QSysInfo::kernelVersion()},
                                             {QStringLiteral("arch"), QSysInfo::currentCpuArchitecture()}}},
        {QStringLiteral("qt_version"), QString::fromLatin1(qVersion())},
        {QStringLiteral("source"), sourceName},
        {QStringLiteral("source_tool"), sourceTool},
        {QStringLiteral("files"), list},
        {QStringLiteral("warnings"), QJsonArray::fromStringList(warnings)},
    };
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

bool writeZipAtomically(const QString &zipPath, const QList<BundleFile> &files, QString *error)
{
    const QFileInfo target(zipPath);
    if (!QDir().mkpath(target.absolutePath())) {
        *error = QStringLiteral("cannot create folder %1").arg(target.absolutePath());
        return false;
    }
    // A fresh name (O_EXCL) created with mode 0666, so the zip gets the user's umask like any
    // file they save (QTemporaryFile would leave it 0600: unreadable to the colleague it is for).
    QString tmpPath;
    int fd = -1;
    for (int attempt = 0; fd < 0 && attempt < 8; ++attempt) {
        tmpPath = QStringLiteral("%1/.%2.%3.part").arg(target.absolutePath(), target.fileName(), QString::number(QRandomGenerator::global()->generate64(), 36));
        fd = ::open(QFile::encodeName(tmpPath).constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        *error = QStringLiteral("cannot create a file in %1: %2").arg(target.absolutePath(), qt_error_string(errno));
        return false;
    }
    ::close(fd);
    // QuaZip writes through a QFile we hold, so a failed write is reported with the OS reason
    // ("No space left on device") rather than a bare zip error code (io/DurableWrite.h).
    ErrorKeepingFile file(tmpPath);
    auto fail = [&](const QString &what, int zipError) {
        const QString reason = !file.firstError().isEmpty() ? file.firstError() : QStringLiteral("zip error %1").arg(zipError);
        file.close();
        QFile::remove(tmpPath);
        *error = QStringLiteral("cannot write %1: %2: %3").arg(QDir::toNativeSeparators(zipPath), what, reason);
        return false;
    };

    // Unbuffered: each write reaches the kernel at once, so its failure is seen by writeData
    // (a buffered QFile fails later, inside a seek that then clears the error).
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Unbuffered))
        return fail(QStringLiteral("cannot open the zip"), ZIP_OK);
    QuaZip zip(&file);
    zip.setAutoClose(false); // closed here, after the flush and fsync are checked
    zip.setUtf8Enabled(true);
    if (!zip.open(QuaZip::mdCreate))
        return fail(QStringLiteral("cannot create the zip"), zip.getZipError());
    const QDateTime now = QDateTime::currentDateTime();
    for (const BundleFile &f : files) {
        QuaZipNewInfo info(f.path);
        info.dateTime = now;
        info.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
        QuaZipFile out(&zip);
        // PNGs are compressed already: store them.
        const bool stored = f.path.endsWith(QLatin1String(".png"));
        if (!out.open(QIODevice::WriteOnly, info, nullptr, 0, stored ? 0 : Z_DEFLATED, stored ? 0 : Z_DEFAULT_COMPRESSION)) {
            zip.close();
            return fail(QStringLiteral("cannot add %1").arg(f.path), out.getZipError());
        }
        const bool written = out.write(f.data) == f.data.size();
        out.close();
        if (!written || out.getZipError() != ZIP_OK || !file.firstError().isEmpty()) {
            zip.close();
            return fail(QStringLiteral("cannot add %1").arg(f.path), out.getZipError());
        }
    }
    zip.close();
    if (zip.getZipError() != ZIP_OK || !file.flush() || !file.firstError().isEmpty())
        return fail(QStringLiteral("cannot finish the zip"), zip.getZipError());
    if (::fsync(file.handle()) != 0 && errno != EINVAL) {
        const int err = errno;
        file.close();
        QFile::remove(tmpPath);
        *error = writeErrorMessage(zipPath, err);
        return false;
    }
    file.close();
    if (file.error() != QFileDevice::NoError)
        return fail(QStringLiteral("cannot close the zip"), ZIP_OK);
    QString why;
    if (!publishFile(tmpPath, target.absoluteFilePath(), &why)) {
        QFile::remove(tmpPath);
        *error = QStringLiteral("cannot move the zip into place at %1: %2").arg(QDir::toNativeSeparators(zipPath), why);
        return false;
    }
    return true;
}

bool writeBundle(const QString &resultsPath, const QString &zipPath, const BundleOptions &options, BundleReport *report, QString *error)
{
    QString err;
    const std::optional<LoadedResults> loaded = loadResults(resultsPath, &err);
    if (!loaded) {
        if (error)
            *error = err;
        return false;
    }
    return writeBundle(*loaded, zipPath, options, report, error);
}

bool writeBundle(const LoadedResults &set, const QString &zipPath, const BundleOptions &options, BundleReport *report, QString *error)
{
    QString err;
    const LoadedResults *loaded = &set; // the caller's set: what it charted is what is bundled
    BundleReport rep;
    rep.warnings = options.warnings;
    StrippedSpec stripped;
    const QStringList secrets = collectSecrets(loaded->specYaml, options, &stripped);
    rep.warnings += stripped.warnings;
    if (!stripped.unsetKeyVariables.isEmpty()) {
        const QString names = stripped.unsetKeyVariables.join(QStringLiteral(", "));
        const bool supplied = secrets.size() > stripped.secrets.size(); // the caller named the key another way
        if (!supplied && !options.allowUnknownSecrets) {
            if (error)
                *error = QStringLiteral("refusing to export: the results were produced with the API key from %1, which is not set now, "
                                        "so the export cannot check that the key is absent. Set %1 to the key the run used and export "
                                        "again, or name another variable holding it with `sweepbench export --secret-env NAME`; "
                                        "`--no-secret-check` exports without this check (the run scrubbed the keys it knew).")
                             .arg(names);
            return false;
        }
        rep.warnings.append(QStringLiteral("%1 is not set: the export could not scan for that key%2")
                                .arg(names, supplied ? QStringLiteral(" (scanned for the secrets given instead)") : QStringLiteral(" (--no-secret-check)")));
    }
    for (const QString &s : secrets)
        if (s.size() < kMinSecretLength)
            rep.warnings.append(QStringLiteral("a secret shorter than %1 characters cannot be scanned for; only sweep.yaml was stripped").arg(kMinSecretLength));

    QList<BundleFile> files;
    QSet<QString> bundled;
    if (!stripped.yaml.isEmpty())
        files.append({QStringLiteral("sweep.yaml"), stripped.yaml});
    QByteArray original;
    if (loaded->results.sourceTool == QLatin1String("sweepbench")
        && readRegularFile(loaded->folder + QStringLiteral("/results.json"), kMaxResultsFileBytes, &original, &err))
        files.append({QStringLiteral("results.json"), original}); // byte for byte: keeps fields newer builds add
    else
        files.append({QStringLiteral("results.json"), QJsonDocument(toJson(loaded->results)).toJson(QJsonDocument::Indented)});
    files.append({QStringLiteral("results.csv"), resultsCsv(loaded->results)});
    addRecords(*loaded, &files, &bundled, &rep.warnings);
    QMap<QString, QString> traces;
    if (options.includeTraces)
        addTraces(*loaded, &files, &traces, &rep.warnings);
    for (const BundleFile &c : options.chartFiles) {
        if (!c.path.startsWith(QLatin1String("charts/")) || c.path.contains(QLatin1String(".."))) {
            rep.warnings.append(QStringLiteral("chart %1 not bundled: charts live under charts/").arg(c.path));
            continue;
        }
        files.append(c);
    }
    for (const BundleFile &f : std::as_const(files))
        bundled.insert(f.path);

    // Scrub before report.html is built, so its inputs are clean too; then scrub the page again.
    for (BundleFile &f : files)
        rep.redactions += redactSecrets(&f.data, secrets);
    ReportHtmlInput html;
    html.results = loaded->results;
    html.sourceName = loaded->displayName;
    html.charts = options.charts;
    html.bundledFiles = bundled;
    html.bundledTraces = traces;
    html.hookIcons = options.hookIcons;
    html.generatedAt = nowIso();
    html.generatorHost = QHostInfo::localHostName();
    if (rep.redactions > 0)
        rep.warnings.append(QStringLiteral("%1 occurrence(s) of a secret (API key or credential header) were replaced by [redacted]").arg(rep.redactions));
    html.warnings = rep.warnings;
    BundleFile page{QStringLiteral("report.html"), reportHtml(html)};
    rep.redactions += redactSecrets(&page.data, secrets);
    files.append(page);
    BundleFile manifest{QStringLiteral("manifest.json"), manifestJson(files, loaded->displayName, loaded->results.sourceTool, rep.warnings)};
    redactSecrets(&manifest.data, secrets);
    files.append(manifest);

    for (const BundleFile &f : std::as_const(files)) {
        if (containsSecret(f.data, secrets)) { // cannot happen after redaction; refuse rather than leak
            if (error)
                *error = QStringLiteral("refusing to export: %1 still contains a secret").arg(f.path);
            return false;
        }
    }
    if (!writeZipAtomically(zipPath, files, &err)) {
        if (error)
            *error = err;
        return false;
    }
    for (const BundleFile &f : std::as_const(files))
        rep.files.append(f.path);
    if (report)
        *report = rep;
    return true;
}

} // namespace sb
