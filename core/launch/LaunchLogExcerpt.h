#pragma once
// The lines of OUT/servers/NAME.log (launch/LaunchLog.h) that belong to one process of a launched
// server: the output between the "started pid N" note of the process that served a cell and the
// next start, its last lines — what the Results tab shows for a failed cell. Bounded: at most
// kLaunchExcerptScanBytes of the file are searched (its end, for a larger log), and at most
// `maxLines` lines of at most `maxBytes` are returned, whatever the server wrote.
#include <QString>

namespace sb {

inline constexpr qint64 kLaunchExcerptScanBytes = 64 * 1024 * 1024;
inline constexpr int kLaunchExcerptLines = 40;
inline constexpr qint64 kLaunchExcerptBytes = 16 * 1024;
inline constexpr int kLaunchExcerptLineChars = 300;

struct LaunchLogExcerpt {
    QString text;           // the lines, '\n'-separated, each cut to kLaunchExcerptLineChars; as the server wrote them (not escaped)
    int lines = 0;
    bool cut = false;       // earlier lines of the process's output were left out
    bool foundProcess = false; // false: the pid's start was not in the searched part; the text is the log's end
    QString error;          // the log could not be read (then text is empty)
};

LaunchLogExcerpt readLaunchLogExcerpt(const QString &path, qint64 pid, int maxLines = kLaunchExcerptLines,
                                      qint64 maxBytes = kLaunchExcerptBytes);

} // namespace sb
