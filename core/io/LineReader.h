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
    LineReader(QIODevice &device, qint64 maxLineBytes) : m_device(device), m_buffer(maxLineBytes + 1, Qt::Uninitialized) {}
    // The next line, trimmed, as a view into the buffer (valid until the next call); false at the
    // end. A line longer than the bound is skipped whole and counted in tooLong().
    bool next(QByteArray *line)
    {
        while (!m_device.atEnd()) {
            const qint64 n = m_device.readLine(m_buffer.data(), m_buffer.size());
            if (n <= 0)
                return false;
            if (m_buffer.at(n - 1) != '\n' && !m_device.atEnd()) { // longer than any line may be
                char c = 0;
                while (m_device.getChar(&c) && c != '\n') {}
                ++m_tooLong;
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
    int m_tooLong = 0;
};

} // namespace sb
