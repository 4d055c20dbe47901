#pragma once
// Extracts an untrusted zip (a shared report bundle) into a fresh folder, refusing anything that
// could write outside it or exhaust the disk: `..` components, absolute or drive paths, symlinks
// and other special files, too many entries, too many bytes (declared or actually inflated).
// On any refusal or corruption the partial extraction is removed and nothing is left behind.
#include <QString>
#include <QtGlobal>

namespace sb {

struct UnzipLimits {
    qint64 maxTotalBytes = qint64(2) * 1024 * 1024 * 1024; // 2 GiB uncompressed, all entries
    int maxEntries = 100000;
    // Deflate packs at most ~1030:1; results (JSON, CSV, records) pack about 5-30:1, zeros and
    // other bombs near the maximum. An entry over kEntryRatioFloorBytes may inflate at most
    // `maxEntryRatio` times its packed size, and the archive as a whole at most `maxTotalRatio`
    // times the archive's size (or kRatioFloorBytes, whichever is more), both judged on the
    // central directory before a byte is written: a 2 MB archive never fills more than 200 MB.
    int maxEntryRatio = 200;
    int maxTotalRatio = 100;
};
inline constexpr qint64 kRatioFloorBytes = qint64(16) * 1024 * 1024;
inline constexpr qint64 kEntryRatioFloorBytes = 64 * 1024;

// Checks one entry name; returns an empty string when acceptable, else why it is refused.
// Exposed for tests: the unpacker calls it for every entry before writing anything.
QString unsafeEntryReason(const QString &name);

// Extracts `zipPath` into `destDir`, which must not exist yet (it is created). Returns false with
// a clear *error ("refused: ..." or "corrupt archive: ...") and removes destDir on failure.
bool safeUnzip(const QString &zipPath, const QString &destDir, QString *error,
               const UnzipLimits &limits = UnzipLimits());

// A fresh, empty folder under a per-process temporary root that lives until the process exits
// (so LoadedResults may keep pointing into it). Empty string on failure. The root's name holds
// the process id: the first call removes the roots of processes that no longer run (killed
// before their exit handlers could), so a killed `summary` leaves nothing behind for long.
QString newExtractionDir(QString *error);

} // namespace sb
