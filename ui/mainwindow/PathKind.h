#pragma once
// What a path given on the command line, dropped on the window or picked in Open is.
#include <QString>

namespace sb::ui {

enum class PathKind { Spec, Results, Unknown };

// *.yaml / *.yml = a sweep spec; a folder, a *.zip or a *.json = a result set (SweepBench's own,
// or another tool's format that sb::loadResults reads). A results.json inside a folder stands
// for its folder.
PathKind classifyPath(const QString &path);
QString resultsPathFor(const QString &path);

} // namespace sb::ui
