#include "report/BundleWriter.h"
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
#include <QTemporaryFile>
#include <filesystem>
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

void addRecords(const LoadedResults &loaded, QList<BundleFile> *files, QSet<QString> *bundled, QStringList *warnings)
{
    qint64 total = 0;
    for (const CellResult &c : loaded.results.cells) {
        if (c.recordsPath.isEmpty() || bundled->contains(c.recordsPath))
            continue;
        if (!acceptableRecordsPath(c.recordsPath)) {
            warnings->append(QStringLiteral("cell %1: records path \"%2\" is not under cells/; not bundled").arg(c.index).arg(c.recordsPath));
            continue;
        }
        QFile f(loaded.folder + QLatin1Char('/') + c.recordsPath);
        const QFileInfo fi(f.fileName());
        if (fi.isSymLink() || !f.open(QIODevice::ReadOnly)) {
            warnings->append(QStringLiteral("cell %1: records file %2 is missing").arg(c.index).arg(c.recordsPath));
            continue;
        }
        if (total + f.size() > kMaxRecordsBytes) {
            warnings->append(QStringLiteral("cell %1: records left out (bundle records limit of %2 MiB reached)")
                                 .arg(c.index).arg(kMaxRecordsBytes / (1024 * 1024)));
            continue;
        }
        total += f.size();
        files->append({c.recordsPath, f.readAll()});
        bundled->insert(c.recordsPath);
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

QByteArray manifestJson(const QList<BundleFile> &files, const QString &sourceName, const QString &sourceTool)
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
    QTemporaryFile tmp(target.absolutePath() + QStringLiteral("/.") + target.fileName() + QStringLiteral(".XXXXXX.part"));
    tmp.setAutoRemove(false);
    if (!tmp.open()) {
        *error = QStringLiteral("cannot create a file in %1: %2").arg(target.absolutePath(), tmp.errorString());
        return false;
    }
    const QString tmpPath = tmp.fileName();
    tmp.close();
    auto fail = [&](const QString &msg) {
        QFile::remove(tmpPath);
        *error = msg;
        return false;
    };

    QuaZip zip(tmpPath);
    zip.setUtf8Enabled(true);
    if (!zip.open(QuaZip::mdCreate))
        return fail(QStringLiteral("cannot create zip %1 (zip error %2)").arg(tmpPath).arg(zip.getZipError()));
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
            return fail(QStringLiteral("cannot add %1 to the zip (zip error %2)").arg(f.path).arg(out.getZipError()));
        }
        const bool written = out.write(f.data) == f.data.size();
        out.close();
        if (!written || out.getZipError() != ZIP_OK) {
            zip.close();
            return fail(QStringLiteral("cannot write %1 into the zip (zip error %2)").arg(f.path).arg(out.getZipError()));
        }
    }
    zip.close();
    if (zip.getZipError() != ZIP_OK)
        return fail(QStringLiteral("cannot finish zip %1 (zip error %2)").arg(tmpPath).arg(zip.getZipError()));
    std::error_code ec;
    std::filesystem::rename(QFile::encodeName(tmpPath).toStdString(), QFile::encodeName(target.absoluteFilePath()).toStdString(), ec);
    if (ec)
        return fail(QStringLiteral("cannot move the zip into place at %1: %2").arg(zipPath, QString::fromStdString(ec.message())));
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
    QFile original(loaded->folder + QStringLiteral("/results.json"));
    if (loaded->results.sourceTool == QLatin1String("sweepbench") && original.open(QIODevice::ReadOnly))
        files.append({QStringLiteral("results.json"), original.readAll()}); // byte for byte: keeps fields newer builds add
    else
        files.append({QStringLiteral("results.json"), QJsonDocument(toJson(loaded->results)).toJson(QJsonDocument::Indented)});
    files.append({QStringLiteral("results.csv"), resultsCsv(loaded->results)});
    addRecords(*loaded, &files, &bundled, &rep.warnings);
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
    html.generatedAt = nowIso();
    html.generatorHost = QHostInfo::localHostName();
    if (rep.redactions > 0)
        rep.warnings.append(QStringLiteral("%1 occurrence(s) of a secret (API key or credential header) were replaced by [redacted]").arg(rep.redactions));
    html.warnings = rep.warnings;
    BundleFile page{QStringLiteral("report.html"), reportHtml(html)};
    rep.redactions += redactSecrets(&page.data, secrets);
    files.append(page);
    BundleFile manifest{QStringLiteral("manifest.json"), manifestJson(files, loaded->displayName, loaded->results.sourceTool)};
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
