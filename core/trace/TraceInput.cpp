#include "trace/TraceInput.h"
#include "io/BoundedRead.h"
#include <QFile>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

namespace sb {

namespace {
constexpr qint64 kBlock = 256 * 1024; // raw and inflated block: fixed memory, whatever the file
}

struct TraceInput::Zlib {
    z_stream z{};
    bool initialised = false;
    bool memberEnded = false;
    ~Zlib()
    {
        if (initialised)
            inflateEnd(&z);
    }
};

TraceInput::TraceInput(const TraceLimits &limits, const std::atomic<bool> *cancel, std::atomic<qint64> *rawBytesRead)
    : m_limits(limits), m_cancel(cancel), m_rawBytesRead(rawBytesRead)
{
}

TraceInput::~TraceInput()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

bool TraceInput::openFile(const QString &path, QString *error)
{
    if (!checkRegularFile(path, m_limits.maxFileBytes, error))
        return false;
    m_fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (m_fd < 0) {
        *error = QStringLiteral("cannot open %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    return true;
}

void TraceInput::openBuffer(const QByteArray &bytes)
{
    m_buffer = bytes;
    m_bufferAt = 0;
}

qint64 TraceInput::readRaw(char *to, qint64 max)
{
    if (m_fd < 0) {
        const qint64 n = std::min(max, qint64(m_buffer.size()) - m_bufferAt);
        std::memcpy(to, m_buffer.constData() + m_bufferAt, std::size_t(n));
        m_bufferAt += n;
        if (m_rawBytesRead)
            m_rawBytesRead->fetch_add(n, std::memory_order_relaxed);
        return n;
    }
    for (;;) {
        const ssize_t n = ::read(m_fd, to, std::size_t(max));
        if (n >= 0) {
            if (m_rawBytesRead)
                m_rawBytesRead->fetch_add(qint64(n), std::memory_order_relaxed);
            return qint64(n);
        }
        if (errno != EINTR)
            return -1;
    }
}

bool TraceInput::fail(const QString &why)
{
    if (m_error.isEmpty())
        m_error = why;
    m_done = true;
    m_begin = m_pos = m_end = nullptr;
    return false;
}

bool TraceInput::inflateMore()
{
    z_stream &z = m_z->z;
    z.next_out = reinterpret_cast<Bytef *>(m_out.data());
    z.avail_out = uInt(m_out.size());
    while (z.avail_out == uInt(m_out.size())) { // until something came out, or the end
        if (z.avail_in == 0 && !m_rawEof) {
            const qint64 n = readRaw(m_in.data(), m_in.size());
            if (n < 0)
                return fail(QStringLiteral("read error: %1").arg(QString::fromLocal8Bit(std::strerror(errno))));
            m_rawEof = n == 0;
            z.next_in = reinterpret_cast<Bytef *>(m_in.data());
            z.avail_in = uInt(n);
        }
        if (z.avail_in == 0 && m_rawEof) {
            if (!m_z->memberEnded)
                return fail(QStringLiteral("the gzip data ends early: the file is cut short"));
            break;
        }
        if (m_z->memberEnded) { // another gzip member follows (concatenated .gz files are one stream)
            inflateReset(&z);
            m_z->memberEnded = false;
        }
        const int rc = inflate(&z, Z_NO_FLUSH);
        if (rc == Z_STREAM_END)
            m_z->memberEnded = true;
        else if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT)
            return fail(QStringLiteral("corrupt gzip data (%1)").arg(QString::fromLatin1(z.msg ? z.msg : "bad data")));
        else if (rc == Z_MEM_ERROR)
            return fail(QStringLiteral("out of memory inflating the gzip data"));
        else if (rc != Z_OK && rc != Z_BUF_ERROR)
            return fail(QStringLiteral("gzip error %1").arg(rc));
    }
    return true;
}

bool TraceInput::refill()
{
    if (m_done)
        return false;
    m_consumedBefore += m_end - m_begin;
    m_begin = m_pos = m_end = nullptr;
    if (m_cancel && m_cancel->load(std::memory_order_relaxed))
        return fail(QStringLiteral("cancelled"));
    if (m_consumedBefore - m_lastToken > m_limits.maxTokenBytes)
        return fail(QStringLiteral("more than %1 bytes without a complete JSON token near byte %2 (a string or number that long, "
                                   "or that much blank space)")
                        .arg(m_limits.maxTokenBytes)
                        .arg(m_lastToken));
    qint64 produced = 0;
    if (!m_started) {
        m_started = true;
        m_in.resize(kBlock);
        m_out.resize(kBlock);
        const qint64 n = readRaw(m_in.data(), 2);
        if (n < 0)
            return fail(QStringLiteral("read error: %1").arg(QString::fromLocal8Bit(std::strerror(errno))));
        m_gzip = n == 2 && uchar(m_in[0]) == 0x1f && uchar(m_in[1]) == 0x8b;
        if (m_gzip) {
            m_z = std::make_unique<Zlib>();
            if (inflateInit2(&m_z->z, 15 + 16) != Z_OK) // 16: a gzip wrapper
                return fail(QStringLiteral("cannot start inflating"));
            m_z->initialised = true;
            m_z->z.next_in = reinterpret_cast<Bytef *>(m_in.data());
            m_z->z.avail_in = uInt(n);
        } else {
            std::memcpy(m_out.data(), m_in.constData(), std::size_t(n));
            produced = n;
            if (n == 0)
                m_rawEof = true;
        }
    }
    if (m_gzip) {
        if (!inflateMore())
            return false;
        produced = m_out.size() - qint64(m_z->z.avail_out);
    } else if (produced == 0 && !m_rawEof) {
        produced = readRaw(m_out.data(), m_out.size());
        if (produced < 0)
            return fail(QStringLiteral("read error: %1").arg(QString::fromLocal8Bit(std::strerror(errno))));
        m_rawEof = produced == 0;
    }
    if (produced == 0) {
        m_done = true;
        return false;
    }
    if (m_consumedBefore + produced > m_limits.maxUncompressedBytes)
        return fail(QStringLiteral("more than %1 bytes of JSON (the cap on a trace)").arg(m_limits.maxUncompressedBytes));
    m_begin = m_pos = m_out.constData();
    m_end = m_begin + produced;
    return true;
}

} // namespace sb
