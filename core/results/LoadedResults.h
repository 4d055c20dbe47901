#pragma once
// One result set as a view gets it: the results, where its files are and the spec beside them.
// Filled by report/ResultsLoader and by the importers (import/), read by every view; it lives
// here, below both, so importers need not include the loader that calls them
// (docs/ARCHITECTURE.md §2).
#include "results/Results.h"
#include <QByteArray>
#include <QString>

namespace sb {

struct LoadedResults {
    SweepResults results;   // sourceTool says where it came from: sweepbench | aiperf | vllm-bench | guidellm | inference-perf | genai-bench
    QString folder;         // folder holding the files (a temp extraction for zips); records paths are relative to it
    QByteArray specYaml;    // sweep.yaml when present (secrets already stripped)
    QString displayName;    // a short name for legends: the folder or file name
};

} // namespace sb
