// sweepbench-datasetbench: how long a ShareGPT dataset takes to load. Not a test: generates
// N two-turn conversations (tests/support/GeneratedDatasets.h, ~80 bytes each) into a temporary
// file, loads them as `workload.dataset: {format: sharegpt}` does, and prints one JSON object:
// the file's size, the entries loaded and the wall time of the load. Loading must stay linear in
// the file: each entry's line number (for FILE:LINE errors) comes from one running count.
//
//   sweepbench-datasetbench [--conversations 100000]
#include "GeneratedDatasets.h"
#include "workload/Dataset.h"
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <cstdio>

using namespace sb;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int conversations = 100000;
    const QStringList args = app.arguments();
    for (qsizetype i = 1; i + 1 < args.size(); ++i)
        if (args[i] == QLatin1String("--conversations"))
            conversations = args[i + 1].toInt();
    QTemporaryDir dir;
    const QByteArray json = sbtest::shareGptConversations(conversations);
    QFile f(dir.filePath(QStringLiteral("sharegpt.json")));
    if (!f.open(QIODevice::WriteOnly) || f.write(json) != json.size()) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(f.fileName()));
        return 1;
    }
    f.close();
    DatasetSpec spec;
    spec.format = DatasetFormat::ShareGpt;
    spec.path = f.fileName();
    Dataset d;
    QString error;
    QElapsedTimer t;
    t.start();
    const bool ok = loadDataset(spec, QString(), &d, &error);
    const double ms = double(t.nsecsElapsed()) / 1e6;
    if (!ok) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    const QJsonObject row{{QStringLiteral("format"), QStringLiteral("sharegpt")},
                          {QStringLiteral("conversations"), conversations},
                          {QStringLiteral("bytes"), double(json.size())},
                          {QStringLiteral("entries"), d.stats.entries},
                          {QStringLiteral("load_ms"), ms}};
    std::printf("%s\n", QJsonDocument(row).toJson(QJsonDocument::Compact).constData());
    return 0;
}
