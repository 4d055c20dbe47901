#include "io/DurableWrite.h"
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sb {

namespace {
QByteArray nativePath(const QString &path) { return QFile::encodeName(path); }

// Writes all of `size` bytes, resuming after partial writes and signals. Returns 0 or an errno.
int writeAll(int fd, const char *data, qsizetype size)
{
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size_t(size));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (n == 0)
            return EIO; // a regular file never accepts nothing; do not spin
        data += n;
        size -= n;
    }
    return 0;
}

// Durability of the data itself: fsync, then close. Both report deferred write errors (NFS,
// a full thin-provisioned volume), so both are checked.
int syncAndClose(int fd)
{
    int err = 0;
    if (::fsync(fd) != 0 && errno != EINVAL) // EINVAL: a special file (/dev/null) cannot sync
        err = errno;
    if (::close(fd) != 0 && !err && errno != EINTR)
        err = errno;
    return err;
}
} // namespace

QString writeErrorMessage(const QString &path, int err)
{
    return QStringLiteral("cannot write %1: %2").arg(QDir::toNativeSeparators(path), qt_error_string(err));
}

bool syncFolder(const QString &dir, QString *error)
{
    const int fd = ::open(nativePath(dir).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        if (error)
            *error = QStringLiteral("cannot open folder %1: %2").arg(QDir::toNativeSeparators(dir), qt_error_string(errno));
        return false;
    }
    const bool ok = ::fsync(fd) == 0 || errno == EINVAL || errno == EROFS;
    const int err = errno;
    ::close(fd);
    if (!ok && error)
        *error = QStringLiteral("cannot sync folder %1: %2").arg(QDir::toNativeSeparators(dir), qt_error_string(err));
    return ok;
}

bool publishFile(const QString &from, const QString &to, QString *error)
{
    if (::rename(nativePath(from).constData(), nativePath(to).constData()) != 0) {
        if (error)
            *error = QStringLiteral("cannot rename %1 to %2: %3").arg(QDir::toNativeSeparators(from), QDir::toNativeSeparators(to), qt_error_string(errno));
        return false;
    }
    return syncFolder(QFileInfo(to).absolutePath(), error);
}

bool writeFileAtomically(const QString &path, const QByteArray &data, QString *error)
{
    const QFileInfo target(path);
    const QString dir = target.absolutePath();
    // A fresh name each time (O_EXCL): two writers never share a temporary file, and the mode
    // follows the umask like any file the user creates.
    QString tmp;
    int fd = -1;
    for (int attempt = 0; fd < 0 && attempt < 8; ++attempt) {
        tmp = QStringLiteral("%1/.%2.%3.tmp").arg(dir, target.fileName(), QString::number(QRandomGenerator::global()->generate64(), 36));
        fd = ::open(nativePath(tmp).constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        if (error)
            *error = writeErrorMessage(path, errno);
        return false;
    }
    int err = writeAll(fd, data.constData(), data.size());
    if (err) {
        ::close(fd);
    } else {
        err = syncAndClose(fd);
    }
    if (!err && ::rename(nativePath(tmp).constData(), nativePath(target.absoluteFilePath()).constData()) != 0)
        err = errno;
    if (err) {
        ::unlink(nativePath(tmp).constData()); // the previous file, if any, is untouched
        if (error)
            *error = writeErrorMessage(path, err);
        return false;
    }
    return syncFolder(dir, error);
}

CheckedFile::~CheckedFile()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

void CheckedFile::fail(int err)
{
    if (m_error.isEmpty())
        m_error = writeErrorMessage(m_path, err);
}

bool CheckedFile::open(const QString &path)
{
    m_path = path;
    m_error.clear();
    m_fd = ::open(nativePath(path).constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (m_fd < 0)
        fail(errno);
    return m_fd >= 0;
}

bool CheckedFile::write(const char *data, qsizetype size)
{
    if (m_fd < 0 || !m_error.isEmpty())
        return false;
    if (const int err = writeAll(m_fd, data, size)) {
        fail(err);
        return false;
    }
    return true;
}

bool CheckedFile::finish()
{
    if (m_fd < 0)
        return false;
    const int fd = m_fd;
    m_fd = -1;
    if (const int err = syncAndClose(fd))
        fail(err);
    return m_error.isEmpty();
}

} // namespace sb

namespace sb {

bool copyFileDurably(const QString &from, const QString &to, QString *error)
{
    QFile in(from);
    if (!in.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot read %1: %2").arg(from, in.errorString());
        return false;
    }
    const QString part = to + QStringLiteral(".part");
    CheckedFile out;
    bool ok = out.open(part);
    QByteArray block;
    while (ok) {
        block = in.read(1 << 20);
        if (block.isEmpty()) {
            if (in.error() != QFileDevice::NoError) {
                if (error)
                    *error = QStringLiteral("cannot read %1: %2").arg(from, in.errorString());
                QFile::remove(part);
                return false;
            }
            break;
        }
        ok = out.write(block);
    }
    if (!ok || !out.finish()) {
        if (error)
            *error = out.error();
        QFile::remove(part);
        return false;
    }
    if (!publishFile(part, to, error)) {
        QFile::remove(part);
        return false;
    }
    return true;
}

} // namespace sb
