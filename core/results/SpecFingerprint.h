#pragma once
// What a results folder was measured with: the spec settings that change measurements, stored
// in results.json as "spec_fingerprint", so `run --resume` never mixes cells measured under
// different settings (README "Reliability").
//
// Covered: each server's urls, mock, model, endpoint, flavor, non-credential headers and hook
// settings (keyed by server name, which is how resumed cells are matched), and the whole
// workload including SLOs, plus the dataset file's sha256 when the workload reads one (the spec
// names only its path; a changed file at the same path must not resume). Not covered: the sweep's name and description, the concurrency list
// and on_hook_failure (they pick which cells run, not what a cell measures), and secrets
// (api_key, api_key_env, credential headers never enter it).
#include "results/SweepFacts.h"
#include "spec/SweepSpec.h"
#include <QStringList>

namespace sb {

// {"sha256": HEX, "workload": {flat key: value}, "servers": {name: {flat key: value}}} in JSON.
// Derived from the secret-stripped YAML the spec writer produces, so every key the writer knows
// is covered without a second list to keep in step.
// `datasetSha256`: the workload dataset's file hash (Dataset::sha256), empty when none.
SpecFingerprint specFingerprint(const SweepSpec &spec, const QString &datasetSha256 = QString());

// Differences that matter for a resume: workload keys, and the keys of servers present in both
// (a server added or removed changes no kept cell). One line each, e.g.
// "workload.input_tokens: 16 -> 1024". `stored` empty (a results.json written before
// fingerprints existed) gives one line saying the settings cannot be compared.
QStringList fingerprintDifferences(const SpecFingerprint &stored, const SpecFingerprint &current);

// The workload alone (what `sweepbench diff` requires to match: servers may differ, that is what
// it compares): one line per differing key, "workload.input_tokens: 16 -> 1024". Empty when the
// workloads are the same; both fingerprints must carry a workload (hasWorkload).
QStringList workloadDifferences(const SpecFingerprint &a, const SpecFingerprint &b);
bool hasWorkload(const SpecFingerprint &fingerprint);

} // namespace sb
