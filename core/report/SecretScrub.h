#pragma once
// Defence in depth for exports: whatever the engine already stripped, the exporter re-strips the
// spec and then scans every file it is about to write for any secret it can find.
#include "spec/SecretSet.h"
#include <QByteArray>
#include <QString>
#include <QStringList>

namespace sb {

struct StrippedSpec {
    QByteArray yaml;        // sweep.yaml without api_key values (and with sensitive header values masked)
    QStringList secrets;    // api_key values, sensitive header values, and values of api_key_env variables
    QStringList warnings;   // e.g. "sweep.yaml did not parse; stripped structurally"
    // api_key_env variables the spec names that are unset or empty now: the key the run used
    // cannot be known, so an export cannot check for it.
    QStringList unsetKeyVariables;
};

// Re-parses sweep.yaml: with the spec loader when it loads (saveSpecYaml(Strip)), else by walking
// the YAML tree and dropping every `api_key` mapping entry. Secrets are collected either way.
StrippedSpec stripSpecYaml(const QByteArray &yaml);

// Secrets that can be collected from a spec text without writing anything (used for extra specs,
// e.g. the original sweep the user ran, passed to `export --spec`).
QStringList secretsInSpec(const QByteArray &yaml);

// Replaces every occurrence of each secret, in every form SecretSet finds (spec/SecretMatcher.h:
// raw, escaped, base64, zero-width split, any case, '-'/'_' swapped), with "[redacted]". Returns
// the number of replacements. Secrets shorter than kMinSecretLength are skipped (a text search
// for them would mangle ordinary content).
int redactSecrets(QByteArray *data, const QStringList &secrets);
// True when any form of any secret occurs in data: the final check before writing, with the same
// matcher as redactSecrets.
bool containsSecret(const QByteArray &data, const QStringList &secrets);

} // namespace sb
