#pragma once
// A problem found in a sweep spec, located as precisely as the source allows.
#include <QList>
#include <QString>

namespace sb {

struct SpecDiagnostic {
    enum class Severity { Error, Warning };
    Severity severity = Severity::Error;
    QString file;      // may be empty for specs built in memory (GUI)
    int line = 0;      // 1-based; 0 = unknown
    int column = 0;    // 1-based; 0 = unknown
    QString keyPath;   // e.g. "servers[1].reset_kv_cache.timeout_seconds"
    QString message;   // what is wrong and what was expected

    bool isError() const { return severity == Severity::Error; }
    // "file:line:column: error: servers[1].url: expected an http or https URL"
    QString toString() const;
};

inline bool hasErrors(const QList<SpecDiagnostic> &diags)
{
    for (const auto &d : diags)
        if (d.isError())
            return true;
    return false;
}

} // namespace sb
