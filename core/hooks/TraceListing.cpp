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

TraceLinks linkableTraces(const QString &traceDir, const QStringList &candidates)
{
    TraceLinks out;
    const QString root = traceDir.isEmpty() ? QString() : QFileInfo(traceDir).canonicalFilePath();
    for (const QString &p : candidates) {
        const QFileInfo fi(p);
        const QString real = fi.canonicalFilePath(); // empty when it does not exist
        if (real.isEmpty())
            continue; // nothing to link, nothing to warn about
        const bool inside = !root.isEmpty() && real.startsWith(root + QLatin1Char('/')) && QFileInfo(real).isFile();
        if (inside) {
            if (!out.linked.contains(real))
                out.linked.append(real);
        } else if (!out.outside.contains(p)) {
            out.outside.append(p);
        }
    }
    out.linked.sort();
    return out;
}

} // namespace sb
