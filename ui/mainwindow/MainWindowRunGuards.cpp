// MainWindow, the part that keeps what Run runs equal to what the window shows: a server the
// last hook check found dead, and the sweep a just-opened result set came from.
#include "mainwindow/MainWindow.h"
#include "designer/DesignTab.h"
#include "report/DisplayText.h"
#include "spec/SpecIO.h"
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <algorithm>

namespace sb::ui {

bool MainWindow::confirmUnansweredServers(SweepSpec *spec)
{
    const QStringList dead = m_design->serversThatDidNotAnswer();
    if (dead.isEmpty())
        return true;
    const QString names = displaySafe(dead.join(QStringLiteral(", ")), DisplayLines::Single);
    const bool others = dead.size() < spec->servers.size();
    QMessageBox box(QMessageBox::Warning, tr("Servers not answering"),
                    tr("The last hook check found that %1 did not answer.").arg(names), QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("unansweredServers"));
    box.setInformativeText(others ? tr("A run would measure the other servers first and then fail every cell of %1. "
                                       "Run the others only, run all anyway, or cancel and check again?").arg(names)
                                  : tr("Every cell would fail. Run anyway, or cancel and check again?"));
    QPushButton *skip = others ? box.addButton(tr("Run without %1").arg(names), QMessageBox::AcceptRole) : nullptr;
    QPushButton *all = box.addButton(others ? tr("Run all") : tr("Run anyway"), QMessageBox::DestructiveRole);
    QPushButton *cancel = box.addButton(QMessageBox::Cancel);
    if (skip)
        skip->setObjectName(QStringLiteral("runWithout"));
    all->setObjectName(QStringLiteral("runAll"));
    box.setDefaultButton(skip ? skip : cancel);
    box.exec();
    if (box.clickedButton() == all)
        return true;
    if (!skip || box.clickedButton() != skip) {
        statusBar()->showMessage(tr("Run cancelled: %1 did not answer the hook check").arg(names), 8000);
        return false;
    }
    spec->servers.erase(std::remove_if(spec->servers.begin(), spec->servers.end(),
                                       [&](const ServerSpec &s) { return dead.contains(s.name); }),
                        spec->servers.end());
    statusBar()->showMessage(tr("Running without %1, which did not answer the hook check").arg(names), 8000);
    return true;
}

QString MainWindow::offerSweepOfResults(const QString &resultsPath)
{
    // A results folder keeps the sweep that made it (secrets stripped). Run must run what the
    // window shows: an untouched untitled designer takes that sweep; one holding the user's own
    // work keeps it, and the status bar says where the results' sweep is.
    const QString sweep = QDir(resultsPath).filePath(QStringLiteral("sweep.yaml"));
    if (!QFileInfo(sweep).isFile())
        return {};
    if (!m_specPath.isEmpty() || m_modified)
        return tr("The designer still holds %1, not the sweep of these results; open %2 to run that one again")
            .arg(m_specPath.isEmpty() ? tr("your unsaved sweep") : QFileInfo(m_specPath).fileName(), QDir::toNativeSeparators(sweep));
    const SpecLoadResult loaded = loadSpecFile(sweep);
    if (!loaded.spec)
        return {};
    setSpec(*loaded.spec);
    return tr("The designer now holds the sweep these results came from (%1); API keys are not kept in results, "
              "set them again before a run").arg(QDir::toNativeSeparators(sweep));
}

} // namespace sb::ui
