#include "mainwindow/PathKind.h"
#include <QFileInfo>

namespace sb::ui {

PathKind classifyPath(const QString &path)
{
    const QFileInfo info(path);
    if (info.isDir())
        return PathKind::Results;
    const QString suffix = info.suffix().toLower();
    if (suffix == QLatin1String("yaml") || suffix == QLatin1String("yml"))
        return PathKind::Spec;
    if (suffix == QLatin1String("zip") || suffix == QLatin1String("json") || suffix == QLatin1String("jsonl")) // jsonl: sglang bench_serving
        return PathKind::Results;
    return PathKind::Unknown;
}

QString resultsPathFor(const QString &path)
{
    const QFileInfo info(path);
    if (info.fileName() == QLatin1String("results.json"))
        return info.absolutePath();
    return info.absoluteFilePath();
}

} // namespace sb::ui
