#include "hooks/ControlClient.h"
#include "load/HttpResponseParser.h"
#include "spec/SpecRules.h"
#include <QElapsedTimer>
#include <QEventLoop>
#include <QNetworkProxy>
#include <QSslSocket>
#include <QTcpSocket>
#include <QTimer>
#include <memory>

namespace sb {

namespace {
QByteArray requestBytes(const QByteArray &method, const QUrl &url, const QList<QPair<QByteArray, QByteArray>> &headers,
                        const std::optional<QByteArray> &jsonBody)
{
    QByteArray target = url.path(QUrl::FullyEncoded).toUtf8();
    if (target.isEmpty())
        target = "/";
    if (url.hasQuery())
        target += '?' + url.query(QUrl::FullyEncoded).toUtf8();
    QByteArray req = method + ' ' + target + " HTTP/1.1\r\nHost: " + url.authority(QUrl::RemoveUserInfo | QUrl::FullyEncoded).toUtf8()
                     // identity: a compressed answer could grow past the body bound after it was counted
                     + "\r\nConnection: close\r\nAccept-Encoding: identity\r\nUser-Agent: sweepbench/" SWEEPBENCH_VERSION "\r\n";
    for (const auto &[name, value] : headers)
        req += name + ": " + value + "\r\n";
    const QByteArray body = jsonBody.value_or(QByteArray());
    if (jsonBody)
        req += "Content-Type: application/json\r\n";
    req += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    return req;
}

// Collects the status and at most `max` bytes of body.
struct BodySink : HttpResponseParser::Sink {
    ControlResponse *r = nullptr;
    qint64 max = kMaxControlBodyBytes;
    void onHeaders(int status) override { r->status = status; }
    void onBody(const char *p, std::size_t n) override
    {
        if (r->oversize)
            return;
        if (r->body.size() + qint64(n) > max) {
            r->oversize = true;
            return;
        }
        r->body.append(p, qsizetype(n));
    }
};
} // namespace

ControlResponse ControlClient::call(const QByteArray &method, const QUrl &url,
                                    const QList<QPair<QByteArray, QByteArray>> &headers,
                                    const std::optional<QByteArray> &jsonBody, double timeoutS,
                                    const std::atomic<bool> *cancel, qint64 maxBodyBytes)
{
    ControlResponse r;
    QElapsedTimer clock;
    clock.start();
    const bool tls = url.scheme() == QLatin1String("https");
    std::unique_ptr<QTcpSocket> socket = tls ? std::make_unique<QSslSocket>() : std::make_unique<QTcpSocket>();
    // Control calls must reach the server itself, whatever HTTP(S)_PROXY says.
    socket->setProxy(QNetworkProxy::NoProxy);
    const QByteArray request = requestBytes(method, url, headers, jsonBody);

    HttpResponseParser parser;
    BodySink sink;
    sink.r = &r;
    sink.max = maxBodyBytes;
    bool done = false;     // the whole answer arrived
    QString failure;       // why it did not
    QEventLoop loop;
    const auto end = [&](const QString &why) {
        if (done || !failure.isEmpty())
            return;
        if (why.isEmpty())
            done = true;
        else
            failure = why;
        loop.quit();
    };
    const auto feed = [&] {
        while (!done && failure.isEmpty() && socket->bytesAvailable() > 0) {
            const QByteArray chunk = socket->read(64 * 1024);
            std::size_t used = 0;
            const auto result = parser.feed(chunk.constData(), std::size_t(chunk.size()), sink, &used);
            if (r.oversize)
                end(QStringLiteral("oversize: answer body larger than %1 KiB; aborted").arg(maxBodyBytes / 1024));
            else if (result == HttpResponseParser::Result::Error)
                end(QStringLiteral("malformed answer: %1").arg(QString::fromStdString(parser.error())));
            else if (result == HttpResponseParser::Result::Complete)
                end(QString());
        }
    };
    const auto closed = [&] {
        feed();
        if (done || !failure.isEmpty())
            return;
        if (parser.headersDone() && parser.finishOnClose(sink) == HttpResponseParser::Result::Complete)
            end(QString()); // a body delimited by the close itself
        else if (parser.headersDone()) {
            r.truncated = true;
            end(QStringLiteral("answer truncated: the connection closed before the body ended"));
        } else {
            end(socket->error() == QAbstractSocket::RemoteHostClosedError || socket->error() == QAbstractSocket::UnknownSocketError
                    ? QStringLiteral("connection closed before an answer")
                    : socket->errorString());
        }
    };
    QObject::connect(socket.get(), &QTcpSocket::readyRead, &loop, feed);
    QObject::connect(socket.get(), &QTcpSocket::disconnected, &loop, closed);
    QObject::connect(socket.get(), &QTcpSocket::errorOccurred, &loop, closed);
    if (tls)
        QObject::connect(static_cast<QSslSocket *>(socket.get()), &QSslSocket::encrypted, &loop, [&] { socket->write(request); });
    else
        QObject::connect(socket.get(), &QTcpSocket::connected, &loop, [&] { socket->write(request); });
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &loop, [&] {
        r.timedOut = true;
        end(r.status != 0 ? QStringLiteral("answer incomplete after %1 s (status line received, body did not end)").arg(timeoutS)
                          : QStringLiteral("no answer within %1 s").arg(timeoutS));
    });
    QTimer cancelPoll;
    QObject::connect(&cancelPoll, &QTimer::timeout, &loop, [&] {
        if (cancel && cancel->load()) {
            r.cancelled = true;
            end(QStringLiteral("cancelled"));
        }
    });
    deadline.start(spec::timerMs(timeoutS));
    if (cancel)
        cancelPoll.start(50);
    const quint16 port = quint16(url.port(tls ? 443 : 80));
    if (tls)
        static_cast<QSslSocket *>(socket.get())->connectToHostEncrypted(url.host(), port);
    else
        socket->connectToHost(url.host(), port);
    if (!done && failure.isEmpty())
        loop.exec();
    socket->disconnect(); // no more slots into this frame
    socket->abort();

    r.latencyMs = double(clock.nsecsElapsed()) / 1e6;
    if (!done)
        r.transportError = failure.isEmpty() ? QStringLiteral("no answer") : failure;
    return r;
}

} // namespace sb
