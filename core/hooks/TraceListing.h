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

} // namespace sb
