#pragma once
// A loopback chat server for session tests: it answers every streamed chat request with known
// pieces ("<piece><request>-<i> "), counts one prompt token per 3 characters of all message
// contents plus 7, and keeps every request it saw (head, body, time) in order.
#include "HostileServer.h"
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <mutex>

namespace sbtest {

struct ChatSessionServer {
    struct Options {
        char piece = 'a';
        // The first piece carries a quote and a backslash, which must travel JSON-escaped into
        // the next turn's history.
        bool escapedFirstPiece = false;
        // usage.prompt_tokens_details.cached_tokens as a perfect prefix cache would hold: every
        // message but the last (the earlier turns and their answers).
        bool reportCached = false;
    };
    struct Seen {
        QByteArray head;
        QJsonObject body;
        qint64 atMs = 0;
    };

    explicit ChatSessionServer(Options options) : options(options) { clock.start(); }

    QJsonArray messages(int i)
    {
        std::lock_guard lock(mutex);
        return seen.at(i).body.value(QStringLiteral("messages")).toArray();
    }

    const Options options;
    std::mutex mutex;
    QList<Seen> seen;
    QElapsedTimer clock;
    hostile::Server server{[this](hostile::Conn &c) {
        while (true) {
            const QByteArray req = c.readRequest();
            if (req.isEmpty())
                return;
            if (!c.write(answer(req)))
                return;
        }
    }};

private:
    static int contentChars(const QJsonValue &m) { return int(m.toObject().value(QStringLiteral("content")).toString().size()); }

    QByteArray answer(const QByteArray &req)
    {
        const int split = req.indexOf("\r\n\r\n");
        const QJsonObject body = QJsonDocument::fromJson(req.mid(split + 4)).object();
        const QJsonArray messages = body.value(QStringLiteral("messages")).toArray();
        if (messages.isEmpty()) // the engine's preflight (GET /v1/models)
            return hostile::jsonResponse(200, "{\"data\":[{\"id\":\"m\"}]}");
        int all = 0, earlier = 0;
        for (int i = 0; i < messages.size(); ++i) {
            all += contentChars(messages.at(i));
            if (i + 1 < messages.size())
                earlier += contentChars(messages.at(i));
        }
        const int prompt = 7 + (all + 2) / 3, cached = messages.size() > 1 ? 7 + earlier / 3 : 0;
        int n = 0; // the request's index in `seen`: taken with the append, connections answer at once
        {
            std::lock_guard lock(mutex);
            n = int(seen.size());
            seen.append({req.left(split), body, clock.elapsed()});
        }
        const int tokens = body.value(QStringLiteral("max_tokens")).toInt();
        QByteArray events = "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n";
        for (int i = 0; i < tokens; ++i)
            events += "data: {\"choices\":[{\"delta\":{\"content\":\"" + QByteArray(1, options.piece) + QByteArray::number(n) + "-" +
                      QByteArray::number(i) + (i == 0 && options.escapedFirstPiece ? " \\\"q\\\\ " : " ") + "\"}}]}\n\n";
        events += "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":" + QByteArray::number(prompt) + ",\"completion_tokens\":" +
                  QByteArray::number(tokens);
        if (options.reportCached)
            events += ",\"prompt_tokens_details\":{\"cached_tokens\":" + QByteArray::number(cached) + "}";
        events += "}}\n\n";
        events += "data: [DONE]\n\n";
        return hostile::sseResponse(events);
    }
};

} // namespace sbtest
