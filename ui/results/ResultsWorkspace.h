#pragma once
// The Results tab's arrangement: the charts in the middle, the cell table and the cell pane in
// dock widgets a user can resize, move to another edge, stack as tabs, float onto a second screen
// or close (View menu brings them back). The arrangement is remembered between sessions
// (QSettings) and "Reset layout" returns to the default: charts on top with 60 % of the height,
// table and cell pane side by side beneath.
#include <QMainWindow>

class QDockWidget;

namespace sb::ui {

class ResultsWorkspace : public QMainWindow
{
    Q_OBJECT
public:
    // Takes ownership of the three widgets. `settingsKey` is where the arrangement is kept.
    ResultsWorkspace(QWidget *charts, QWidget *table, QWidget *cellPane, const QString &settingsKey, QWidget *parent = nullptr);
    ~ResultsWorkspace() override;

    QDockWidget *tableDock() const { return m_tableDock; }
    QDockWidget *cellDock() const { return m_cellDock; }

    // Both docks back in their default places and sizes, shown, not floating.
    void resetLayout();
    // Keeps the current arrangement for the next window (also done when this one is destroyed).
    void saveLayout() const;

    // The default share of the height the charts get, and of the dock row's width the table gets.
    static constexpr double kChartsShare = 0.6;
    static constexpr double kTableShare = 0.6;

protected:
    void showEvent(QShowEvent *event) override;

private:
    void placeDocks();
    void sizeDocks();

    QDockWidget *m_tableDock = nullptr;
    QDockWidget *m_cellDock = nullptr;
    QString m_key;
    // The arrangement is first applied when the view has its real size; before that there is
    // nothing worth saving (an unshown workspace must not overwrite a remembered layout).
    bool m_laidOut = false;
};

} // namespace sb::ui
