#include "hooks/ControlClient.h"
#include <QElapsedTimer>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QTimer>

namespace sb {

ControlClient::ControlClient() : m_nam(std::make_unique<QNetworkAccessManager>())
{
    // Control calls must reach the server itself, whatever HTTP(S)_PROXY says.
    m_nam->setProxy(QNetworkProxy::NoProxy);
}

ControlClient::~ControlClient() = default;

ControlResponse ControlClient::call(const QByteArray &method, const QUrl &url,
                                    const QList<QPair<QByteArray, QByteArray>> &headers,
                                    const std::optional<QByteArray> &jsonBody, double timeoutS,
                                    const std::atomic<bool> *cancel, qint64 maxBodyBytes)
{
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
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
    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    QTimer cancelPoll;
    bool timedOut = false, cancelled = false;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QObject::connect(&deadline, &QTimer::timeout, &loop, [&] { timedOut = true; reply->abort(); });
    QObject::connect(&cancelPoll, &QTimer::timeout, &loop, [&] {
        if (cancel && cancel->load()) {
            cancelled = true;
            reply->abort();
        }
    });
    deadline.start(int(timeoutS * 1000));
    if (cancel)
        cancelPoll.start(50);
    if (!reply->isFinished())
        loop.exec();

    ControlResponse r;
    r.latencyMs = double(clock.nsecsElapsed()) / 1e6;
    r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (reply->isOpen()) // an aborted reply is closed: nothing to read
        r.body = reply->read(maxBodyBytes);
    r.timedOut = timedOut;
    r.cancelled = cancelled;
    if (r.status == 0)
        r.transportError = timedOut ? QStringLiteral("no answer within %1 s").arg(timeoutS)
                         : cancelled ? QStringLiteral("cancelled")
                                     : reply->errorString();
    delete reply; // not deleteLater: the engine thread runs only nested loops
    return r;
}

QString redactSecrets(QString text, const QStringList &secrets)
{
    static const QRegularExpression userinfo(QStringLiteral("(\\w+://)[^/@\\s]+@"));
    text.replace(userinfo, QStringLiteral("\\1***@"));
    for (const QString &s : secrets)
        if (s.size() >= 4)
            text.replace(s, QStringLiteral("***"));
    return text;
}

} // namespace sb
