#include "help/HelpBrowser.h"
#include "style/Theme.h"
#include <QAbstractTextDocumentLayout>
#include <algorithm>
#include <QDesktopServices>
#include <QHBoxLayout>
#include <QImage>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QScrollBar>
#include <QShortcut>
#include <QSplitter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QVBoxLayout>

namespace sb::ui {

namespace {
const QString kRoot = QStringLiteral("qrc:/docs/");
constexpr int kMaxImageWidth = 860; // screenshots are 1024 and 1600 px wide
} // namespace

QString headingAnchor(const QString &heading)
{
    QString out;
    for (const QChar c : heading.toLower()) {
        if (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_'))
            out += c;
        else if (c == QLatin1Char(' '))
            out += QLatin1Char('-');
    }
    return out;
}

HelpView::HelpView(QWidget *parent) : QTextBrowser(parent)
{
    setObjectName(QStringLiteral("helpView"));
    setOpenLinks(false); // links are followed in HelpBrowser, which knows the bundle
}

QVariant HelpView::loadResource(int type, const QUrl &name)
{
    QVariant v = QTextBrowser::loadResource(type, name);
    if (type == QTextDocument::ImageResource) {
        QImage image = v.value<QImage>();
        if (image.isNull() && v.canConvert<QByteArray>())
            image = QImage::fromData(v.toByteArray());
        // As wide as the page at most, so a screenshot never needs a horizontal scroll.
        const int fit = std::clamp(viewport()->width() - 2 * int(document()->documentMargin()) - 8, 240, kMaxImageWidth);
        if (!image.isNull() && image.width() > fit)
            return image.scaledToWidth(fit, Qt::SmoothTransformation);
        if (!image.isNull())
            return image;
    }
    return v;
}

bool HelpView::scrollToHeading(const QString &fragment)
{
    for (QTextBlock b = document()->begin(); b.isValid(); b = b.next()) {
        if (b.blockFormat().headingLevel() > 0 && headingAnchor(b.text()) == fragment) {
            QTextCursor c(b);
            setTextCursor(c);
            verticalScrollBar()->setValue(int(document()->documentLayout()->blockBoundingRect(b).top()));
            return true;
        }
    }
    return false;
}

QList<HelpBrowser::Document> HelpBrowser::documents()
{
    return {{tr("User guide"), QStringLiteral("README.md")},
            {tr("Spec reference"), QStringLiteral("docs/spec-reference.md")},
            {tr("Server metrics"), QStringLiteral("docs/server-metrics.md")},
            {tr("Profiler traces"), QStringLiteral("docs/traces.md")},
            {tr("GPU telemetry and cost"), QStringLiteral("docs/gpu-telemetry.md")},
            {tr("Cluster runs"), QStringLiteral("docs/CLUSTER.md")},
            {tr("Architecture"), QStringLiteral("docs/ARCHITECTURE.md")}};
}

HelpBrowser::HelpBrowser(QWidget *parent) : QDialog(parent)
{
    initResources(); // the bundle lives in a static library
    setObjectName(QStringLiteral("helpBrowser"));
    setWindowTitle(tr("SweepBench help"));
    m_list = new QListWidget;
    m_list->setObjectName(QStringLiteral("helpDocuments"));
    for (const Document &d : documents()) {
        auto *item = new QListWidgetItem(d.title, m_list);
        item->setData(Qt::UserRole, d.path);
    }
    m_list->setMaximumWidth(200);
    m_view = new HelpView;
    m_view->setSearchPaths({});
    m_find = new QLineEdit;
    m_find->setObjectName(QStringLiteral("helpFind"));
    m_find->setPlaceholderText(tr("Find in this document (Enter: next, Shift+Enter: previous)"));
    m_find->setClearButtonEnabled(true);

    auto *right = new QWidget;
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_find);
    rightLayout->addWidget(m_view, 1);
    auto *split = new QSplitter;
    split->addWidget(m_list);
    split->addWidget(right);
    split->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split);

    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        const QString path = m_list->item(row) ? m_list->item(row)->data(Qt::UserRole).toString() : QString();
        if (!path.isEmpty() && path != currentPath())
            showDocument(path);
    });
    connect(m_view, &QTextBrowser::anchorClicked, this, [this](const QUrl &link) {
        const QUrl url = m_view->source().resolved(link);
        if (url.scheme() == QLatin1String("qrc") && url.path().startsWith(QLatin1String("/docs/"))) {
            const QString path = url.path().mid(int(qstrlen("/docs/")));
            if (path == currentPath())
                m_view->scrollToHeading(url.fragment());
            else
                showDocument(path, url.fragment());
        } else if (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https")) {
            QDesktopServices::openUrl(url);
        }
    });
    connect(m_view, &QTextBrowser::sourceChanged, this, &HelpBrowser::onSourceChanged);
    connect(m_find, &QLineEdit::returnPressed, this, [this] { findNext(false); });
    auto *back = new QShortcut(QKeySequence(Qt::SHIFT | Qt::Key_Return), m_find);
    connect(back, &QShortcut::activated, this, [this] { findNext(true); });
    auto *find = new QShortcut(QKeySequence::Find, this);
    connect(find, &QShortcut::activated, this, [this] {
        m_find->setFocus();
        m_find->selectAll();
    });
    resize(1000, 700);
    showDocument(QStringLiteral("README.md"));
}

void HelpBrowser::showDocument(const QString &path, const QString &fragment)
{
    m_view->setSource(QUrl(kRoot + path), QTextDocument::MarkdownResource);
    if (!fragment.isEmpty())
        m_view->scrollToHeading(fragment);
}

QString HelpBrowser::currentPath() const
{
    const QString s = m_view->source().toString();
    return s.startsWith(kRoot) ? s.mid(kRoot.size()).section(QLatin1Char('#'), 0, 0) : QString();
}

void HelpBrowser::onSourceChanged(const QUrl &url)
{
    // From the URL itself: the browser may tell before source() has it.
    const QString s = url.toString(QUrl::RemoveFragment);
    const QString path = s.startsWith(kRoot) ? s.mid(kRoot.size()) : QString();
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->data(Qt::UserRole).toString() == path) {
            const QSignalBlocker block(m_list);
            m_list->setCurrentRow(i);
        }
    for (const Document &d : documents())
        if (d.path == path)
            setWindowTitle(tr("SweepBench help — %1").arg(d.title));
}

void HelpBrowser::findNext(bool backward)
{
    const QString text = m_find->text();
    if (text.isEmpty())
        return;
    const QTextDocument::FindFlags flags = backward ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    if (!m_view->find(text, flags)) { // wrap around once
        QTextCursor c = m_view->textCursor();
        c.movePosition(backward ? QTextCursor::End : QTextCursor::Start);
        m_view->setTextCursor(c);
        m_view->find(text, flags);
    }
}

} // namespace sb::ui
