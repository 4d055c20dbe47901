#include "hooks/TraceListing.h"
#include <QDirIterator>
#include <QFileInfo>

namespace sb {

namespace {
QHash<QString, QPair<qint64, qint64>> scan(const QString &dir)
{
    QHash<QString, QPair<qint64, qint64>> files;
    if (dir.isEmpty() || !QFileInfo(dir).isDir())
        return files;
    QDirIterator it(dir, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        const QFileInfo fi = it.fileInfo();
        files.insert(fi.absoluteFilePath(), {fi.lastModified().toMSecsSinceEpoch(), fi.size()});
    }
    return files;
}
} // namespace

TraceSnapshot TraceSnapshot::take(const QString &dir)
{
    TraceSnapshot s;
    s.m_dir = dir;
    s.m_before = scan(dir);
    return s;
}

QStringList TraceSnapshot::newFiles() const
{
    QStringList out;
    const auto now = scan(m_dir);
    for (auto it = now.cbegin(); it != now.cend(); ++it) {
        const auto before = m_before.constFind(it.key());
        if (before == m_before.cend() || before.value() != it.value())
            out.append(it.key());
    }
    out.sort();
    return out;
}

} // namespace sb
