#pragma once
// Caps on the files and documents SweepBench reads (one place; the README's "Reliability"
// section quotes them). Results and imports may come from anyone (a shared zip), so every size
// they control is bounded.
#include <QtGlobal>

namespace sb {

inline constexpr qint64 kMaxResultsFileBytes = qint64(256) * 1024 * 1024; // results.json, imported JSON
// A sweep spec wherever it is read (validate, run, hooks check, cluster, export --spec, Open,
// sweep.yaml beside results): real specs are a few KB, and yaml-cpp's tree costs ~60x the text.
inline constexpr qint64 kMaxSmallFileBytes = qint64(16) * 1024 * 1024;
inline constexpr qint64 kMaxArchiveBytes = qint64(4) * 1024 * 1024 * 1024; // a results zip (compressed)
// OUT/calibration.json: a few hundred bytes per model and prompt length.
inline constexpr qint64 kMaxCalibrationFileBytes = qint64(1) * 1024 * 1024;
// One records.jsonl line as a reader takes it (a longer one is read in pieces, each malformed).
inline constexpr qint64 kMaxRecordLineBytes = qint64(16) * 1024 * 1024;
// Values (at any depth) in one JSON document we parse: a parsed tree costs ~30-40 bytes a value,
// so this bounds a parse to a few hundred MB whatever the text holds. A 10,000-cell
// results.json has about 5 million.
inline constexpr qint64 kMaxJsonValues = 12'000'000;
// Cells in one results.json. A sweep of this many cells runs for days; the engine refuses to
// plan more, so everything it writes reads back.
inline constexpr int kMaxResultsCells = 10000;
// JSON values in one cell of results.json. A cell the engine writes holds a few thousand (its
// metrics, at most 120 time slices, its hook calls); checked on the text before the parse, so a
// cell of 2 million time slices is refused instead of parsed into most of a gigabyte.
inline constexpr qint64 kMaxCellJsonValues = 100'000;

} // namespace sb
