#pragma once
// Opens any result set a user may point at: a SweepBench results folder or exported zip, an AIPerf
// artifact folder (single run or concurrency sweep), or vLLM `bench serve --save-result` JSON
// (one file or a folder of them). Other tools' metrics are mapped onto AIPerf tags.
#include "results/Results.h"
#include <QString>
#include <optional>

namespace sb {

struct LoadedResults {
    SweepResults results;   // sourceTool says where it came from: sweepbench | aiperf | vllm-bench
    QString folder;         // folder holding the files (a temp extraction for zips); records paths are relative to it
    QByteArray specYaml;    // sweep.yaml when present (secrets already stripped)
    QString displayName;    // a short name for legends: the folder or file name
};

std::optional<LoadedResults> loadResults(const QString &path, QString *error);

} // namespace sb
