#pragma once
// Starting a launched server's process (docs/ARCHITECTURE.md §17): fork + execve, never a shell.
// The child
//   - leads a new session and process group (setsid), so that a stop signals the whole group —
//     vLLM runs its engine in a second process beside the API server;
//   - asks for SIGKILL when its parent goes (prctl PR_SET_PDEATHSIG), so that a sweepbench that
//     is killed outright (kill -9, OOM killer) does not leave it serving.
// PR_SET_PDEATHSIG fires when the *thread* that forked exits, not the process. Every fork
// therefore happens on one thread that is started on first use and never ends (ProcessSpawn.cpp):
// a fork from the engine thread would kill the server when that thread finishes a sweep, and one
// from a short-lived helper thread at once.
#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <sys/types.h>

class QProcessEnvironment;

namespace sb {

struct SpawnRequest {
    QByteArray program;        // absolute path (resolved before the fork: no PATH search in the child)
    QList<QByteArray> argv;    // argv[0] included
    QList<QByteArray> env;     // "NAME=value", the child's whole environment
    int outputFd = -1;         // the child's stdout and stderr (a pipe's write end)
};

// The child's pid (also its process group id), or -1 with `error` saying why (exec failures
// included: the child reports its errno over a close-on-exec pipe before exiting).
pid_t spawnProcessGroup(const SpawnRequest &request, QString *error);

// The program as a path: the child gets no PATH search, so it is done here with the PATH the
// child will have. Empty when not found.
QString resolveProgram(const QString &program, const QProcessEnvironment &env);

// A spawned group and the read end of the pipe its stdout and stderr go to (the caller's to read
// and close).
struct SpawnedWithOutput {
    pid_t pid = -1;
    int outputFd = -1;
};
// `argv[0]` resolved against `env`'s PATH, the output pipe opened, the group spawned with `env`
// as its whole environment. On failure pid is -1, no descriptor stays open and *error says
// "cannot start <program>: <why>".
SpawnedWithOutput spawnWithOutput(const QStringList &argv, const QProcessEnvironment &env, QString *error);

} // namespace sb
