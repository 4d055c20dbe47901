#pragma once
// Helpers shared by the tst_spec_* tests: find a diagnostic by key path and check where it
// points, so every error test asserts file:line:column, key path and message together.
#include "spec/SpecIO.h"
#include <QStringList>

// QCOMPARE cannot print sb's enums (ADL finds sb::toString, which returns QString): compare names.
#define SPEC_COMPARE_ENUM(actual, expected) QCOMPARE(sb::toString(actual), sb::toString(expected))

namespace spectest {

inline QString dump(const QList<sb::SpecDiagnostic> &diags)
{
    QStringList lines;
    for (const auto &d : diags)
        lines << d.toString();
    return lines.join(QLatin1Char('\n'));
}

// Empty when `r` holds an error (or warning, if `warning`) at keyPath, line:column, whose
// message contains `text`; otherwise a description of what was found instead.
inline QString expectDiag(const sb::SpecLoadResult &r, const QString &keyPath, int line, int column, const QString &text,
                          bool warning = false)
{
    for (const auto &d : r.diagnostics) {
        if (d.keyPath == keyPath && d.line == line && d.column == column && d.message.contains(text)
            && d.isError() != warning)
            return {};
    }
    return QStringLiteral("no %1 at %2:%3 [%4] containing \"%5\"; got:\n%6")
        .arg(warning ? QStringLiteral("warning") : QStringLiteral("error"))
        .arg(line)
        .arg(column)
        .arg(keyPath, text, dump(r.diagnostics));
}

// A small valid spec the error tests start from (line numbers are relied upon).
inline const char *kMinimal = R"(servers:
  - name: a
    url: http://localhost:8000
    model: m
sweep:
  concurrency: [1, 2]
)";

} // namespace spectest
