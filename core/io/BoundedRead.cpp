#include "io/BoundedRead.h"
#include <QDir>
#include <QFile>
#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sb {

namespace {
QString native(const QString &path) { return QDir::toNativeSeparators(path); }

QString kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return QStringLiteral("a folder");
    if (S_ISFIFO(mode))
        return QStringLiteral("a pipe (FIFO)");
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return QStringLiteral("a device");
    if (S_ISSOCK(mode))
        return QStringLiteral("a socket");
    return QStringLiteral("not a regular file");
}

bool checkStat(const QString &path, const struct stat &st, qint64 maxBytes, QString *error)
{
    if (!S_ISREG(st.st_mode)) {
        if (error)
            *error = QStringLiteral("%1 is %2; only regular files are read").arg(native(path), kindOf(st.st_mode));
        return false;
    }
    if (st.st_size > maxBytes) {
        if (error)
            *error = QStringLiteral("%1 is too large (%2 MiB; the limit is %3 MiB)")
                         .arg(native(path)).arg(st.st_size / (1024 * 1024)).arg(maxBytes / (1024 * 1024));
        return false;
    }
    return true;
}

QString readError(const QString &path, int err)
{
    return QStringLiteral("cannot read %1: %2").arg(native(path), qt_error_string(err));
}
} // namespace

bool checkRegularFile(const QString &path, qint64 maxBytes, QString *error)
{
    struct stat st{};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0) {
        if (error)
            *error = readError(path, errno);
        return false;
    }
    return checkStat(path, st, maxBytes, error);
}

bool checkPlainFile(const QString &path, qint64 maxBytes, QString *error)
{
    struct stat st{};
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0) {
        if (error)
            *error = readError(path, errno);
        return false;
    }
    if (S_ISLNK(st.st_mode)) {
        if (error)
            *error = QStringLiteral("%1 is a symbolic link; only regular files are read").arg(native(path));
        return false;
    }
    return checkStat(path, st, maxBytes, error);
}

bool readRegularFile(const QString &path, qint64 maxBytes, QByteArray *out, QString *error)
{
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever. The
    // checks run on the opened descriptor, so the file cannot be swapped in between.
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (error)
            *error = readError(path, errno);
        return false;
    }
    struct stat st{};
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        if (error)
            *error = readError(path, err);
        return false;
    }
    if (!checkStat(path, st, maxBytes, error)) {
        ::close(fd);
        return false;
    }
    QByteArray data;
    data.resize(qsizetype(st.st_size));
    qint64 have = 0;
    for (;;) {
        if (have == data.size()) { // the file may have grown since fstat: read on, within the cap
            if (have >= maxBytes + 1)
                break;
            data.resize(qsizetype(std::min<qint64>(maxBytes + 1, std::max<qint64>(have * 2, have + 65536))));
        }
        const ssize_t n = ::read(fd, data.data() + have, size_t(data.size() - have));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int err = errno;
            ::close(fd);
            if (error)
                *error = readError(path, err);
            return false;
        }
        if (n == 0)
            break;
        have += n;
    }
    ::close(fd);
    if (have > maxBytes) {
        if (error)
            *error = QStringLiteral("%1 grew past the limit of %2 MiB while being read").arg(native(path)).arg(maxBytes / (1024 * 1024));
        return false;
    }
    data.truncate(qsizetype(have));
    *out = std::move(data);
    return true;
}

} // namespace sb
