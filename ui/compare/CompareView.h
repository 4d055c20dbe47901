#pragma once
// The Compare tab: several result sets overlaid on the same charts. Each set gets its own line
// style and marker, servers keep their colours; legend names are editable in the list of sets.
// The series are listed in a table under the charts (full names, swatches, the value at the
// hovered or clicked point) instead of a legend inside the plot, beside a difference table (per point: A,
// B, Δ %, significant?) of the default pairs or any two series the user picks. With persistence on, the sets reopen at the next start.
#include "report/ResultsLoader.h"
#include <QWidget>
#include <optional>

QT_BEGIN_NAMESPACE
class QLabel;
class QListView;
class QPushButton;
class QSettings;
class QSplitter;
class QStackedWidget;
class QTableWidget;
class QTabWidget;
QT_END_NAMESPACE

namespace sb::ui {

class ChartsPanel;
class DifferencePanel;
class ResultSetListModel;
struct ChartPointRef;

class CompareView : public QWidget
{
    Q_OBJECT
public:
    // The plot keeps at least this height when the window is small (1024×700).
    static constexpr int kMinimumChartHeight = 300;

    explicit CompareView(QWidget *parent = nullptr);
    ~CompareView() override;
    // Its charts (the Pareto switch of `--chart`: GuiMain).
    ChartsPanel *chartsPanel() const { return m_charts; }

    // A SweepBench folder or zip, or another tool's format, through sb::loadResults.
    // On failure returns false, sets *error and shows nothing new.
    bool addResultSet(const QString &path, QString *error = nullptr);
    // An already loaded set (e.g. the one in the Results tab).
    void addLoadedResults(const LoadedResults &loaded);
    void removeResultSet(int row);
    void clear();
    int resultSetCount() const;

    // Reopens the sets saved in `settings` (default: the application's QSettings) and from then
    // on saves the list there after every change. Sets whose folder or file is gone, or that no
    // longer load, are dropped with a status message (no error box): returns their paths.
    QStringList restoreSavedSets(QSettings *settings = nullptr);
    // The comparison as one self-contained HTML page (report/ComparisonHtml.h).
    bool exportComparison(const QString &htmlPath, QString *error);
    // What the status line under the list says (restore and export outcomes).
    QString statusText() const;

Q_SIGNALS:
    void resultSetsChanged();
    void statusMessage(const QString &message);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void refresh();
    void refreshTables();
    void selectPoint(ChartPointRef ref);
    void hoverPoint(ChartPointRef ref); // invalid = the pointer left the point
    void watchHover();                  // connects the hovered() of the charts' series after a rebuild
    std::optional<double> pointOf(ChartPointRef ref) const;
    void saveSets();
    void showStatus(const QString &message);

    ResultSetListModel *m_model = nullptr;
    QListView *m_list = nullptr;
    ChartsPanel *m_charts = nullptr;
    QPushButton *m_remove = nullptr;
    QPushButton *m_export = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_serverDifferences = nullptr; // how the sets' servers differ in version or flags
    QStackedWidget *m_stack = nullptr;
    QLabel *m_empty = nullptr;
    QSplitter *m_chartSplitter = nullptr;
    QTabWidget *m_tables = nullptr;
    QTableWidget *m_legend = nullptr;
    DifferencePanel *m_differences = nullptr;
    std::optional<double> m_selectedPoint;
    std::optional<double> m_hoveredPoint; // while the pointer is on a point it wins over the selection
    QSettings *m_settings = nullptr; // not owned; null = QSettings() when persisting
    bool m_persist = false;
};

} // namespace sb::ui
