#include "designer/FieldErrors.h"
#include <QHash>
#include <QPainter>
#include <QStyle>
#include <QVBoxLayout>
#include <QWidget>

namespace sb::ui {

bool keyUnder(const QString &keyPath, const QString &key)
{
    if (key.isEmpty())
        return true;
    if (!keyPath.startsWith(key))
        return false;
    if (keyPath.size() == key.size())
        return true;
    const QChar next = keyPath.at(key.size());
    return next == QLatin1Char('.') || next == QLatin1Char('[');
}

QColor errorColor()
{
    return QColor(0xd0, 0x45, 0x3a);
}

QColor warningColor()
{
    return QColor(0xc0, 0x80, 0x00);
}

FieldMessageLine::FieldMessageLine(QWidget *parent)
    : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    setObjectName(QStringLiteral("fieldError"));
    // Any width is fine (the text elides); the height is one line, whatever the text.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
}

QSize FieldMessageLine::sizeHint() const
{
    return {fontMetrics().horizontalAdvance(text()), fontMetrics().height()};
}

QSize FieldMessageLine::minimumSizeHint() const
{
    return {0, fontMetrics().height()};
}

void FieldMessageLine::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setPen(palette().color(QPalette::WindowText));
    const QString first = text().section(QLatin1Char('\n'), 0, 0);
    const bool more = text().contains(QLatin1Char('\n'));
    const QString shown = fontMetrics().elidedText(more ? first + QStringLiteral(" …") : first, Qt::ElideRight, width());
    p.drawText(rect(), Qt::AlignLeft | Qt::AlignVCenter, shown);
}

FieldFrame::FieldFrame(QWidget *field, QWidget *parent)
    : QFrame(parent), m_field(field)
{
    setObjectName(QStringLiteral("fieldFrame"));
    auto *layout = new QVBoxLayout(this);
    // The frame is painted in this margin, which is there whether or not it is red.
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(field);
    field->setProperty("fieldState", QString());
}

void FieldFrame::setState(const QString &state)
{
    if (state == m_state)
        return;
    m_state = state;
    m_field->setProperty("fieldState", state);
    update();
}

void FieldFrame::paintEvent(QPaintEvent *)
{
    if (m_state.isEmpty())
        return;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(m_state == QLatin1String("error") ? errorColor() : warningColor(), 2));
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(QRectF(rect()).adjusted(1, 1, -1, -1), 3, 3);
}

QLabel *FieldErrors::messageLine()
{
    return new FieldMessageLine;
}

QWidget *FieldErrors::pad(QWidget *field)
{
    auto *box = new QWidget;
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(new FieldFrame(field));
    layout->addWidget(new FieldMessageLine(box));
    return box;
}

QWidget *FieldErrors::bind(const QString &keyPath, QWidget *field)
{
    auto *box = new QWidget;
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(new FieldFrame(field));
    auto *label = new FieldMessageLine(box);
    label->setContentsMargins(3, 0, 0, 0);
    layout->addWidget(label);
    bindLabel(keyPath, label, field);
    return box;
}

void FieldErrors::bindLabel(const QString &keyPath, QLabel *label, QWidget *field)
{
    m_entries.append({keyPath, label, field, field ? field->toolTip() : QString()});
}

static FieldFrame *frameOf(QWidget *field)
{
    return field ? qobject_cast<FieldFrame *>(field->parentWidget()) : nullptr;
}

QList<SpecDiagnostic> FieldErrors::show(const QList<SpecDiagnostic> &diags, const QString &prefix)
{
    QHash<int, QList<const SpecDiagnostic *>> byEntry;
    QList<SpecDiagnostic> unmatched;
    for (const SpecDiagnostic &d : diags) {
        if (!keyUnder(d.keyPath, prefix) && !prefix.isEmpty())
            continue;
        QString rel = d.keyPath.mid(prefix.size());
        if (rel.startsWith(QLatin1Char('.')))
            rel.remove(0, 1);
        int best = -1;
        for (int i = 0; i < m_entries.size(); ++i)
            if (keyUnder(rel, m_entries[i].key) && (best < 0 || m_entries[i].key.size() > m_entries[best].key.size()))
                best = i;
        if (best >= 0)
            byEntry[best].append(&d);
        else
            unmatched.append(d);
    }
    // Several keys may share one label (e.g. requests_per_cell and duration_s): gather per label.
    struct Shown { QStringList lines; bool anyError = false; };
    QHash<QLabel *, Shown> perLabel;
    QHash<FieldFrame *, QString> perFrame;
    for (int i = 0; i < m_entries.size(); ++i) {
        const Entry &e = m_entries[i];
        if (!e.label)
            continue;
        Shown &shown = perLabel[e.label.data()];
        for (const SpecDiagnostic *d : byEntry.value(i)) {
            shown.lines << (d->isError() ? QStringLiteral("✗ ") : QStringLiteral("⚠ ")) + d->message;
            shown.anyError |= d->isError();
        }
    }
    for (const Entry &e : std::as_const(m_entries)) {
        if (!e.label)
            continue;
        const Shown &shown = perLabel[e.label.data()];
        const QString text = shown.lines.join(QLatin1Char('\n'));
        if (e.label->text() != text)
            e.label->setText(text);
        // Red for errors, amber for warnings; set per label so the palette switch keeps them legible.
        const QString style = QStringLiteral("color: %1;").arg((shown.anyError ? errorColor() : warningColor()).name());
        if (e.label->styleSheet() != style)
            e.label->setStyleSheet(style);
        // A message line keeps its space when empty; other labels (none yet) come and go.
        if (!qobject_cast<FieldMessageLine *>(e.label.data()))
            e.label->setVisible(!text.isEmpty());
        e.label->setToolTip(text);
        if (e.field)
            e.field->setToolTip(text.isEmpty() ? e.baseToolTip : text);
        if (FieldFrame *frame = frameOf(e.field)) {
            // Two keys may share a frame: the worse state wins.
            QString &state = perFrame[frame];
            if (shown.anyError)
                state = QStringLiteral("error");
            else if (!text.isEmpty() && state.isEmpty())
                state = QStringLiteral("warning");
        }
    }
    for (auto it = perFrame.cbegin(); it != perFrame.cend(); ++it)
        it.key()->setState(it.value());
    return unmatched;
}

void FieldErrors::forEachField(const std::function<void(const QString &key, QWidget *field)> &visit) const
{
    for (const Entry &e : m_entries)
        if (e.field)
            visit(e.key, e.field.data());
}

QString FieldErrors::message(const QString &keyPath) const
{
    for (const Entry &e : m_entries)
        if (e.key == keyPath && e.label)
            return e.label->text();
    return {};
}

QString FieldErrors::state(const QString &keyPath) const
{
    for (const Entry &e : m_entries)
        if (e.key == keyPath)
            if (FieldFrame *frame = frameOf(e.field))
                return frame->state();
    return {};
}

} // namespace sb::ui
