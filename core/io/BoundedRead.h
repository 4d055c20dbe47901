#pragma once
// Reading files a user or a peer hands us (results.json, imports, zips, sweep.yaml in a results
// folder): regular files only, up to a size cap, so `/dev/zero`, a FIFO or a huge file is refused
// at once with a clear message instead of growing memory without limit (README "Reliability").
#include "io/ReadLimits.h"
#include <QByteArray>
#include <QString>

namespace sb {

// Checks that `path` names a regular file (symlinks followed) of at most `maxBytes`. Never opens
// it for reading, so a FIFO cannot block.
bool checkRegularFile(const QString &path, qint64 maxBytes, QString *error);
// The same, but a symbolic link is refused too (not followed): for files that must lie inside a
// folder, such as a shard's records, which a link could point out of.
bool checkPlainFile(const QString &path, qint64 maxBytes, QString *error);

// Reads a whole regular file of at most `maxBytes`. A FIFO, a device or a folder is refused
// without blocking; a file that grows past the cap while being read is refused too.
bool readRegularFile(const QString &path, qint64 maxBytes, QByteArray *out, QString *error);

} // namespace sb
