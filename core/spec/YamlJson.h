#pragma once
// YAML <-> JSON for free-form values (the profiler's `start_body`), and the scalar emitter
// rules the writer needs so that what it writes reads back with the same type.
#include "spec/SpecRules.h"
#include "spec/YamlReader.h"
#include <QJsonValue>

namespace sb::yaml {

enum class ScalarKind { Null, Bool, Int, Float, String };
// What a *plain* (unquoted) scalar means: YAML 1.2 core schema plus the YAML 1.1 yes/no/on/off
// booleans that yaml-cpp also accepts.
ScalarKind classifyPlain(const QString &text);

// Converts a node: quoted scalars are strings, plain scalars are typed by content, lists become
// arrays and mappings objects. Reports non-scalar keys, duplicate keys and nesting deeper than
// spec::kMaxJsonDepth.
QJsonValue toJson(Context &ctx, const YAML::Node &node, const QString &path, int depth = 0);

// Writes a string so that it reads back as the same string (quoted when it would otherwise read
// as null, a boolean or a number, or when it spans lines).
void emitString(YAML::Emitter &out, const QString &s);
// Shortest text that reads back to exactly `v` ("30", "0.25", "1e-05").
std::string formatNumber(double v);
void emitJson(YAML::Emitter &out, const QJsonValue &value);

} // namespace sb::yaml
