#pragma once
// Bounds a YAML text before anything walks its tree. yaml-cpp shares an aliased node instead of
// copying it, so loading an "alias bomb" (a: &a [x, x], b: &b [*a, *a], ...) is cheap — but every
// walk over the loaded tree (the spec reader, start_body -> JSON, the secret scan) visits the
// expansion, which doubles with each level: a 1 KB text reaches billions of nodes. This pass reads
// the parser's events once, in time linear in the text, and computes the expanded size.
#include "spec/YamlReader.h"
#include <QByteArray>
#include <optional>

namespace sb::yaml {

inline constexpr int kMaxAliases = 1000;      // *refs in one document
inline constexpr qint64 kMaxNodes = 100000;   // nodes once every alias is expanded
inline constexpr int kMaxDepth = 64;          // nested mappings/lists

struct BoundsError {
    SourcePos pos;
    QString message;
};

// The first bound the text exceeds, or nullopt. Syntax errors are left to the loader.
std::optional<BoundsError> checkYamlBounds(const QByteArray &text);

} // namespace sb::yaml
