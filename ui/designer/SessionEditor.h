#pragma once
// The designer's multi-turn session fields (workload.sessions, spec/WorkloadShapes.h): a switch,
// turns and think time (a number or a distribution, like lengths), the follow-up message length
// and the session header. Its rows go into the workload form, each bound to its key's errors.
#include "spec/WorkloadShapes.h"
#include <QObject>
#include <optional>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QFormLayout;
class QLineEdit;
class QSpinBox;
QT_END_NAMESPACE

namespace sb::ui {

class FieldErrors;
class LengthEditor;

class SessionEditor : public QObject
{
    Q_OBJECT
public:
    explicit SessionEditor(QObject *parent = nullptr);
    void addRows(QFormLayout *form, FieldErrors &errors);
    void setSessions(const std::optional<SessionSpec> &s); // emits nothing
    void applyTo(std::optional<SessionSpec> &s) const;
    QString parseError() const; // of a distribution's choices text
    // With a dataset its conversations give each session's turns and messages: the turns and
    // follow-up fields are off and not written (spec/WorkloadShapes refuses them with a dataset).
    void setTurnsFromDataset(bool fromDataset);
    QSpinBox *followUpBox() const { return m_followUp; }
    QCheckBox *enabledBox() const { return m_enabled; }
    LengthEditor *turnsEditor() const { return m_turns; }

Q_SIGNALS:
    void edited();

private:
    void updateEnabled();
    QCheckBox *m_enabled;
    LengthEditor *m_turns;
    LengthEditor *m_think;
    QSpinBox *m_followUp;
    QLineEdit *m_header;
    bool m_loading = false;
    bool m_fromDataset = false;
};

} // namespace sb::ui
