#include "results/SweepAxis.h"
#include "results/ShardMerge.h"
#include "io/DurableWrite.h"
#include "results/ResultsStore.h"
#include "results/SpecFingerprint.h"
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <algorithm>

namespace sb {

namespace {
QString cellKey(const CellResult &c) { return QStringLiteral("%1|%2|%3").arg(c.index).arg(c.server).arg(c.concurrency); }

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
    QHash<int, QString> folderOfIndex;
    for (const QString &given : folders) {
        const QString folder = QFileInfo(given).absoluteFilePath(); // cell sources are copied from it
        SweepResults r;
        QString why;
        if (!ResultsStore::readResults(folder, &r, &why))
            return fail(error, QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(folder), why));
        if (!r.shard.sharded())
            return fail(error, QStringLiteral("%1 is not a shard (it was not run with --shard K/N)").arg(QDir::toNativeSeparators(folder)));
        if (!shards.isEmpty()) {
            const SweepResults &first = shards.first();
            if (r.shard.count != first.shard.count)
                return fail(error, QStringLiteral("%1 is shard %2 but %3 is shard %4: the shard counts differ")
                                       .arg(QDir::toNativeSeparators(folder), r.shard.text(), QDir::toNativeSeparators(folders.first()), first.shard.text()));
            // Any difference refuses (servers added or removed too); the keys are named when they can be.
            const QStringList diff = fingerprintDifferences(first.specFingerprint, r.specFingerprint);
            if (first.specFingerprint != r.specFingerprint || r.cells.size() != first.cells.size())
                return fail(error, QStringLiteral("%1 and %2 are shards of different sweeps: %3")
                                       .arg(QDir::toNativeSeparators(folders.first()), QDir::toNativeSeparators(folder),
                                            !diff.isEmpty() ? diff.join(QStringLiteral("; "))
                                            : r.cells.size() != first.cells.size() ? QStringLiteral("their cells differ")
                                                                                  : QStringLiteral("their spec fingerprints differ")));
            for (int i = 0; i < r.cells.size(); ++i)
                if (cellKey(r.cells[i]) != cellKey(first.cells[i]))
                    return fail(error, QStringLiteral("%1 and %2 plan different cells (cell %3)").arg(folders.first(), folder).arg(i));
        }
        if (folderOfIndex.contains(r.shard.index))
            return fail(error, QStringLiteral("shard %1 is given twice: %2 and %3")
                                   .arg(r.shard.text(), QDir::toNativeSeparators(folderOfIndex.value(r.shard.index)), QDir::toNativeSeparators(folder)));
        folderOfIndex.insert(r.shard.index, folder);
        shards.append(r);
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
        const QString folder = folderOfIndex.value(shard.shard.index);
        if (!r.startedAt.isValid() || (shard.startedAt.isValid() && shard.startedAt < r.startedAt))
            r.startedAt = shard.startedAt;
        if (shard.finishedAt.isValid() && (!r.finishedAt.isValid() || shard.finishedAt > r.finishedAt))
            r.finishedAt = shard.finishedAt;
        r.mergedFrom.append(QJsonObject{{QStringLiteral("shard"), shard.shard.text()},
                                        {QStringLiteral("folder"), QDir(folder).dirName()},
                                        {QStringLiteral("host"), shard.host.value(QStringLiteral("hostname"))}});
        for (int i = 0; i < shard.cells.size(); ++i) {
            const CellResult &c = shard.cells[i];
            if (c.status == CellStatus::Pending)
                continue; // another shard's cell, or one this shard never reached
            if (!m.cellSource[i].isEmpty())
                return fail(error, QStringLiteral("cell %1 (%2, %3) was run by two shards: %4 and %5")
                                       .arg(i).arg(c.server, pointLabel(c)).arg(QDir::toNativeSeparators(m.cellSource[i]), QDir::toNativeSeparators(folder)));
            r.cells[i] = c;
            m.cellSource[i] = folder;
        }
    }
    // Cells still pending say why: their shard is missing, or it stopped before them.
    static const QLatin1String otherShard("runs in shard ");
    for (int i = 0; i < r.cells.size(); ++i) {
        if (!m.cellSource[i].isEmpty())
            continue;
        CellResult &c = r.cells[i];
        c.status = CellStatus::Pending;
        QString owner;
        for (const SweepResults &shard : std::as_const(shards))
            if (!shard.cells[i].reason.startsWith(otherShard))
                owner = shard.shard.text();
        if (!owner.isEmpty()) {
            c.reason = QStringLiteral("not run: shard %1 stopped before this cell").arg(owner);
        } else {
            const QString named = first.cells[i].reason.mid(otherShard.size());
            c.reason = QStringLiteral("shard %1 is missing").arg(named.isEmpty() ? missing.join(QStringLiteral(", ")) : named);
        }
    }
    *out = std::move(m);
    return true;
}

bool writeMergedShards(const MergedShards &merged, const QString &outDir, QString *error)
{
    if (ResultsStore::hasResults(outDir))
        return fail(error, QStringLiteral("%1 already holds results: merge into a new folder").arg(QDir::toNativeSeparators(outDir)));
    ResultsStore store(outDir);
    if (!store.prepare(error))
        return false;
    SweepResults results = merged.results;
    QString firstSource;
    for (int i = 0; i < results.cells.size(); ++i) {
        const QString &source = merged.cellSource[i];
        if (source.isEmpty())
            continue;
        if (firstSource.isEmpty())
            firstSource = source;
        CellResult &c = results.cells[i];
        // The cell's own folder: records.jsonl and whatever else the engine wrote beside it.
        const QString cellDir = QFileInfo(c.recordsPath).path();
        const QString from = QDir(source).filePath(cellDir);
        QDirIterator it(from, QDir::Files | QDir::NoSymLinks, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString file = it.next();
            const QString rel = QDir(source).relativeFilePath(file);
            const QString to = store.absolute(rel);
            if (!QDir().mkpath(QFileInfo(to).path()))
                return fail(error, QStringLiteral("cannot create %1").arg(QDir::toNativeSeparators(QFileInfo(to).path())));
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
                    return fail(error, QStringLiteral("cannot create %1").arg(QDir::toNativeSeparators(QFileInfo(to).path())));
                if (!copyFileDurably(trace, to, error))
                    return false;
            }
            trace = to;
        }
    }
    if (!firstSource.isEmpty()) {
        const QString spec = QDir(firstSource).filePath(QStringLiteral("sweep.yaml"));
        if (QFileInfo::exists(spec) && !copyFileDurably(spec, store.absolute(QStringLiteral("sweep.yaml")), error))
            return false;
    }
    return store.writeResults(results, error);
}

} // namespace sb
