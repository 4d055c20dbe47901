#pragma once
// The tooltip text of one hook outcome, shared by the designer's hook check and the run log so
// both explain a verdict the same way.
#include "results/Results.h"
#include <QString>

namespace sb::ui {

QString hookOutcomeToolTip(const HookOutcome &o);

} // namespace sb::ui
