#pragma once
// The variants of a launched server (`launch.variants`, docs/spec-reference.md) and the one place
// they become servers: withLaunchVariantsExpanded() turns a server with N variants into N server
// entries named SERVER[VARIANT], each launched with its variant's args and env. The engine plans
// its cells, shards and estimates from the expanded spec, so everything downstream (results,
// charts, Compare, reports, significance) treats a variant as the server it is.
#include "spec/SweepSpec.h"

namespace sb {

// Combinations of a launch's matrix (1 without one), computed before anything is expanded and
// saturating just above spec::kMaxLaunchVariants so no product overflows.
qint64 launchMatrixCombinations(const LaunchSpec &launch);
// The list form as written, or every combination of the matrix (first axis varying slowest).
// Empty when there are none, or when the matrix exceeds spec::kMaxLaunchVariants (the validator
// refuses such a spec).
QList<LaunchVariant> launchVariants(const LaunchSpec &launch);
// The series name of a variant: "vllm-tp1[max-num-seqs=64]".
QString variantSeriesName(const QString &server, const QString &variant);
// Every server with variants replaced, in place, by one entry per variant (variantOf and variant
// set, variants and matrix cleared). Idempotent: an expanded spec comes back unchanged.
SweepSpec withLaunchVariantsExpanded(const SweepSpec &spec);

} // namespace sb
