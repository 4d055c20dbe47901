#pragma once
// `sweepbench export RESULTS [-o report.zip] [--spec SPEC.yaml]`.
#include <QStringList>

namespace sb::ui {

// args = the arguments after "export". Creates its own QApplication when none exists (offscreen
// when there is no display), so call it before constructing any application object, or from a
// process that already has a QApplication. Exit codes: 0 ok, 2 usage error or export failed.
int runExportCommand(const QStringList &args);

} // namespace sb::ui
