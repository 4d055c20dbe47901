#include "launch/LaunchLogExcerpt.h"
#include "io/BoundedRead.h"
#include <QFile>
#include <limits>

namespace sb {

namespace {

constexpr qint64 kBlock = 64 * 1024;

// First position at or after `from` (and before `to`) where `needle` starts, or -1; read a block
// at a time, so memory stays bounded whatever the log's size.
qint64 find(QFile &file, const QByteArray &needle, qint64 from, qint64 to)
{
    qint64 at = from;
    while (at < to) {
        if (!file.seek(at))
            return -1;
        const QByteArray block = file.read(std::min(kBlock + needle.size(), to - at));
        if (block.isEmpty())
            return -1;
        if (const qsizetype i = block.indexOf(needle); i >= 0)
            return at + i;
        if (block.size() <= needle.size())
            return -1;
        at += block.size() - needle.size(); // a needle across two blocks is found in the second
    }
    return -1;
}

// The start of the line holding `pos` (a note's "] started pid" lies a timestamp into its line),
// not before `floor`.
qint64 lineStart(QFile &file, qint64 pos, qint64 floor)
{
    const qint64 back = std::min<qint64>(pos - floor, 128);
    if (back <= 0 || !file.seek(pos - back))
        return pos;
    const QByteArray before = file.read(back);
    const qsizetype nl = before.lastIndexOf('\n');
    return nl >= 0 ? pos - back + nl + 1 : pos - back;
}

} // namespace

LaunchLogExcerpt readLaunchLogExcerpt(const QString &path, qint64 pid, int maxLines, qint64 maxBytes)
{
    LaunchLogExcerpt out;
    if (!checkRegularFile(path, std::numeric_limits<qint64>::max(), &out.error))
        return out;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        out.error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return out;
    }
    const qint64 size = file.size();
    const qint64 scanFrom = std::max<qint64>(0, size - kLaunchExcerptScanBytes);
    qint64 begin = scanFrom, end = size;
    // LaunchLog's note: "[sweepbench TIME] started pid N: ARGV". The next start ends the process's part.
    static const QByteArray startNote = QByteArrayLiteral("] started pid ");
    if (pid > 0) {
        const QByteArray mine = startNote + QByteArray::number(pid) + ':';
        if (const qint64 at = find(file, mine, scanFrom, size); at >= 0) {
            out.foundProcess = true;
            begin = lineStart(file, at, scanFrom);
            if (const qint64 next = find(file, startNote, at + mine.size(), size); next >= 0)
                end = lineStart(file, next, at);
        }
    }
    const qint64 from = std::max(begin, end - std::max<qint64>(maxBytes, 1));
    if (!file.seek(from)) {
        out.error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return out;
    }
    QByteArray bytes = file.read(end - from);
    if (from > begin) { // started inside a line: that partial line is left out
        out.cut = true;
        const qsizetype nl = bytes.indexOf('\n');
        bytes = nl >= 0 ? bytes.mid(nl + 1) : QByteArray();
    }
    QList<QByteArray> lines = bytes.split('\n');
    while (!lines.isEmpty() && lines.last().trimmed().isEmpty())
        lines.removeLast();
    if (lines.size() > maxLines) {
        out.cut = true;
        lines = lines.mid(lines.size() - maxLines);
    }
    QStringList text;
    for (const QByteArray &l : std::as_const(lines)) {
        QString line = QString::fromUtf8(l);
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        text << (line.size() > kLaunchExcerptLineChars ? line.left(kLaunchExcerptLineChars) + QStringLiteral("…") : line);
    }
    out.lines = int(text.size());
    out.text = text.join(QLatin1Char('\n'));
    return out;
}

} // namespace sb
