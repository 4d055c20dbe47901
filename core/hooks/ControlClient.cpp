#include "hooks/ControlClient.h"
#include "spec/SpecRules.h"
#include <QElapsedTimer>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QTimer>

namespace sb {

namespace {
// Network-layer failures (closed, reset, ...) and HTTP framing failures, as opposed to the
// 4xx/5xx codes QNetworkReply also reports as errors: those are answers, judged by status.
bool transportFailure(QNetworkReply::NetworkError e)
{
    return (e > QNetworkReply::NoError && e < QNetworkReply::ProxyConnectionRefusedError)
        || (e >= QNetworkReply::ProtocolUnknownError && e <= QNetworkReply::ProtocolFailure);
}
} // namespace

ControlClient::ControlClient() : m_nam(std::make_unique<QNetworkAccessManager>())
{
    // Control calls must reach the server itself, whatever HTTP(S)_PROXY says.
    m_nam->setProxy(QNetworkProxy::NoProxy);
}

ControlClient::~ControlClient() = default;

ControlResponse ControlClient::call(const QByteArray &method, const QUrl &url,
                                    const QList<QPair<QByteArray, QByteArray>> &headers,
                                    const std::optional<QByteArray> &jsonBody, double timeoutS,
                                    const std::atomic<bool> *cancel)
{
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    // A compressed answer could grow past the body bound after we counted it.
    request.setRawHeader("Accept-Encoding", "identity");
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    QByteArray body;
    if (jsonBody) {
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        body = *jsonBody;
    }
    QElapsedTimer clock;
    clock.start();
    QNetworkReply *reply = m_nam->sendCustomRequest(request, method, body);
    // Qt buffers no more than this between reads: the body is drained into `r.body` as it comes.
    reply->setReadBufferSize(64 * 1024);
    ControlResponse r;
    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    QTimer cancelPoll;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QObject::connect(reply, &QNetworkReply::readyRead, &loop, [&] {
        const QByteArray chunk = reply->readAll();
        if (r.body.size() + chunk.size() > kMaxControlBodyBytes) {
            r.oversize = true;
            reply->abort();
            return;
        }
        r.body += chunk;
    });
    QObject::connect(&deadline, &QTimer::timeout, &loop, [&] { r.timedOut = true; reply->abort(); });
    QObject::connect(&cancelPoll, &QTimer::timeout, &loop, [&] {
        if (cancel && cancel->load()) {
            r.cancelled = true;
            reply->abort();
        }
    });
    deadline.start(spec::timerMs(timeoutS));
    if (cancel)
        cancelPoll.start(50);
    if (!reply->isFinished())
        loop.exec();

    r.latencyMs = double(clock.nsecsElapsed()) / 1e6;
    r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (!r.oversize && reply->isOpen()) { // an aborted reply is closed: nothing to read
        const QByteArray rest = reply->readAll();
        if (r.body.size() + rest.size() > kMaxControlBodyBytes)
            r.oversize = true;
        else
            r.body += rest;
    }
    const QNetworkReply::NetworkError err = reply->error();
    r.truncated = !r.timedOut && !r.cancelled && !r.oversize && r.status != 0 && transportFailure(err);
    if (r.timedOut)
        r.transportError = r.status != 0 ? QStringLiteral("answer incomplete after %1 s (status line received, body did not end)").arg(timeoutS)
                                         : QStringLiteral("no answer within %1 s").arg(timeoutS);
    else if (r.cancelled)
        r.transportError = QStringLiteral("cancelled");
    else if (r.oversize)
        r.transportError = QStringLiteral("oversize: answer body larger than %1 KiB; aborted").arg(kMaxControlBodyBytes / 1024);
    else if (r.truncated)
        r.transportError = QStringLiteral("answer truncated: %1").arg(reply->errorString());
    else if (r.status == 0)
        r.transportError = reply->errorString();
    delete reply; // not deleteLater: the engine thread runs only nested loops
    return r;
}

} // namespace sb
