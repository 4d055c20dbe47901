#pragma once
// Reads a file line by line with a bound on each line, through one buffer per file.
// QIODevice::readLine(maxSize) allocates maxSize bytes on every call: 16-64 MB a line, which made
// reading 2,000 records take 11 s (9 s of it in the kernel) under AddressSanitizer, and the
// AIPerf fuzzer 15x slower. Pages of the buffer are touched only as lines use them.
#include <QByteArray>
#include <QIODevice>

namespace sb {

class LineReader
{
public:
    // What a line longer than the bound does: Skip reads past it to the next line (a reader that
    // keeps what it can), Stop ends the reading there, having read no more than the bound — a
    // reader that refuses the whole file on one such line need not read the rest (a 900 MB file
    // without a newline was read to its end, byte by byte, before it was refused).
    enum class TooLong { Skip, Stop };
    LineReader(QIODevice &device, qint64 maxLineBytes, TooLong onTooLong = TooLong::Skip)
        : m_device(device), m_buffer(maxLineBytes + 1, Qt::Uninitialized), m_onTooLong(onTooLong)
    {
    }
    // The next line, trimmed, as a view into the buffer (valid until the next call); false at the
    // end. A line longer than the bound is counted in tooLong(), then skipped whole or, with
    // TooLong::Stop, ends the reading (false, from then on).
    bool next(QByteArray *line)
    {
        if (m_onTooLong == TooLong::Stop && m_tooLong > 0)
            return false;
        while (!m_device.atEnd()) {
            qint64 n = m_device.readLine(m_buffer.data(), m_buffer.size());
            if (n <= 0)
                return false;
            if (m_buffer.at(n - 1) != '\n' && !m_device.atEnd()) { // longer than any line may be
                ++m_tooLong;
                if (m_onTooLong == TooLong::Stop)
                    return false;
                while (n > 0 && m_buffer.at(n - 1) != '\n') // the rest of it, a buffer at a time
                    n = m_device.readLine(m_buffer.data(), m_buffer.size());
                continue;
            }
            *line = QByteArray::fromRawData(m_buffer.constData(), n).trimmed();
            return true;
        }
        return false;
    }
    int tooLong() const { return m_tooLong; }

private:
    QIODevice &m_device;
    QByteArray m_buffer;
    TooLong m_onTooLong;
    int m_tooLong = 0;
};

} // namespace sb
