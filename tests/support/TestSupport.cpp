#include "TestSupport.h"
#include <QFile>
#include <QRegularExpression>
#include <QTest>

namespace sbtest {

void failOnQtWarnings()
{
    // The offscreen platform plugin warns on every show(); that one message is harmless.
    QTest::failOnWarning(QRegularExpression(QStringLiteral("^(?!This plugin does not support propagateSizeHints).*")));
}

QString sourcePath(const QString &relative)
{
    return qEnvironmentVariable("SWEEPBENCH_SOURCE_DIR", QStringLiteral(".")) + QLatin1Char('/') + relative;
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace sbtest
