#pragma once
// Opens any result set a user may point at: a SweepBench results folder or exported zip, an AIPerf
// artifact folder (single run or concurrency sweep), or vLLM `bench serve --save-result` JSON
// (one file or a folder of them). Other tools' metrics are mapped onto AIPerf tags.
#include "results/LoadedResults.h"
#include <QString>
#include <optional>

namespace sb {

std::optional<LoadedResults> loadResults(const QString &path, QString *error);

} // namespace sb
