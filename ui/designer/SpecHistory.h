#pragma once
// Undo and redo for the designer: every edit that changes the spec (a field, a server added,
// removed or edited) is a snapshot of the spec before and after it on a QUndoStack, so a removed
// server, a cleared list of levels or a wrong preset comes back with Ctrl+Z. Edits close together
// in time merge into one step (typing a name is one step, not one per letter); a named step (a
// server removed) never merges.
#include "spec/SweepSpec.h"
#include <QByteArray>
#include <QElapsedTimer>
#include <QObject>
#include <functional>

class QUndoStack;

namespace sb::ui {

class SpecHistory : public QObject
{
    Q_OBJECT
public:
    // `restore` puts a snapshot back into the designer; the history ignores the edits that causes.
    SpecHistory(std::function<void(const SweepSpec &)> restore, QObject *parent = nullptr);
    QUndoStack *stack() const { return m_stack; }
    // A new document (New, Open): forgets every step.
    void reset(const SweepSpec &spec);
    // The spec as it is after an edit: a step when it differs from the last one recorded.
    void record(const SweepSpec &spec);
    // The next recorded step carries this text ("Remove server “a”") and stands alone.
    void nameNextStep(const QString &text) { m_nextText = text; }
    bool restoring() const { return m_restoring; }

    struct Snapshot {
        SweepSpec spec;
        QByteArray yaml; // compared to tell an edit from a no-op
    };

private:
    friend class SpecSnapshotCommand;
    void apply(const Snapshot &snapshot);
    QUndoStack *m_stack;
    std::function<void(const SweepSpec &)> m_restore;
    Snapshot m_current; // the spec last recorded or restored
    QString m_nextText;
    QElapsedTimer m_lastStep;
    bool m_restoring = false;
};

} // namespace sb::ui
