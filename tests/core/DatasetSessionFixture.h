#pragma once
// What the dataset-session tests share: writing and loading a dataset file, a spec that replays
// one as sessions against a loopback chat server, and reading back the records and messages.
#include "ChatSessionServer.h"
#include "EngineFixture.h"
#include "TestSupport.h"
#include "workload/Dataset.h"
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <algorithm>

namespace dstest {

using namespace sb;

inline QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &content)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(content) != content.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

inline bool load(DatasetFormat format, const QString &path, bool asSessions, Dataset *d, QString *error)
{
    DatasetSpec spec;
    spec.format = format;
    spec.path = path;
    spec.blockTokens = 16;
    return loadDataset(spec, QString(), d, error, asSessions);
}

// The text of a message's content: a string, or the text parts of a list (images beside them).
inline QString contentOf(const QJsonObject &m)
{
    const QJsonValue c = m.value(QStringLiteral("content"));
    if (c.isString())
        return c.toString();
    QString text;
    for (const QJsonValue &part : c.toArray())
        text += part.toObject().value(QStringLiteral("text")).toString();
    return text;
}

// The text of every message, in order.
inline QStringList contentsOf(const QJsonArray &messages)
{
    QStringList out;
    for (const QJsonValue &m : messages)
        out.append(contentOf(m.toObject()));
    return out;
}

// The chat server of these tests: pieces "r<request>-<i> ", no cached tokens reported.
struct ChatServer : sbtest::ChatSessionServer {
    ChatServer() : ChatSessionServer({'r', false, false}) {}
};

inline SweepSpec datasetSessionSpec(const QString &url, DatasetFormat format, const QString &path, int requests)
{
    SweepSpec spec = sbtest::smallSpec({sbtest::serverAt(url, QStringLiteral("s"))}, {1}, requests);
    DatasetSpec d;
    d.format = format;
    d.path = path;
    d.blockTokens = 16;
    spec.workload.dataset = d;
    SessionSpec s;
    s.header = QStringLiteral("X-Session-ID");
    spec.workload.sessions = s;
    return spec;
}

inline QList<QJsonObject> recordsOf(const QString &outDir, const CellResult &cell)
{
    QList<QJsonObject> out = sbtest::readJsonLines(outDir + QLatin1Char('/') + cell.recordsPath);
    std::sort(out.begin(), out.end(), [](const QJsonObject &a, const QJsonObject &b) {
        return a.value(QStringLiteral("i")).toInt() < b.value(QStringLiteral("i")).toInt();
    });
    return out;
}

} // namespace dstest
