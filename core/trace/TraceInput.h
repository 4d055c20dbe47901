#pragma once
// The bytes of one trace as a RapidJSON input stream: a regular file or a buffer, plain or gzip
// (detected by its magic bytes), inflated a block at a time so that a trace of any size costs
// two fixed buffers. Every size the input controls is checked here: the uncompressed total, and
// the bytes between two JSON tokens the parser reported (RapidJSON buffers a whole string or
// number before handing it over, so an endless string would otherwise grow without limit).
// On any of these, or on a read error, corrupt or truncated gzip, or cancel, the stream ends
// (Peek() returns '\0', which the parser sees as the end) and error() says why.
#include "trace/TraceLimits.h"
#include <QByteArray>
#include <QString>
#include <atomic>
#include <cstddef>
#include <memory>

namespace sb {

class TraceInput
{
public:
    using Ch = char; // RapidJSON's stream concept

    // `rawBytesRead`, when given, follows the bytes taken from the file or buffer (compressed ones
    // for gzip), a block at a time: another thread shows it as the read's progress.
    TraceInput(const TraceLimits &limits, const std::atomic<bool> *cancel, std::atomic<qint64> *rawBytesRead = nullptr);
    ~TraceInput();
    TraceInput(const TraceInput &) = delete;
    TraceInput &operator=(const TraceInput &) = delete;

    // A regular file of at most limits.maxFileBytes (a FIFO or device is refused unopened).
    bool openFile(const QString &path, QString *error);
    // Bytes already in memory (tests, the fuzz target).
    void openBuffer(const QByteArray &bytes);

    Ch Peek()
    {
        if (m_pos == m_end && !refill())
            return '\0';
        return *m_pos;
    }
    Ch Take()
    {
        if (m_pos == m_end && !refill())
            return '\0';
        return *m_pos++;
    }
    std::size_t Tell() const { return std::size_t(m_consumedBefore + (m_pos - m_begin)); }
    // Never called: the parser writes in place only with kParseInsituFlag, which is not used.
    Ch *PutBegin() { return nullptr; }
    void Put(Ch) {}
    void Flush() {}
    std::size_t PutEnd(Ch *) { return 0; }

    // The parser reported a token: the next one may again be up to maxTokenBytes away.
    void markToken() { m_lastToken = qint64(Tell()); }
    // Why the stream ended early; empty when it reached the real end of the data.
    const QString &error() const { return m_error; }
    bool gzip() const { return m_gzip; }
    qint64 uncompressedBytes() const { return qint64(Tell()); }

private:
    bool refill();
    bool fail(const QString &why);
    qint64 readRaw(char *to, qint64 max); // from the file or the buffer; -1 on a read error
    bool inflateMore();

    TraceLimits m_limits;
    const std::atomic<bool> *m_cancel;
    std::atomic<qint64> *m_rawBytesRead;
    int m_fd = -1;
    QByteArray m_buffer;   // openBuffer's bytes
    qint64 m_bufferAt = 0;
    bool m_rawEof = false;
    bool m_gzip = false;
    bool m_started = false;
    bool m_done = false;   // the data ended (or failed)
    struct Zlib;
    std::unique_ptr<Zlib> m_z;
    QByteArray m_in, m_out;
    const char *m_begin = nullptr, *m_pos = nullptr, *m_end = nullptr;
    qint64 m_consumedBefore = 0; // uncompressed bytes before m_begin
    qint64 m_lastToken = 0;
    QString m_error;
};

} // namespace sb
