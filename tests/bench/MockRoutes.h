#pragma once
// The routes of a `sweepbench mock-server` running in another process that the benchmarks read:
// a blocking call of one route, and the per-request timings (/mock/timings: the kernel's arrival
// stamp of each request, its first token's write) on the steady clock all processes of a machine
// share.
#include "mock/MockServer.h"
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <cstdio>

namespace sbbench {

inline QByteArray mockRoute(const QString &baseUrl, const char *method, const QString &path)
{
    QNetworkAccessManager nam;
    nam.setProxy(QNetworkProxy::NoProxy);
    QNetworkRequest req(QUrl(baseUrl + path));
    QNetworkReply *reply = nam.sendCustomRequest(req, method);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const QByteArray body = reply->readAll();
    if (reply->error() != QNetworkReply::NoError)
        std::fprintf(stderr, "%s %s: %s\n", method, qPrintable(path), qPrintable(reply->errorString()));
    reply->deleteLater();
    return body;
}

inline QList<sb::MockTiming> remoteTimings(const QString &baseUrl)
{
    QList<sb::MockTiming> out;
    const QJsonArray arr = QJsonDocument::fromJson(mockRoute(baseUrl, "GET", QStringLiteral("/mock/timings"))).object().value("timings").toArray();
    for (const auto &v : arr) {
        const QJsonObject o = v.toObject();
        sb::MockTiming t;
        t.requestId = o.value("request_id").toString().toUtf8();
        t.arrivalNs = qint64(o.value("arrival_ns").toDouble());
        t.readNs = qint64(o.value("read_ns").toDouble());
        t.kernelArrival = o.value("kernel_arrival").toBool();
        t.firstTokenWriteNs = qint64(o.value("first_token_write_ns").toDouble());
        out.append(t);
    }
    return out;
}

} // namespace sbbench
