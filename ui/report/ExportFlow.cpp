#include "report/ExportFlow.h"
#include "import/SafeUnzip.h"
#include "report/ReportExporter.h"
#include "report/ResultsLoader.h"
#include <QApplication>
#include <QCheckBox>
#include <QCryptographicHash>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QPushButton>
#include <QStandardPaths>
#include <QUrl>

namespace sb::ui {

QString byteSizeText(qint64 bytes)
{
    if (bytes < 1024)
        return QObject::tr("%1 bytes").arg(bytes);
    if (bytes < 1024 * 1024)
        return QObject::tr("%1 KiB").arg(double(bytes) / 1024, 0, 'f', 1);
    if (bytes < qint64(1024) * 1024 * 1024)
        return QObject::tr("%1 MiB").arg(double(bytes) / (1024 * 1024), 0, 'f', 1);
    return QObject::tr("%1 GiB").arg(double(bytes) / (1024.0 * 1024 * 1024), 0, 'f', 2);
}

QString traceChoiceText(const TraceTotals &t)
{
    QString s = QObject::tr("Include the profiler traces in the zip (%n file(s), %1", nullptr, t.files).arg(byteSizeText(t.bytes));
    if (t.missing > 0)
        s += QObject::tr("; %n no longer on disk", nullptr, t.missing);
    s += QLatin1Char(')');
    if (t.bytes > kMaxBundledTraceBytes)
        s += QObject::tr(" — only the first %1 fit").arg(byteSizeText(kMaxBundledTraceBytes));
    return s;
}

TraceChoiceBox::TraceChoiceBox(const TraceTotals &totals, QWidget *parent)
    : QMessageBox(QMessageBox::Question, tr("Export report"),
                  tr("The cells recorded profiler traces. Included, report.html links them from a traces/ folder in the zip; "
                     "left out, it names them by file name only."),
                  QMessageBox::NoButton, parent)
{
    auto *box = new QCheckBox(traceChoiceText(totals), this);
    box->setObjectName(QStringLiteral("includeTraces"));
    setCheckBox(box);
    addButton(tr("Export"), QMessageBox::AcceptRole);
    addButton(QMessageBox::Cancel);
}

bool TraceChoiceBox::includeTraces() const
{
    return checkBox() && checkBox()->isChecked();
}

ExportSuccessBox::ExportSuccessBox(const QString &zipPath, const QStringList &warnings, QWidget *parent)
    : QMessageBox(QMessageBox::Information, tr("Export report"), tr("Report written to %1").arg(QDir::toNativeSeparators(zipPath)),
                  QMessageBox::Close, parent)
{
    setObjectName(QStringLiteral("exportSuccess"));
    if (!warnings.isEmpty())
        setDetailedText(warnings.join(QLatin1Char('\n')));
    m_openFolder = addButton(tr("Open folder"), QMessageBox::ActionRole);
    m_openReport = addButton(tr("Open report"), QMessageBox::ActionRole);
    setDefaultButton(qobject_cast<QPushButton *>(m_openReport));
}

bool unpackReportForViewing(const QString &zipPath, const QString &into, QString *htmlPath, QString *error)
{
    // A viewing folder from an earlier export of the same zip is replaced, never merged into.
    if (QFileInfo::exists(into) && !QDir(into).removeRecursively()) {
        *error = QObject::tr("cannot replace %1").arg(into);
        return false;
    }
    if (!QDir().mkpath(QFileInfo(into).absolutePath())) {
        *error = QObject::tr("cannot create %1").arg(QFileInfo(into).absolutePath());
        return false;
    }
    if (!safeUnzip(zipPath, into, error)) // the project's one unpacker (import/SafeUnzip.h)
        return false;
    const QString html = QDir(into).filePath(QStringLiteral("report.html"));
    if (!QFileInfo::exists(html)) {
        *error = QObject::tr("%1 holds no report.html").arg(zipPath);
        return false;
    }
    *htmlPath = html;
    return true;
}

void exportReportInteractively(QWidget *parent, const QString &folder)
{
    QString error;
    bool includeTraces = false;
    if (const auto loaded = loadResults(folder, &error)) {
        const TraceTotals totals = traceTotals(loaded->results);
        if (totals.files > 0) {
            TraceChoiceBox choice(totals, parent);
            choice.exec();
            if (choice.buttonRole(choice.clickedButton()) != QMessageBox::AcceptRole)
                return;
            includeTraces = choice.includeTraces();
        }
    }
    const QString zip = QFileDialog::getSaveFileName(parent, QObject::tr("Export report"), folder + QStringLiteral(".zip"),
                                                     QObject::tr("Zip archives (*.zip)"));
    if (zip.isEmpty())
        return;
    ExportOutcome outcome;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const bool ok = exportReport(folder, zip, &error, &outcome, {}, ExportChoices{includeTraces});
    QApplication::restoreOverrideCursor();
    if (!ok) {
        QMessageBox::warning(parent, QObject::tr("Export report"), QObject::tr("Export failed: %1").arg(error));
        return;
    }
    ExportSuccessBox done(zip, outcome.warnings, parent);
    done.exec();
    if (done.clickedButton() == done.openFolderButton()) {
        if (!QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(zip).absolutePath())))
            QMessageBox::warning(parent, QObject::tr("Export report"), QObject::tr("Could not open the folder %1").arg(QFileInfo(zip).absolutePath()));
    } else if (done.clickedButton() == done.openReportButton()) {
        // One viewing folder per zip path, reused when the same zip is exported again.
        const QString id = QString::fromLatin1(QCryptographicHash::hash(QFileInfo(zip).absoluteFilePath().toUtf8(), QCryptographicHash::Sha1).toHex().left(12));
        const QString into = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/reports/")
                             + QFileInfo(zip).completeBaseName() + QLatin1Char('-') + id;
        QString html;
        if (!unpackReportForViewing(zip, into, &html, &error) || !QDesktopServices::openUrl(QUrl::fromLocalFile(html)))
            QMessageBox::warning(parent, QObject::tr("Export report"),
                                 QObject::tr("Could not open the report%1").arg(error.isEmpty() ? QString() : QStringLiteral(": ") + error));
    }
}

} // namespace sb::ui
