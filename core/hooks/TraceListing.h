#pragma once
// Finds the trace files a profiler window produced: everything created or modified in the
// trace folder (recursively) between the snapshot taken before profiler start and the listing
// after profiler stop. Only folders visible on this machine can be listed.
#include <QDateTime>
#include <QHash>
#include <QString>
#include <QStringList>

namespace sb {

class TraceSnapshot
{
public:
    static TraceSnapshot take(const QString &dir);
    // Absolute paths of files new or changed since the snapshot, sorted.
    QStringList newFiles() const;
    const QString &dir() const { return m_dir; }

private:
    QString m_dir;
    QHash<QString, QPair<qint64, qint64>> m_before; // path -> (mtime ms, size)
};

// Splits candidate trace paths (files found in the folder, paths a server named in its answer)
// into those that may be linked — regular files whose real location, after resolving `..` and
// symlinks, lies under the real `traceDir` — and the rest. Linked paths are returned canonical,
// sorted and unique; with no trace folder nothing is linked. A server names paths; it does not
// get to point results or report.html at /etc/passwd.
struct TraceLinks {
    QStringList linked;
    QStringList outside; // as named, for the "outside trace_dir, not linked" warning
};
TraceLinks linkableTraces(const QString &traceDir, const QStringList &candidates);

} // namespace sb
