#pragma once
// Puts validation messages beside the fields they belong to. Fields register the key path they
// edit ("workload.input_tokens", "reset_kv_cache.timeout_seconds"); a diagnostic goes to the
// longest registered key that is a prefix of its own key path, the rest is returned to the caller.
#include "spec/SpecDiagnostic.h"
#include <QList>
#include <QPointer>
#include <QString>

class QLabel;
class QWidget;

namespace sb::ui {

class FieldErrors
{
public:
    // Wraps `field` with a message label beneath it; returns the container to put in a layout.
    QWidget *bind(const QString &keyPath, QWidget *field);
    // Registers an existing label for a key (e.g. a group-level message).
    void bindLabel(const QString &keyPath, QLabel *label, QWidget *field = nullptr);

    // Shows the diagnostics whose key path starts with `prefix` (which is stripped before
    // matching); returns those that matched no field. Clears fields without diagnostics.
    QList<SpecDiagnostic> show(const QList<SpecDiagnostic> &diags, const QString &prefix = QString());

    QString message(const QString &keyPath) const; // what is shown for this key now ("" = none)

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

} // namespace sb::ui
