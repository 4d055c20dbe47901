#include "import/SafeUnzip.h"
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMutex>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <algorithm>
#include <cerrno>
#include <limits>
#include <memory>
#include <signal.h>
#include <unistd.h>
#include <quazip/quazip.h>
#include <quazip/quazipfile.h>
#include <quazip/quazipfileinfo.h>

namespace sb {

namespace {
constexpr quint32 kTypeMask = 0170000;  // Unix st_mode file type bits (high 16 bits of externalAttr)
constexpr quint32 kTypeFile = 0100000;
constexpr quint32 kTypeDir = 0040000;
constexpr quint32 kDosReparsePoint = 0x400; // Windows-made symlinks/junctions

QString normalized(const QString &name) { return QString(name).replace(QLatin1Char('\\'), QLatin1Char('/')); }

QString typeReason(const QuaZipFileInfo64 &info)
{
    const quint32 type = (info.externalAttr >> 16) & kTypeMask;
    if (type != 0 && type != kTypeFile && type != kTypeDir)
        return type == 0120000 ? QStringLiteral("is a symbolic link") : QStringLiteral("is a special file (mode %1)").arg(type, 0, 8);
    if (info.externalAttr & kDosReparsePoint)
        return QStringLiteral("is a link (reparse point)");
    return QString();
}

QString refused(const QString &zipPath, const QString &entry, const QString &why)
{
    return QStringLiteral("refused %1: entry \"%2\" %3").arg(QDir::toNativeSeparators(zipPath), entry, why);
}

QString corrupt(const QString &zipPath, const QString &what, int code)
{
    return QStringLiteral("corrupt archive %1: %2 (zip error %3)").arg(QDir::toNativeSeparators(zipPath), what).arg(code);
}

// Pass 1 reads only the central directory, so a hostile archive is refused before a byte is written.
bool checkDirectory(QuaZip &zip, const QString &zipPath, const UnzipLimits &limits, QString *error)
{
    const qint64 archiveBytes = QFileInfo(zipPath).size();
    const qint64 totalCap = std::min(limits.maxTotalBytes, std::max(kRatioFloorBytes, archiveBytes * limits.maxTotalRatio));
    qint64 total = 0;
    int count = 0;
    QSet<QString> seen;
    for (bool more = zip.goToFirstFile(); more; more = zip.goToNextFile()) {
        QuaZipFileInfo64 info;
        if (!zip.getCurrentFileInfo(&info)) {
            *error = corrupt(zipPath, QStringLiteral("unreadable directory entry"), zip.getZipError());
            return false;
        }
        if (++count > limits.maxEntries) {
            *error = QStringLiteral("refused %1: more than %2 entries").arg(QDir::toNativeSeparators(zipPath)).arg(limits.maxEntries);
            return false;
        }
        if (const QString why = unsafeEntryReason(info.name); !why.isEmpty()) {
            *error = refused(zipPath, info.name, why);
            return false;
        }
        if (const QString why = typeReason(info); !why.isEmpty()) {
            *error = refused(zipPath, info.name, why);
            return false;
        }
        const QString key = QDir::cleanPath(normalized(info.name));
        if (seen.contains(key)) {
            *error = refused(zipPath, info.name, QStringLiteral("appears twice"));
            return false;
        }
        seen.insert(key);
        total += qint64(info.uncompressedSize);
        if (info.uncompressedSize > quint64(limits.maxTotalBytes) || total > limits.maxTotalBytes) {
            *error = QStringLiteral("refused %1: uncompressed size exceeds the size limit (%2 bytes)")
                         .arg(QDir::toNativeSeparators(zipPath)).arg(limits.maxTotalBytes);
            return false;
        }
        // Sizes as declared: pass 2 never lets an entry inflate past its declared size.
        if (info.uncompressedSize > quint64(kEntryRatioFloorBytes)
            && info.uncompressedSize > quint64(std::max<quint64>(info.compressedSize, 1)) * quint64(limits.maxEntryRatio)) {
            *error = refused(zipPath, info.name,
                             QStringLiteral("inflates %1 bytes to %2, more than %3 times (a zip bomb?)")
                                 .arg(info.compressedSize).arg(info.uncompressedSize).arg(limits.maxEntryRatio));
            return false;
        }
        if (total > totalCap) {
            *error = QStringLiteral("refused %1: it inflates to more than %2 bytes, over %3 times its own %4 bytes (a zip bomb?)")
                         .arg(QDir::toNativeSeparators(zipPath)).arg(totalCap).arg(limits.maxTotalRatio).arg(archiveBytes);
            return false;
        }
    }
    if (zip.getZipError() != UNZ_OK) {
        *error = corrupt(zipPath, QStringLiteral("broken central directory"), zip.getZipError());
        return false;
    }
    return true;
}

// Pass 2 inflates, counting real bytes: declared sizes can lie (zip bombs).
bool extractAll(QuaZip &zip, const QString &zipPath, const QString &root, const UnzipLimits &limits, QString *error)
{
    qint64 total = 0;
    QByteArray buf(64 * 1024, Qt::Uninitialized);
    for (bool more = zip.goToFirstFile(); more; more = zip.goToNextFile()) {
        QuaZipFileInfo64 info;
        zip.getCurrentFileInfo(&info);
        const QString rel = normalized(info.name);
        const QString target = QDir::cleanPath(root + QLatin1Char('/') + rel);
        if (!target.startsWith(root + QLatin1Char('/'))) { // belt and braces after unsafeEntryReason
            *error = refused(zipPath, info.name, QStringLiteral("resolves outside the extraction folder"));
            return false;
        }
        if (rel.endsWith(QLatin1Char('/'))) {
            if (!QDir().mkpath(target)) {
                *error = QStringLiteral("cannot create folder %1").arg(target);
                return false;
            }
            continue;
        }
        if (!QDir().mkpath(QFileInfo(target).path())) {
            *error = QStringLiteral("cannot create folder for %1").arg(target);
            return false;
        }
        QFile out(target);
        // NewOnly: never follow or overwrite something already there.
        if (!out.open(QIODevice::WriteOnly | QIODevice::NewOnly)) {
            *error = QStringLiteral("cannot write %1: %2").arg(target, out.errorString());
            return false;
        }
        QuaZipFile in(&zip);
        if (!in.open(QIODevice::ReadOnly)) {
            *error = corrupt(zipPath, QStringLiteral("cannot open entry \"%1\"").arg(info.name), in.getZipError());
            return false;
        }
        qint64 written = 0;
        for (;;) {
            const qint64 n = in.read(buf.data(), buf.size());
            if (n < 0) {
                *error = corrupt(zipPath, QStringLiteral("cannot inflate entry \"%1\"").arg(info.name), in.getZipError());
                return false;
            }
            if (n == 0)
                break;
            written += n;
            total += n;
            if (written > qint64(info.uncompressedSize) || total > limits.maxTotalBytes) {
                *error = refused(zipPath, info.name, QStringLiteral("inflates beyond its declared size or the size limit"));
                return false;
            }
            if (out.write(buf.constData(), n) != n) {
                *error = QStringLiteral("cannot write %1: %2").arg(target, out.errorString());
                return false;
            }
        }
        in.close();
        if (in.getZipError() != UNZ_OK) { // CRC mismatch lands here
            *error = corrupt(zipPath, QStringLiteral("entry \"%1\" fails its checksum").arg(info.name), in.getZipError());
            return false;
        }
        if (!out.flush()) {
            *error = QStringLiteral("cannot write %1: %2").arg(target, out.errorString());
            return false;
        }
    }
    return true;
}

// The extraction roots of processes that are gone: a process killed (SIGKILL, SIGTERM) never
// ran the destructor that removes its root. A root whose process still runs (or whose id was
// reused) is left alone; one of another user cannot be removed and is left alone too.
void removeStaleExtractionRoots()
{
    static const QRegularExpression name(QStringLiteral("^sweepbench-import-(\\d+)-[A-Za-z0-9]{6}$"));
    const QFileInfoList roots = QDir(QDir::tempPath()).entryInfoList({QStringLiteral("sweepbench-import-*")}, QDir::Dirs | QDir::NoDotAndDotDot | QDir::NoSymLinks);
    for (const QFileInfo &r : roots) {
        const QRegularExpressionMatch m = name.match(r.fileName());
        bool ok = false;
        const qint64 pid = m.hasMatch() ? m.captured(1).toLongLong(&ok) : 0;
        if (!ok || pid <= 0 || pid > std::numeric_limits<pid_t>::max() || pid == ::getpid())
            continue;
        if (::kill(pid_t(pid), 0) != 0 && errno == ESRCH)
            QDir(r.filePath()).removeRecursively();
    }
}
} // namespace

QString unsafeEntryReason(const QString &name)
{
    if (name.isEmpty())
        return QStringLiteral("has an empty name");
    for (const QChar c : name)
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return QStringLiteral("has a control character in its name");
    const QString n = normalized(name);
    if (n.startsWith(QLatin1Char('/')))
        return QStringLiteral("is an absolute path");
    static const QRegularExpression drive(QStringLiteral("^[A-Za-z]:"));
    if (drive.match(n).hasMatch())
        return QStringLiteral("is an absolute (drive) path");
    for (const QString &part : n.split(QLatin1Char('/')))
        if (part == QLatin1String(".."))
            return QStringLiteral("has a \"..\" component");
    if (QDir::cleanPath(n) == QLatin1String("."))
        return QStringLiteral("names the archive root");
    return QString();
}

bool safeUnzip(const QString &zipPath, const QString &destDir, QString *error, const UnzipLimits &limits)
{
    QString err;
    if (!QFileInfo(zipPath).isFile()) {
        err = QStringLiteral("%1: no such file").arg(QDir::toNativeSeparators(zipPath));
        if (error)
            *error = err;
        return false;
    }
    QuaZip zip(zipPath);
    if (!zip.open(QuaZip::mdUnzip)) {
        if (error)
            *error = corrupt(zipPath, QStringLiteral("not a readable zip file"), zip.getZipError());
        return false;
    }
    const QString root = QDir::cleanPath(QFileInfo(destDir).absoluteFilePath());
    if (QFileInfo::exists(root)) {
        if (error)
            *error = QStringLiteral("extraction folder %1 already exists").arg(root);
        return false;
    }
    bool ok = checkDirectory(zip, zipPath, limits, &err);
    if (ok) {
        ok = QDir().mkpath(root);
        if (!ok)
            err = QStringLiteral("cannot create %1").arg(root);
    }
    if (ok)
        ok = extractAll(zip, zipPath, root, limits, &err);
    zip.close();
    if (!ok) {
        QDir(root).removeRecursively();
        if (error)
            *error = err;
    }
    return ok;
}

QString newExtractionDir(QString *error)
{
    // One root per process, removed by its destructor at exit; each load gets a fresh child.
    // Loads may run on worker threads (GUI compare), hence the lock.
    static QMutex lock;
    const QMutexLocker locker(&lock);
    static std::unique_ptr<QTemporaryDir> root;
    if (!root) {
        removeStaleExtractionRoots();
        root = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/sweepbench-import-%1-XXXXXX").arg(::getpid()));
        if (!root->isValid()) {
            if (error)
                *error = QStringLiteral("cannot create a temporary folder: %1").arg(root->errorString());
            root.reset();
            return QString();
        }
    }
    static int serial = 0;
    QString dir;
    do {
        dir = root->path() + QStringLiteral("/z%1").arg(++serial);
    } while (QFileInfo::exists(dir));
    return dir; // safeUnzip creates it
}

} // namespace sb
