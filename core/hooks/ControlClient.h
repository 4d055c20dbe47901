#pragma once
// HTTP client for control hooks, separate from the benchmark connections: its own
// QNetworkAccessManager (own connection pool), no proxy, never counted as benchmark traffic.
// Calls block the calling thread with a local event loop: hooks run on the engine thread,
// strictly between load phases, so there is nothing else for that thread to do meanwhile.
#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrl>
#include <atomic>
#include <memory>
#include <optional>

class QNetworkAccessManager;

namespace sb {

struct ControlResponse {
    int status = 0;            // 0 = no HTTP answer
    QByteArray body;           // the first maxBodyBytes (64 KiB unless the call says otherwise)
    QString transportError;    // set when status == 0
    bool timedOut = false;
    bool cancelled = false;
    double latencyMs = 0;
};

class ControlClient
{
public:
    ControlClient();
    ~ControlClient();
    ControlResponse call(const QByteArray &method, const QUrl &url, const QList<QPair<QByteArray, QByteArray>> &headers,
                         const std::optional<QByteArray> &jsonBody, double timeoutS,
                         const std::atomic<bool> *cancel = nullptr, qint64 maxBodyBytes = 64 * 1024);

private:
    std::unique_ptr<QNetworkAccessManager> m_nam;
};

// Removes URL credentials and any of `secrets` from text meant for results or logs.
QString redactSecrets(QString text, const QStringList &secrets);

} // namespace sb
