#pragma once
// Entry point of the desktop workbench, called by app/main.cpp (which does not create the
// QApplication: runGui does, so the CLI never needs a display).
#include <QSize>
#include <QString>
#include <QStringList>

namespace sb::ui {

// The GUI's options, parsed from the command line in app/ (commands/GuiCli.h).
struct GuiOptions {
    QString openPath;       // a spec (opens Design) or a result set (opens Results)
    bool demo = false;      // load :/demo.yaml (embedded mocks) and run it at once
    QString screenshotPath; // with demo: when the run ends, show Results, save a PNG, exit;
                            // with openPath: once it is open
    QString outDir;         // results folder for the demo run (default: a new temp folder)
    QString theme;          // "light" | "dark": overrides the saved choice (screenshots default to light)
    QSize size;             // window size (screenshots: exactly this); invalid = the default
    QString tab;            // with --screenshot: design | run | results (default) | compare | trace
                            // (Results with a profiled cell's Trace tab open)
    QStringList comparePaths; // result sets added to the Compare tab (--compare PATH, repeatable)
    QString chart;          // the left chart of Results and Compare: latency (default) | pareto | pareto-ttft | pareto-energy | pareto-cost
};

// Returns the process exit code: the event loop's, or for --screenshot 0 when the picture was
// saved and 1 when the run could not start or the picture could not be written.
int runGui(int argc, char **argv, const GuiOptions &opts);

} // namespace sb::ui
