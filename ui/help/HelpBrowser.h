#pragma once
// Help › User guide (F1): the README and the docs/ references, bundled in the binary
// (help/docs.qrc) and shown as rendered markdown, so help works offline and matches the build.
// Links between the documents open in place (with their #section), web links in the browser,
// wide screenshots are scaled to the page, and a find field searches the open document.
#include <QDialog>
#include <QTextBrowser>

class QLineEdit;
class QListWidget;

namespace sb::ui {

// The browser itself: resolves bundled images, scaled to fit the page.
class HelpView : public QTextBrowser
{
    Q_OBJECT
public:
    explicit HelpView(QWidget *parent = nullptr);
    QVariant loadResource(int type, const QUrl &name) override;
    // Scrolls to the heading whose GitHub-style anchor is `fragment` ("control-hooks"); false when none is.
    bool scrollToHeading(const QString &fragment);
};

class HelpBrowser : public QDialog
{
    Q_OBJECT
public:
    struct Document {
        QString title;
        QString path; // inside the bundle, e.g. "docs/spec-reference.md"
    };
    static QList<Document> documents();

    explicit HelpBrowser(QWidget *parent = nullptr);
    // Opens a bundled document ("README.md", "docs/traces.md"), at a section when given.
    void showDocument(const QString &path, const QString &fragment = QString());
    QString currentPath() const;
    HelpView *view() const { return m_view; }
    QLineEdit *findField() const { return m_find; }

private:
    void onSourceChanged(const QUrl &url);
    void findNext(bool backward);
    QListWidget *m_list;
    HelpView *m_view;
    QLineEdit *m_find;
};

// GitHub's anchor of a heading: lower case, spaces to '-', punctuation dropped.
QString headingAnchor(const QString &heading);

} // namespace sb::ui
