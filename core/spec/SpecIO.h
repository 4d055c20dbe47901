#pragma once
// YAML load/save of a SweepSpec, plus semantic validation usable without a file (GUI).
#include "spec/SpecDiagnostic.h"
#include "spec/SweepSpec.h"
#include <QByteArray>
#include <optional>

namespace sb {

struct SpecLoadResult {
    std::optional<SweepSpec> spec;      // set when there are no errors
    // Set instead when every value was read and only the semantic checks failed (a zero, a
    // duplicate name): the spec says what the file says, so the designer can open it for the
    // user to fix. Unset when a value could not be read (wrong type, bad YAML): opening would
    // silently drop it.
    std::optional<SweepSpec> draft;
    QList<SpecDiagnostic> diagnostics;  // errors and warnings, in source order
    bool ok() const { return spec.has_value() && !hasErrors(diagnostics); }
};

// Parses YAML text. `fileName` is only used in messages.
SpecLoadResult loadSpecText(const QByteArray &yaml, const QString &fileName = QString());
// Every spec file is read through readSpecFile: a regular file (symlinks followed) of at most
// kMaxSmallFileBytes (io/ReadLimits.h), so /dev/zero, a FIFO or a huge file is refused at once,
// with an error naming the file and what was expected. loadSpecFile reads and parses; `text`
// receives the bytes it parsed (the Kubernetes ConfigMap carries exactly those).
bool readSpecFile(const QString &path, QByteArray *text, QString *error);
SpecLoadResult loadSpecFile(const QString &path, QByteArray *text = nullptr);

// Semantic checks on an in-memory spec (ranges, duplicates, hook paths, flavor gates).
// loadSpec* runs these too; the GUI calls this on every edit.
QList<SpecDiagnostic> validateSpec(const SweepSpec &spec);

enum class SecretPolicy { Keep, Strip };
// Writes YAML that loadSpecText reads back to an equal spec. With Strip, `api_key` is omitted
// (used for OUT/sweep.yaml and exports); `api_key_env` is always kept.
QByteArray saveSpecYaml(const SweepSpec &spec, SecretPolicy secrets = SecretPolicy::Keep);

} // namespace sb
