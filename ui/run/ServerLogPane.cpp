#include "run/ServerLogPane.h"
#include "launch/LaunchedServers.h"
#include <QDir>
#include <QFile>
#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTimer>

namespace sb::ui {

namespace {
constexpr int kRefreshMs = 1000;
} // namespace

QString readLogTail(const QString &path, qint64 maxBytes, qint64 *size)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const qint64 total = f.size();
    if (size)
        *size = total;
    const qint64 from = std::max<qint64>(0, total - maxBytes);
    if (!f.seek(from))
        return {};
    QByteArray data = f.read(total - from);
    if (from > 0) // a line cut in half at the start is dropped
        data = data.mid(data.indexOf('\n') + 1);
    return QString::fromUtf8(data);
}

ServerLogPane::ServerLogPane(QPlainTextEdit *engineLog, QWidget *parent)
    : QTabWidget(parent)
{
    setObjectName(QStringLiteral("runLogTabs"));
    setDocumentMode(true);
    addTab(engineLog, tr("Engine"));
    m_timer = new QTimer(this);
    m_timer->setInterval(kRefreshMs);
    connect(m_timer, &QTimer::timeout, this, &ServerLogPane::refresh);
}

void ServerLogPane::follow(const QString &outDir, const QStringList &serverNames)
{
    for (const Followed &f : std::as_const(m_followed)) {
        removeTab(indexOf(f.view));
        delete f.view;
    }
    m_followed.clear();
    for (const QString &name : serverNames) {
        Followed f;
        f.name = name;
        f.path = launchLogPath(QDir(outDir).filePath(QStringLiteral("servers")), name);
        f.view = new QPlainTextEdit;
        f.view->setObjectName(QStringLiteral("serverLog:") + name);
        f.view->setReadOnly(true);
        f.view->setLineWrapMode(QPlainTextEdit::NoWrap);
        f.view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        f.view->setPlaceholderText(tr("%1's output appears here once SweepBench starts it.").arg(name));
        addTab(f.view, tr("%1 (server)").arg(name));
        setTabToolTip(indexOf(f.view), f.path);
        m_followed << f;
    }
    if (m_followed.isEmpty())
        m_timer->stop();
    else
        m_timer->start();
}

void ServerLogPane::stop()
{
    refresh();
    m_timer->stop();
}

void ServerLogPane::refresh()
{
    for (Followed &f : m_followed) {
        qint64 size = -1;
        const QString text = readLogTail(f.path, kTailBytes, &size);
        if (size == f.lastSize)
            continue; // unchanged since the last read
        f.lastSize = size;
        QScrollBar *bar = f.view->verticalScrollBar();
        const bool atEnd = bar->value() == bar->maximum();
        f.view->setPlainText(text);
        if (atEnd) // follow the tail unless the user scrolled up to read
            bar->setValue(bar->maximum());
    }
}

QPlainTextEdit *ServerLogPane::serverLog(const QString &name) const
{
    for (const Followed &f : m_followed)
        if (f.name == name)
            return f.view;
    return nullptr;
}

} // namespace sb::ui
