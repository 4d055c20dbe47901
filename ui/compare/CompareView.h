#pragma once
// The Compare tab: several result sets overlaid on the same charts. Each set gets its own line
// style and marker, servers keep their colours; legend names are editable in the list of sets.
#include "report/ResultsLoader.h"
#include <QWidget>
#include <memory>

namespace sb::ui {

class CompareViewPrivate;

class CompareView : public QWidget
{
    Q_OBJECT
public:
    explicit CompareView(QWidget *parent = nullptr);
    ~CompareView() override;

    // A SweepBench folder or zip, or another tool's format, through sb::loadResults.
    // On failure returns false, sets *error and shows nothing new.
    bool addResultSet(const QString &path, QString *error = nullptr);
    // An already loaded set (e.g. the one in the Results tab).
    void addLoadedResults(const LoadedResults &loaded);
    void removeResultSet(int row);
    void clear();
    int resultSetCount() const;

Q_SIGNALS:
    void resultSetsChanged();

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    std::unique_ptr<CompareViewPrivate> d;
};

} // namespace sb::ui
