#pragma once
// Recently opened specs and result sets, kept in QSettings ("recentFiles"), newest first.
#include <QObject>
#include <QStringList>

class QMenu;

namespace sb::ui {

class RecentFiles : public QObject
{
    Q_OBJECT
public:
    explicit RecentFiles(QMenu *menu, QObject *parent = nullptr);

    void add(const QString &path);
    QStringList paths() const;
    static constexpr int kMax = 10;

Q_SIGNALS:
    void openRequested(const QString &path);

private:
    void rebuild();
    QMenu *m_menu;
};

} // namespace sb::ui
