#pragma once
// File → Export report as the user walks through it: where to write the zip, whether to copy the
// profiler traces into it (their count and total size shown, since they can be gigabytes), the
// export, and a result box that offers "Open folder" and "Open report".
#include "report/BundleWriter.h"
#include <QMessageBox>

QT_BEGIN_NAMESPACE
class QCheckBox;
QT_END_NAMESPACE

namespace sb::ui {

// "Include the profiler traces in the zip (3 files, 1.2 MiB; 1 no longer on disk)"
QString traceChoiceText(const TraceTotals &totals);
// "1.2 MiB"
QString byteSizeText(qint64 bytes);

// Asked only when the set has traces on disk. Its check box (objectName "includeTraces") starts
// unchecked: traces stay out unless asked for.
class TraceChoiceBox : public QMessageBox
{
    Q_OBJECT
public:
    TraceChoiceBox(const TraceTotals &totals, QWidget *parent = nullptr);
    bool includeTraces() const;
};

// The report is written: open the folder that holds the zip, or the report itself (report.html
// and the files it shows are unpacked into a viewing folder first: a browser cannot open a page
// inside a zip).
class ExportSuccessBox : public QMessageBox
{
    Q_OBJECT
public:
    ExportSuccessBox(const QString &zipPath, const QStringList &warnings, QWidget *parent = nullptr);
    QAbstractButton *openFolderButton() const { return m_openFolder; }
    QAbstractButton *openReportButton() const { return m_openReport; }

private:
    QAbstractButton *m_openFolder;
    QAbstractButton *m_openReport;
};

// Unpacks the bundle into `into` (created) and returns the path of its report.html.
bool unpackReportForViewing(const QString &zipPath, const QString &into, QString *htmlPath, QString *error);

void exportReportInteractively(QWidget *parent, const QString &resultsFolder);

} // namespace sb::ui
