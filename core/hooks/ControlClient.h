#pragma once
// HTTP/1.1 client for control hooks, separate from the benchmark connections: one fresh
// connection per call (no proxy, never counted as benchmark traffic), framed by the same
// HttpResponseParser the benchmark client uses — QNetworkAccessManager took a chunked body cut
// short by a closed connection for a complete one, and its answer is what the verdict rests on.
// Calls block the calling thread with a local event loop: hooks run on the engine thread,
// strictly between load phases, so there is nothing else for that thread to do meanwhile.
// An answer is judged only when it arrived whole: a timeout (also after the status line), a
// body beyond kMaxControlBodyBytes or a connection closed mid-body ends the call as failed.
#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrl>
#include <atomic>
#include <optional>

namespace sb {

// A control answer is a small JSON object; a server sending more is broken or hostile.
inline constexpr qint64 kMaxControlBodyBytes = 1024 * 1024;

struct ControlResponse {
    int status = 0;            // HTTP status, 0 = no status line; set even when the body failed
    QByteArray body;           // at most kMaxControlBodyBytes
    QString transportError;    // why the answer is incomplete (empty when it arrived whole)
    bool timedOut = false;     // no complete answer within the timeout
    bool cancelled = false;
    bool oversize = false;     // the body passed kMaxControlBodyBytes; the call was aborted
    bool truncated = false;    // the connection closed before the body ended
    double latencyMs = 0;
    // Status line, headers and the whole body arrived in time.
    bool complete() const { return status != 0 && transportError.isEmpty(); }
};

class ControlClient
{
public:
    ControlResponse call(const QByteArray &method, const QUrl &url, const QList<QPair<QByteArray, QByteArray>> &headers,
                         const std::optional<QByteArray> &jsonBody, double timeoutS,
                         const std::atomic<bool> *cancel = nullptr, qint64 maxBodyBytes = kMaxControlBodyBytes);
};

} // namespace sb
