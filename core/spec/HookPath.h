#pragma once
// The rule for a hook path a spec may hold. It belongs to the spec (the validator checks every
// path as the user types), not to the hook presets that fill paths in (docs/ARCHITECTURE.md §2).
#include <QString>

namespace sb {

// Checks a relative hook path: must start with '/', must not contain "://". Returns an error
// message or an empty string.
QString checkHookPath(const QString &path);

} // namespace sb
