#pragma once
// Ways to make writes fail in a test without a real full disk:
//  - FileSizeLimit: RLIMIT_FSIZE with SIGXFSZ ignored; a write past the limit fails with EFBIG
//    ("File too large"). Needs no privileges. Applies to this process (and children started
//    while it is set, e.g. the sweepbench binary).
//  - SmallTmpfs: a real tmpfs of a few hundred KB (ENOSPC, "No space left on device"), when
//    running as root; tests skip that case otherwise.
// Header-only: tests include it by relative path.
#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>
#include <csignal>
#include <sys/mount.h>
#include <sys/resource.h>
#include <unistd.h>

namespace sbtest {

class FileSizeLimit
{
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        std::signal(SIGXFSZ, SIG_IGN); // else the kernel kills the process instead of failing the write
        ::getrlimit(RLIMIT_FSIZE, &m_old);
        rlimit lim = m_old;
        lim.rlim_cur = bytes;
        m_ok = ::setrlimit(RLIMIT_FSIZE, &lim) == 0;
    }
    ~FileSizeLimit() { ::setrlimit(RLIMIT_FSIZE, &m_old); }
    FileSizeLimit(const FileSizeLimit &) = delete;
    FileSizeLimit &operator=(const FileSizeLimit &) = delete;
    bool ok() const { return m_ok; }

private:
    rlimit m_old{};
    bool m_ok = false;
};

// For QProcess::setChildProcessModifier: the child (sweepbench) starts with writes limited.
inline void limitChildFileSize(rlim_t bytes)
{
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit lim{};
    ::getrlimit(RLIMIT_FSIZE, &lim);
    lim.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &lim);
}

class SmallTmpfs
{
public:
    SmallTmpfs(const QString &dir, const QByteArray &size) : m_dir(dir)
    {
        QDir().mkpath(dir);
        m_mounted = ::geteuid() == 0
                    && ::mount("tmpfs", QFile::encodeName(dir).constData(), "tmpfs", 0, ("size=" + size).constData()) == 0;
    }
    ~SmallTmpfs()
    {
        if (m_mounted)
            ::umount2(QFile::encodeName(m_dir).constData(), MNT_DETACH);
    }
    SmallTmpfs(const SmallTmpfs &) = delete;
    SmallTmpfs &operator=(const SmallTmpfs &) = delete;
    bool mounted() const { return m_mounted; }

    // Fills the filesystem until a write fails; returns the bytes written.
    qint64 fill(const QString &name = QStringLiteral("filler"))
    {
        QFile f(m_dir + QLatin1Char('/') + name);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Unbuffered))
            return 0;
        const QByteArray block(4096, 'x');
        qint64 total = 0;
        for (;;) {
            const qint64 n = f.write(block);
            if (n <= 0)
                break;
            total += n;
        }
        for (;;) { // the last partial page
            if (f.write("x", 1) != 1)
                break;
            ++total;
        }
        return total;
    }

private:
    QString m_dir;
    bool m_mounted = false;
};

} // namespace sbtest
