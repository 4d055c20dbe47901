#pragma once
// Puts validation messages beside the fields they belong to. Fields register the key path they
// edit ("workload.input_tokens", "reset_kv_cache.timeout_seconds"); a diagnostic goes to the
// longest registered key that is a prefix of its own key path, the rest is returned to the caller.
//
// A field with an error gets a red frame (amber for a warning) and its message on one line
// beneath it. That line's height is reserved even while empty, and the frame is drawn in a margin
// that is always there, so an appearing error never moves the fields around it.
// A message too long for the line is elided; the whole text is the field's and the line's tooltip.
#include <functional>
#include "spec/SpecDiagnostic.h"
#include <QFrame>
#include <QLabel>
#include <QList>
#include <QPointer>
#include <QString>

class QWidget;

namespace sb::ui {

// One line of message text, elided to its width: its height never depends on the text.
class FieldMessageLine : public QLabel
{
    Q_OBJECT
public:
    explicit FieldMessageLine(QWidget *parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
};

// The frame around a bound field: transparent while fine, red on an error, amber on a warning.
// Its state is also the field's dynamic property "fieldState" ("" | "error" | "warning").
class FieldFrame : public QFrame
{
    Q_OBJECT
public:
    explicit FieldFrame(QWidget *field, QWidget *parent = nullptr);
    void setState(const QString &state); // "" | "error" | "warning"
    QString state() const { return m_state; }
    QWidget *field() const { return m_field; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QWidget *m_field = nullptr;
    QString m_state;
};

class FieldErrors
{
public:
    // Wraps `field` in a FieldFrame with a message line beneath it; returns the container to put
    // in a layout.
    QWidget *bind(const QString &keyPath, QWidget *field);
    // Registers an existing label for a key (e.g. a group-level message); `field` (if any) gets
    // the tooltip and, when it lies in a FieldFrame, the frame.
    void bindLabel(const QString &keyPath, QLabel *label, QWidget *field = nullptr);
    // The same frame and reserved line for a field that has no key of its own (a mode switch),
    // so all rows of a form are spaced alike.
    static QWidget *pad(QWidget *field);
    // A group-level message line (reserved space, elided) to register with bindLabel.
    static QLabel *messageLine();

    // Shows the diagnostics whose key path starts with `prefix` (which is stripped before
    // matching); returns those that matched no field. Clears fields without diagnostics.
    QList<SpecDiagnostic> show(const QList<SpecDiagnostic> &diags, const QString &prefix = QString());

    QString message(const QString &keyPath) const; // what is shown for this key now ("" = none)
    // Every bound field with its key, in binding order (help texts are attached this way).
    void forEachField(const std::function<void(const QString &key, QWidget *field)> &visit) const;
    // "" | "error" | "warning": the frame state of the field bound to this key.
    QString state(const QString &keyPath) const;

private:
    struct Entry {
        QString key;
        QPointer<QLabel> label;
        QPointer<QWidget> field;
        QString baseToolTip;
    };
    QList<Entry> m_entries;
};

// True when `keyPath` is `key` or lies beneath it ("a.b" under "a", "a[2]" under "a").
bool keyUnder(const QString &keyPath, const QString &key);

// The colours of an error and a warning, one source for the designer's frames and texts.
QColor errorColor();
QColor warningColor();

} // namespace sb::ui
