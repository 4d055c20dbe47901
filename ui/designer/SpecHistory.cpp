#include "designer/SpecHistory.h"
#include "spec/SpecIO.h"
#include <QUndoCommand>
#include <QUndoStack>

namespace sb::ui {

namespace {
// Edits closer than this merge into one undo step.
constexpr qint64 kMergeWindowMs = 1000;
// Steps are told apart by the spec's YAML, every value as typed (keys included: this never
// leaves the process); the spec itself is what a step restores.
QByteArray yamlOf(const SweepSpec &s) { return saveSpecYaml(s, SecretPolicy::Keep); }
} // namespace

class SpecSnapshotCommand : public QUndoCommand
{
public:
    using Snapshot = SpecHistory::Snapshot;
    SpecSnapshotCommand(SpecHistory *history, Snapshot before, Snapshot after, const QString &text, bool mergeable)
        : QUndoCommand(text), m_history(history), m_before(std::move(before)), m_after(std::move(after)), m_mergeable(mergeable)
    {
    }
    int id() const override { return m_mergeable ? 1 : -1; }
    bool mergeWith(const QUndoCommand *other) override
    {
        const auto *next = static_cast<const SpecSnapshotCommand *>(other);
        if (!next->m_mergeable || !m_history->m_lastStep.isValid() || m_history->m_lastStep.elapsed() > kMergeWindowMs)
            return false;
        m_after = next->m_after;
        return true;
    }
    void undo() override { m_history->apply(m_before); }
    void redo() override
    {
        if (m_pushed) // the edit itself already made the change
            m_history->apply(m_after);
        m_pushed = true;
    }

private:
    SpecHistory *m_history;
    Snapshot m_before, m_after;
    bool m_mergeable;
    bool m_pushed = false;
};

SpecHistory::SpecHistory(std::function<void(const SweepSpec &)> restore, QObject *parent)
    : QObject(parent), m_stack(new QUndoStack(this)), m_restore(std::move(restore))
{
}

void SpecHistory::reset(const SweepSpec &spec)
{
    m_stack->clear();
    m_current = {spec, yamlOf(spec)};
    m_nextText.clear();
}

void SpecHistory::record(const SweepSpec &spec)
{
    if (m_restoring)
        return;
    Snapshot now{spec, yamlOf(spec)};
    if (now.yaml == m_current.yaml)
        return;
    const bool named = !m_nextText.isEmpty();
    const QString text = named ? m_nextText : tr("Edit");
    m_nextText.clear();
    Snapshot before = std::exchange(m_current, now);
    // Merging looks at the time of the previous step: push before restarting the clock.
    m_stack->push(new SpecSnapshotCommand(this, std::move(before), std::move(now), text, !named));
    m_lastStep.start();
}

void SpecHistory::apply(const Snapshot &snapshot)
{
    m_restoring = true;
    m_restore(snapshot.spec);
    m_restoring = false;
    m_current = snapshot;
    m_lastStep.invalidate(); // the next edit after an undo is a step of its own
}

} // namespace sb::ui
