#pragma once
// Limits and defaults of the sweep spec that the loader, the validator and the writer must
// agree on. The expectation phrases are shared so a type error from the loader and a range
// error from the validator read the same ("expected an integer ≥ 1, got ...").
#include <QString>

namespace sb::spec {

inline constexpr int kMaxConcurrency = 100000;
inline constexpr int kDefaultRequestsPerCell = 100; // when neither requests_per_cell nor duration_s
inline constexpr double kDefaultHookTimeoutS = 30;
inline constexpr double kDefaultResetRetryS = 60;
inline constexpr double kDefaultStopTimeoutS = 600;
inline const QString kMockDefaultModel = QStringLiteral("demo-model");

inline QString expectPositiveInt() { return QStringLiteral("an integer ≥ 1"); }
inline QString expectNonNegativeInt() { return QStringLiteral("an integer ≥ 0"); }
inline QString expectPositiveNumber() { return QStringLiteral("a number > 0"); }
inline QString expectNonNegativeNumber() { return QStringLiteral("a number ≥ 0"); }
inline QString expectFraction() { return QStringLiteral("a fraction from 0 to 1 (0.01 = 1 %)"); }
inline QString expectConcurrency() { return QStringLiteral("an integer from 1 to %1").arg(kMaxConcurrency); }

} // namespace sb::spec
