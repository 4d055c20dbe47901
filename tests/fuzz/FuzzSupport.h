#pragma once
// Helpers shared by the libFuzzer targets (tests/fuzz/README.md): a scratch folder per process,
// inputs split into several files, quiet Qt messages, and a loud abort when an invariant breaks.
#include "report/ResultsCsv.h"
#include "results/LoadedResults.h"
#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QList>
#include <QTemporaryDir>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace sbfuzz {

// Parsers report bad input with qWarning in places; printing thousands of those a second would
// make the fuzzer spend its time in the terminal. Fatal messages still abort (Qt does that).
inline void quietQt()
{
    qInstallMessageHandler([](QtMsgType, const QMessageLogContext &, const QString &) {});
}

[[noreturn]] inline void broken(const char *what)
{
    std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
    std::abort();
}

// One folder per fuzzing process, removed at exit; targets write their input files into it.
inline QString scratchDir()
{
    static QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/sweepbench-fuzz-XXXXXX"));
    if (!dir.isValid())
        broken("cannot create a scratch folder");
    return dir.path();
}

inline void writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(path.section(QLatin1Char('/'), 0, -2));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size() || !f.flush())
        broken("cannot write a scratch file");
}

// Several files from one input: parts are separated by a line holding only the marker, so seeds
// stay readable and the fuzzer can move bytes between files. Missing parts are null.
inline QList<QByteArray> splitParts(const std::uint8_t *data, std::size_t size, int count)
{
    static const QByteArray marker("\n#--8<--\n");
    const QByteArray all(reinterpret_cast<const char *>(data), qsizetype(size));
    QList<QByteArray> parts;
    qsizetype from = 0;
    while (parts.size() < count - 1) {
        const qsizetype at = all.indexOf(marker, from);
        if (at < 0)
            break;
        parts.append(all.mid(from, at - from));
        from = at + marker.size();
    }
    parts.append(all.mid(from));
    while (parts.size() < count)
        parts.append(QByteArray());
    return parts;
}

// What every importer's output must be (the other tools' files are not ours): no negative
// request count, and the CSV writer, as Compare and export use it, takes it.
inline void checkImported(const sb::LoadedResults &out)
{
    for (const sb::CellResult &c : out.results.cells)
        if (c.completed < 0 || c.failed < 0)
            broken("an imported cell with a negative request count");
    (void)sb::resultsCsv(out.results);
}

} // namespace sbfuzz
