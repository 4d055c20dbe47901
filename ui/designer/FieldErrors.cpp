#include "designer/FieldErrors.h"
#include <QHash>
#include <QLabel>
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

static QLabel *makeErrorLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setVisible(false);
    label->setObjectName(QStringLiteral("fieldError"));
    return label;
}

QWidget *FieldErrors::bind(const QString &keyPath, QWidget *field)
{
    auto *box = new QWidget;
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(field);
    QLabel *label = makeErrorLabel(box);
    layout->addWidget(label);
    bindLabel(keyPath, label, field);
    return box;
}

void FieldErrors::bindLabel(const QString &keyPath, QLabel *label, QWidget *field)
{
    m_entries.append({keyPath, label, field, field ? field->toolTip() : QString()});
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
        const QString style = shown.anyError ? QStringLiteral("color: #d0453a;") : QStringLiteral("color: #c08000;");
        if (e.label->styleSheet() != style)
            e.label->setStyleSheet(style);
        e.label->setVisible(!text.isEmpty());
        if (e.field)
            e.field->setToolTip(text.isEmpty() ? e.baseToolTip : text);
    }
    return unmatched;
}

QString FieldErrors::message(const QString &keyPath) const
{
    for (const Entry &e : m_entries)
        if (e.key == keyPath && e.label)
            return e.label->text();
    return {};
}

} // namespace sb::ui
