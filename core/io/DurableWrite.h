#pragma once
// Writing files so that a full disk, a file-size limit or an I/O error never goes unnoticed and
// never replaces a good file with a truncated one (README "Reliability"). Every write, the
// fsync, the close and the rename are checked; a failure names the file and the OS reason
// ("No space left on device"), never "Unknown error".
#include <QByteArray>
#include <QString>

namespace sb {

// "cannot write PATH: REASON" for the errno value `err`: the one wording every writer uses.
QString writeErrorMessage(const QString &path, int err);

// Replaces `path` with `data` atomically and durably: a temporary file in the same folder is
// written in full, fsynced and closed, then renamed over `path`, and the folder is fsynced.
// On any failure the temporary file is removed and the previous `path` (if any) stays as it was.
bool writeFileAtomically(const QString &path, const QByteArray &data, QString *error);

// Makes a rename in `dir` durable (fsync of the folder). Filesystems that cannot sync a folder
// are not an error.
bool syncFolder(const QString &dir, QString *error);

// Renames a finished, already synced file into place and syncs its folder.
bool publishFile(const QString &from, const QString &to, QString *error);

// A file written as a stream of blocks (records.jsonl.part while a phase runs). Every write is
// checked; the first failure is kept (later writes are refused) so the caller can stop at once.
// Not thread-safe: callers serialize.
class CheckedFile
{
public:
    CheckedFile() = default;
    ~CheckedFile(); // closes without syncing (an unfinished file is not a commit point)
    CheckedFile(const CheckedFile &) = delete;
    CheckedFile &operator=(const CheckedFile &) = delete;

    bool open(const QString &path);                 // creates or truncates
    bool write(const char *data, qsizetype size);
    bool write(const QByteArray &data) { return write(data.constData(), data.size()); }
    bool finish();                                  // fsync + close: the data is on disk
    bool ok() const { return m_error.isEmpty(); }
    const QString &error() const { return m_error; } // "cannot write PATH: REASON"
    const QString &path() const { return m_path; }

private:
    void fail(int err);
    int m_fd = -1;
    QString m_path;
    QString m_error;
};

} // namespace sb

namespace sb {
// Copies `from` to `to` as writeFileAtomically writes: `to`.part written in checked blocks,
// synced, renamed into place. A read or write failure names the file; `to` is never half there.
bool copyFileDurably(const QString &from, const QString &to, QString *error);
} // namespace sb
