#pragma once
// Helpers shared by the tests. Call sbtest::failOnQtWarnings() from init() so that any Qt
// warning fails the test (the offscreen plugin's propagateSizeHints and raise notices excepted).
#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QProcessEnvironment>
#include <QSignalSpy>
#include <QString>
#include <QStringList>

namespace sbtest {

// Waits for the spied signal. QSignalSpy::wait() counts only emissions after the call, so a
// signal sent from another thread before it (an engine that refuses a resume at once, finished
// before the test reached wait()) would be missed until the timeout: one already recorded counts.
inline bool waitForSignal(QSignalSpy &spy, int timeoutMs)
{
    return !spy.isEmpty() || spy.wait(timeoutMs) || !spy.isEmpty();
}
void failOnQtWarnings();
// Absolute path of a file under the source tree (e.g. "resources/demo.yaml").
QString sourcePath(const QString &relative);
// Reads a whole file; empty on failure.
QByteArray readFile(const QString &path);
// Each non-empty line of a JSON-lines file (records.jsonl) as an object; empty on failure.
QList<QJsonObject> readJsonLines(const QString &path);
// Every entry of a zip archive, by name (empty when it cannot be opened).
QMap<QString, QByteArray> readZip(const QString &path);
// A loopback port that was free a moment ago and has nothing listening now: connecting to it
// is refused, and a server started by the test may bind it. 0 when no port could be had.
quint16 freePort();

// The sweepbench binary (SWEEPBENCH_BINARY, set by ctest) run to its end: exit code (-1 when it
// crashed or was killed after `timeoutMs`), stdout and stderr. `env` empty: this process's.
struct CliRun {
    int code = -1;
    QString out, err;
};
CliRun runSweepbench(const QStringList &args, int timeoutMs = 60000, const QProcessEnvironment &env = {});
} // namespace sbtest

