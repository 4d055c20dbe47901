#pragma once
// Screenshot tests grab a real widget; with SWEEPBENCH_SCREENSHOT_DIR set they also save the
// PNG there (packaging/screenshots.sh, docs/screenshots/) so a person can judge it.
#include <QCoreApplication>
#include <QDir>
#include <QPixmap>
#include <QTest>
#include <QWidget>

namespace sbtest {

inline void saveScreenshot(QWidget *w, const QString &name)
{
    QCoreApplication::processEvents(); // charts lay out (legend gone) on posted events, as in the app
    const QPixmap pm = w->grab();
    QVERIFY(!pm.isNull());
    const QString dir = qEnvironmentVariable("SWEEPBENCH_SCREENSHOT_DIR");
    if (!dir.isEmpty()) {
        QDir().mkpath(dir);
        QVERIFY(pm.save(QDir(dir).filePath(name)));
    }
}

} // namespace sbtest
