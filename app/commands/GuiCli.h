#pragma once
// The desktop workbench's own options (--theme, --size, --tab, --chart), parsed here: only app/ parses our
// command line; ui/GuiMain takes the parsed GuiOptions.
#include "GuiMain.h"

namespace sb {

// Parses the GUI's own options into `opts`; false and *error for an unknown value.
bool parseGuiOption(const QString &option, const QString &value, ui::GuiOptions *opts, QString *error);

} // namespace sb
