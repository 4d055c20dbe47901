#pragma once
// A loopback server with its own "tokenizer" for workload tests: one token per 3 characters of
// the prompt (rounded up) plus a 7-token chat template, answered in usage as a real server's
// is. Streams as many tokens as max_tokens asks for and keeps every measured request's body.
#include "HostileServer.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <atomic>
#include <mutex>

namespace sbtest {

inline QString promptOf(const QJsonObject &body)
{
    if (body.contains(QStringLiteral("prompt")))
        return body.value(QStringLiteral("prompt")).toString();
    QString all;
    for (const QJsonValue &m : body.value(QStringLiteral("messages")).toArray())
        all += m.toObject().value(QStringLiteral("content")).toString();
    return all;
}

struct TokenizingServer {
    std::atomic<int> probes{0};
    std::mutex mutex;
    QList<QJsonObject> bodies; // measured (streaming) requests, in arrival order
    hostile::Server server{[this](hostile::Conn &c) {
        while (true) {
            const QByteArray req = c.readRequest();
            if (req.isEmpty())
                return;
            const QJsonObject body = QJsonDocument::fromJson(req.mid(req.indexOf("\r\n\r\n") + 4)).object();
            const int tokens = 7 + int((promptOf(body).size() + 2) / 3);
            QByteArray answer;
            if (!body.value(QStringLiteral("stream")).toBool()) {
                ++probes;
                answer = hostile::jsonResponse(200, "{\"choices\":[{\"message\":{\"content\":\"x\"}}],\"usage\":{\"prompt_tokens\":" +
                                                        QByteArray::number(tokens) + ",\"completion_tokens\":1}}");
            } else {
                {
                    std::lock_guard lock(mutex);
                    bodies.append(body);
                }
                QByteArray events = hostile::sseBody(std::min(256, body.value(QStringLiteral("max_tokens")).toInt()));
                events.replace("\"prompt_tokens\":16", "\"prompt_tokens\":" + QByteArray::number(tokens));
                answer = hostile::sseResponse(events);
            }
            if (!c.write(answer))
                return;
        }
    }};
};

} // namespace sbtest
