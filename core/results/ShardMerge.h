#pragma once
// Putting the shards of one sweep back together (docs/ARCHITECTURE.md §16): `sweepbench merge`
// writes one results folder; opening a folder of shard folders merges them in memory.
#include "results/Results.h"
#include <QByteArray>
#include <QString>
#include <QStringList>

namespace sb {

struct MergedShards {
    SweepResults results;      // shard count 1; cells taken from the shard that ran them
    QStringList cellSource;    // per cell: the shard folder its files are in ("" = pending)
    QStringList missingShards; // "1/3", ... (only with allowMissing)
    QByteArray specYaml;       // the shards' sweep.yaml (they all say the same); empty when none has one
};

// Reads each folder's results.json and merges them. Refused, with the folders named: a folder
// that is not a shard, shards of different sweeps (spec fingerprints differ: the keys are named)
// or of different shard counts, a shard given twice, a plan holding one cell (server, point,
// repeat) twice, a cell run by two shards, a cell claimed by a shard another shard's plan does
// not hand it to, a sweep.yaml that differs from another shard's or from its own results.json's
// fingerprint, and, unless `allowMissing`, shards that are missing (their cells then stay pending).
bool mergeShardFolders(const QStringList &folders, bool allowMissing, MergedShards *out, QString *error);

// The files a merge copies, checked before anything is written: each claimed cell's records
// path is cells/<cell>/records.jsonl, its folder a real folder inside its shard holding regular
// files and folders only (no links, FIFOs or devices), its records present when the cell holds
// measurements, and no two cells share a folder. The message names the shard's results.json,
// the cell and the file.
bool checkMergedFiles(const MergedShards &merged, QString *error);

// Writes a merged set into `outDir` (must not hold results yet): each cell's folder and the
// trace files inside its shard folder are copied, links rewritten, sweep.yaml and results.json
// written durably, after checkMergedFiles. Every failure names the file.
bool writeMergedShards(const MergedShards &merged, const QString &outDir, QString *error);

// The shard folders directly inside `dir` (each holding a sharded results.json), sorted.
QStringList shardFoldersIn(const QString &dir);

} // namespace sb
