#include "results/SweepAxis.h"
#include "results/ShardMerge.h"
#include "io/BoundedRead.h"
#include "io/DurableWrite.h"
#include "results/ResultsStore.h"
#include "results/SpecFingerprint.h"
#include "spec/SpecIO.h"
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QSet>
#include <algorithm>
#include <limits>
#include <sys/stat.h>

namespace sb {

namespace {
const QString kResultsFile = QStringLiteral("results.json");
const QString kSpecFile = QStringLiteral("sweep.yaml");
const QString kRecordsFile = QStringLiteral("records.jsonl");
const QLatin1String kOtherShard("runs in shard ");

// What makes a cell the cell it is: server, point (axis and value) and repeat. Two cells with
// the same identity measure the same thing, so no two shards may claim one.
QString cellIdentity(const CellResult &c)
{
    return QStringLiteral("%1|%2|%3|%4|%5")
        .arg(c.server)
        .arg(int(axisOf(c)))
        .arg(pointValue(c), 0, 'g', 17)
        .arg(c.repeat)
        .arg(c.sloSearch ? 1 : 0);
}
QString cellKey(const CellResult &c) { return QString::number(c.index) + QLatin1Char('|') + cellIdentity(c); }
// "(a, c=4, repeat 2)" and "cell 3 (a, c=4, repeat 2)", as messages name a cell.
QString cellIdentityText(const CellResult &c) { return QStringLiteral("(%1, %2, repeat %3)").arg(c.server, pointLabel(c)).arg(c.repeat + 1); }
QString describeCell(int i, const CellResult &c) { return QStringLiteral("cell %1 ").arg(i) + cellIdentityText(c); }
QString native(const QString &path) { return QDir::toNativeSeparators(path); }
QString resultsFileOf(const QString &folder) { return native(QDir(folder).filePath(kResultsFile)); }

bool fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

// A path inside `root` (after resolving), as a relative path; empty when outside.
QString insideOf(const QString &root, const QString &path)
{
    const QString r = QFileInfo(root).canonicalFilePath();
    const QString p = QFileInfo(path).canonicalFilePath();
    if (r.isEmpty() || p.isEmpty() || !p.startsWith(r + QLatin1Char('/')))
        return {};
    return p.mid(r.size() + 1);
}

// True when something (a file, a dangling link, a FIFO) is at `path`.
bool somethingAt(const QString &path)
{
    struct stat st{};
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0;
}

// A shard's sweep.yaml, when it has one: a plain file that parses as a spec and describes what
// the shard's results.json says it measured (same spec fingerprint). `canonical` is the spec as
// the writer writes it, so shards compare by content, not by formatting.
bool readShardSpec(const QString &folder, const SweepResults &r, QByteArray *text, QByteArray *canonical, SpecFingerprint *fingerprint,
                   QString *error)
{
    const QString path = QDir(folder).filePath(kSpecFile);
    if (!somethingAt(path))
        return true;
    if (!checkPlainFile(path, kMaxSmallFileBytes, error) || !readRegularFile(path, kMaxSmallFileBytes, text, error))
        return false;
    const SpecLoadResult loaded = loadSpecText(*text, native(path));
    const std::optional<SweepSpec> &spec = loaded.spec ? loaded.spec : loaded.draft;
    if (!spec) {
        QString first;
        for (const SpecDiagnostic &d : loaded.diagnostics)
            if (d.isError() && first.isEmpty())
                first = d.toString();
        return fail(error, QStringLiteral("%1 is not a readable sweep spec: %2").arg(native(path), first));
    }
    const QString datasetSha = r.specFingerprint.workload.value(QStringLiteral("dataset.sha256")).toString();
    *fingerprint = specFingerprint(*spec, datasetSha);
    if (!r.specFingerprint.isEmpty()) {
        const QStringList diff = fingerprintDifferences(r.specFingerprint, *fingerprint);
        if (!diff.isEmpty())
            return fail(error, QStringLiteral("%1 does not describe what %2 was measured with: %3")
                                   .arg(native(path), resultsFileOf(folder), diff.join(QStringLiteral("; "))));
    }
    *canonical = saveSpecYaml(*spec, SecretPolicy::Strip);
    return true;
}

// Every file of a cell a merge copies must lie inside its shard as what it claims to be: its
// records path a plain relative cells/<cell>/records.jsonl, its folder a real folder inside the
// shard, every entry in it a regular file or folder (a link out, a FIFO or a device would be
// copied as something else, or skipped, leaving results.json pointing at nothing), and the
// records themselves there whenever the cell holds measurements.
bool checkCellFiles(const QString &shard, int i, const CellResult &c, QString *error)
{
    const QString where = QStringLiteral("%1: %2").arg(resultsFileOf(shard), describeCell(i, c));
    if (c.recordsPath.isEmpty()) {
        if (hasMeasurements(c.status))
            return fail(error, QStringLiteral("%1 is %2 but names no records file").arg(where, cellStatusName(c.status)));
        return true;
    }
    if (!ResultsStore::isCellFilePath(c.recordsPath, kRecordsFile))
        return fail(error, QStringLiteral("%1: records path \"%2\" is not cells/<cell folder>/records.jsonl").arg(where, c.recordsPath));
    const QString cellFolder = QFileInfo(c.recordsPath).path();
    const QString dir = QDir(shard).filePath(cellFolder);
    const QString records = QDir(shard).filePath(c.recordsPath);
    const bool hasRecords = somethingAt(records);
    if (!somethingAt(dir) || !hasRecords) {
        if (hasMeasurements(c.status))
            return fail(error, QStringLiteral("%1 is %2 but its records file %3 does not exist").arg(where, cellStatusName(c.status), native(records)));
        if (!somethingAt(dir))
            return true;
    }
    // Resolved, the folder must be the very folder it names: no link on the way out of the shard.
    const QString expected = QDir(shard).canonicalPath() + QLatin1Char('/') + cellFolder;
    if (QFileInfo(dir).canonicalFilePath() != expected || !QFileInfo(dir).isDir() || QFileInfo(dir).isSymLink())
        return fail(error, QStringLiteral("%1: %2 is not a folder inside the shard (a link or a file)").arg(where, native(dir)));
    QString why;
    if (hasRecords && !checkPlainFile(records, std::numeric_limits<qint64>::max(), &why))
        return fail(error, QStringLiteral("%1: %2").arg(where, why));
    QDirIterator it(dir, QDir::AllEntries | QDir::System | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString entry = it.next();
        struct stat st{};
        if (::lstat(QFile::encodeName(entry).constData(), &st) != 0 || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
            return fail(error, QStringLiteral("%1: %2 is not a regular file (a link, a FIFO or a device); only regular files are merged")
                                   .arg(where, native(entry)));
    }
    return true;
}
} // namespace

QStringList shardFoldersIn(const QString &dir)
{
    QStringList out;
    const QFileInfoList entries = QDir(dir).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (const QFileInfo &e : entries) {
        if (!ResultsStore::hasResults(e.filePath()))
            continue;
        SweepResults r;
        if (ResultsStore::readResults(e.filePath(), &r, nullptr) && r.shard.sharded())
            out.append(e.filePath());
    }
    return out;
}

bool mergeShardFolders(const QStringList &folders, bool allowMissing, MergedShards *out, QString *error)
{
    if (folders.isEmpty())
        return fail(error, QStringLiteral("no shard folders given"));
    QList<SweepResults> shards;
    QStringList shardFolders; // absolute, per entry of `shards`
    QHash<int, QString> folderOfIndex;
    QByteArray specText, specCanonical;
    SpecFingerprint specPrint;
    QString specFrom;
    for (const QString &given : folders) {
        const QString folder = QFileInfo(given).absoluteFilePath(); // cell sources are copied from it
        SweepResults r;
        QString why;
        if (!ResultsStore::readResults(folder, &r, &why))
            return fail(error, QStringLiteral("%1: %2").arg(native(folder), why));
        if (!r.shard.sharded())
            return fail(error, QStringLiteral("%1 is not a shard (it was not run with --shard K/N)").arg(native(folder)));
        if (!shards.isEmpty()) {
            const SweepResults &first = shards.first();
            if (r.shard.count != first.shard.count)
                return fail(error, QStringLiteral("%1 is shard %2 but %3 is shard %4: the shard counts differ")
                                       .arg(native(folder), r.shard.text(), native(folders.first()), first.shard.text()));
            // Any difference refuses (servers added or removed too); the keys are named when they can be.
            const QStringList diff = fingerprintDifferences(first.specFingerprint, r.specFingerprint);
            if (first.specFingerprint != r.specFingerprint || r.cells.size() != first.cells.size())
                return fail(error, QStringLiteral("%1 and %2 are shards of different sweeps: %3")
                                       .arg(native(folders.first()), native(folder),
                                            !diff.isEmpty() ? diff.join(QStringLiteral("; "))
                                            : r.cells.size() != first.cells.size() ? QStringLiteral("their cells differ")
                                                                                  : QStringLiteral("their spec fingerprints differ")));
            for (int i = 0; i < r.cells.size(); ++i)
                if (cellKey(r.cells[i]) != cellKey(first.cells[i]))
                    return fail(error, QStringLiteral("%1 and %2 plan different cells: %3 in one, %4 in the other")
                                           .arg(resultsFileOf(folders.first()), resultsFileOf(folder), describeCell(i, first.cells[i]),
                                                describeCell(i, r.cells[i])));
        } else {
            // Every shard plans the same cells (checked above), so one plan without repeats
            // means no cell can be claimed twice under two indexes.
            QHash<QString, int> seen;
            for (int i = 0; i < r.cells.size(); ++i) {
                const QString identity = cellIdentity(r.cells[i]);
                if (const auto it = seen.constFind(identity); it != seen.cend())
                    return fail(error, QStringLiteral("%1 plans %2 twice: as cell %3 and as cell %4")
                                           .arg(resultsFileOf(folder), cellIdentityText(r.cells[i]))
                                           .arg(*it).arg(i));
                seen.insert(identity, i);
            }
        }
        if (folderOfIndex.contains(r.shard.index))
            return fail(error, QStringLiteral("shard %1 is given twice: %2 and %3")
                                   .arg(r.shard.text(), native(folderOfIndex.value(r.shard.index)), native(folder)));
        // The merged folder gets one sweep.yaml: every shard's must say the same.
        QByteArray text, canonical;
        SpecFingerprint print;
        if (!readShardSpec(folder, r, &text, &canonical, &print, &why))
            return fail(error, QStringLiteral("shard %1: %2").arg(r.shard.text(), why));
        if (!canonical.isEmpty()) {
            if (specFrom.isEmpty()) {
                specText = text, specCanonical = canonical, specPrint = print, specFrom = folder;
            } else if (canonical != specCanonical) {
                const QStringList diff = fingerprintDifferences(specPrint, print);
                return fail(error, QStringLiteral("shard %1: %2 differs from %3: %4")
                                       .arg(r.shard.text(), native(QDir(folder).filePath(kSpecFile)), native(QDir(specFrom).filePath(kSpecFile)),
                                            diff.isEmpty() ? QStringLiteral("the sweep's name, description or points differ") : diff.join(QStringLiteral("; "))));
            }
        }
        folderOfIndex.insert(r.shard.index, folder);
        shards.append(r);
        shardFolders.append(folder);
    }
    const int count = shards.first().shard.count;
    QStringList missing;
    for (int k = 0; k < count; ++k)
        if (!folderOfIndex.contains(k))
            missing.append(ShardId{k, count}.text());
    if (!missing.isEmpty() && !allowMissing)
        return fail(error, QStringLiteral("missing shard(s) %1 of %2: their cells would stay pending (every shard folder must be given)")
                               .arg(missing.join(QStringLiteral(", "))).arg(count));

    MergedShards m;
    m.missingShards = missing;
    m.specYaml = specText;
    SweepResults &r = m.results;
    const SweepResults &first = shards.first();
    r.toolVersion = first.toolVersion;
    r.sweepName = first.sweepName;
    r.host = first.host;
    r.specFingerprint = first.specFingerprint;
    r.cells = first.cells;
    m.cellSource = QStringList(r.cells.size(), QString());
    for (int s = 0; s < shards.size(); ++s) {
        const SweepResults &shard = shards[s];
        const QString &folder = shardFolders[s];
        if (!r.startedAt.isValid() || (shard.startedAt.isValid() && shard.startedAt < r.startedAt))
            r.startedAt = shard.startedAt;
        if (shard.finishedAt.isValid() && (!r.finishedAt.isValid() || shard.finishedAt > r.finishedAt))
            r.finishedAt = shard.finishedAt;
        r.mergedFrom.append(MergedShard{shard.shard.text(), QDir(folder).dirName(), shard.host.hostname});
        const QString handedOver = kOtherShard + shard.shard.text();
        for (int i = 0; i < shard.cells.size(); ++i) {
            const CellResult &c = shard.cells[i];
            if (c.status == CellStatus::Pending)
                continue; // another shard's cell, or one this shard never reached
            if (!m.cellSource[i].isEmpty())
                return fail(error, QStringLiteral("%1 was run by two shards: %2 and %3")
                                       .arg(describeCell(i, c), resultsFileOf(m.cellSource[i]), resultsFileOf(folder)));
            // Every shard plans the same cells and marks those it leaves to another as "runs in
            // shard K/N": a cell whose owner kept it for itself (or gave it to a third shard) is
            // not this shard's, whatever its results.json says.
            for (int o = 0; o < shards.size(); ++o) {
                const CellResult &theirs = shards[o].cells[i];
                if (o == s || theirs.status != CellStatus::Pending || theirs.reason == handedOver)
                    continue;
                const QString owner = theirs.reason.startsWith(kOtherShard) ? QStringLiteral("shard ") + theirs.reason.mid(kOtherShard.size())
                                                                            : QStringLiteral("itself");
                return fail(error, QStringLiteral("shard %1 claims %2 in %3, but shard %4 plans it for %5 (%6): a shard's results may hold only its own cells")
                                       .arg(shard.shard.text(), describeCell(i, c), resultsFileOf(folder), shards[o].shard.text(), owner,
                                            resultsFileOf(shardFolders[o])));
            }
            r.cells[i] = c;
            m.cellSource[i] = folder;
        }
    }
    // Cells still pending say why: their shard is missing, or it stopped before them.
    for (int i = 0; i < r.cells.size(); ++i) {
        if (!m.cellSource[i].isEmpty())
            continue;
        CellResult &c = r.cells[i];
        c.status = CellStatus::Pending;
        QString owner;
        for (const SweepResults &shard : std::as_const(shards))
            if (!shard.cells[i].reason.startsWith(kOtherShard))
                owner = shard.shard.text();
        if (!owner.isEmpty()) {
            c.reason = QStringLiteral("not run: shard %1 stopped before this cell").arg(owner);
        } else {
            const QString named = first.cells[i].reason.mid(kOtherShard.size());
            c.reason = QStringLiteral("shard %1 is missing").arg(named.isEmpty() ? missing.join(QStringLiteral(", ")) : named);
        }
    }
    *out = std::move(m);
    return true;
}

bool checkMergedFiles(const MergedShards &merged, QString *error)
{
    QHash<QString, QString> folderOwner; // cell folder -> the cell that copies it
    for (int i = 0; i < merged.results.cells.size(); ++i) {
        const QString &source = merged.cellSource[i];
        if (source.isEmpty())
            continue;
        const CellResult &c = merged.results.cells[i];
        if (!checkCellFiles(source, i, c, error))
            return false;
        // Two cells copying one folder would overwrite each other's records in the merged set.
        const QString folder = QFileInfo(c.recordsPath).path();
        if (c.recordsPath.isEmpty())
            continue;
        if (const auto it = folderOwner.constFind(folder); it != folderOwner.cend())
            return fail(error, QStringLiteral("%1: %2 and %3 both keep their records in %4").arg(resultsFileOf(source), *it, describeCell(i, c), folder));
        folderOwner.insert(folder, describeCell(i, c));
    }
    return true;
}

bool writeMergedShards(const MergedShards &merged, const QString &outDir, QString *error)
{
    if (ResultsStore::hasResults(outDir))
        return fail(error, QStringLiteral("%1 already holds results: merge into a new folder").arg(native(outDir)));
    if (!checkMergedFiles(merged, error)) // before anything is written
        return false;
    ResultsStore store(outDir);
    if (!store.prepare(error))
        return false;
    SweepResults results = merged.results;
    for (int i = 0; i < results.cells.size(); ++i) {
        const QString &source = merged.cellSource[i];
        if (source.isEmpty())
            continue;
        CellResult &c = results.cells[i];
        // The cell's own folder: records.jsonl and whatever else the engine wrote beside it
        // (checkMergedFiles saw regular files and folders only). A cell without records (a
        // failed hook) may have no folder.
        QDirIterator it(c.recordsPath.isEmpty() ? QString() : QDir(source).filePath(QFileInfo(c.recordsPath).path()),
                        QDir::Files | QDir::NoSymLinks, QDirIterator::Subdirectories);
        while (!c.recordsPath.isEmpty() && it.hasNext()) {
            const QString file = it.next();
            const QString rel = QDir(source).relativeFilePath(file);
            const QString to = store.absolute(rel);
            if (!QDir().mkpath(QFileInfo(to).path()))
                return fail(error, QStringLiteral("cannot create %1").arg(native(QFileInfo(to).path())));
            if (!copyFileDurably(file, to, error))
                return false;
        }
        // Traces the shard wrote inside its own folder move with it; others stay where they are.
        for (QString &trace : c.traces) {
            const QString rel = insideOf(source, trace);
            if (rel.isEmpty())
                continue;
            const QString to = store.absolute(rel);
            if (!QFileInfo::exists(to)) {
                if (!QDir().mkpath(QFileInfo(to).path()))
                    return fail(error, QStringLiteral("cannot create %1").arg(native(QFileInfo(to).path())));
                if (!copyFileDurably(trace, to, error))
                    return false;
            }
            trace = to;
        }
    }
    if (!merged.specYaml.isEmpty() && !writeFileAtomically(store.absolute(kSpecFile), merged.specYaml, error))
        return false;
    return store.writeResults(results, error);
}

} // namespace sb
