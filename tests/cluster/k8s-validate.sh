#!/bin/bash
# The Kubernetes manifests `sweepbench cluster k8s` renders, validated against the Kubernetes
# schemas (kubernetes-validate from PyPI, strict: unknown fields are errors), and the Slurm
# scripts checked by bash -n. A planted error must fail the validator, so a validator that
# accepts anything fails this test. Exit 77 (skipped) without the validator unless
# SWEEPBENCH_REQUIRE_K8S_VALIDATE=1; packaging/test.sh installs it (setup-validator.sh).
set -euo pipefail
bin=${1:?usage: k8s-validate.sh SWEEPBENCH_BINARY}
validate=${KUBERNETES_VALIDATE:-$HOME/.cache/sweepbench/k8s-validate-venv/bin/kubernetes-validate}
work=$(mktemp -d /tmp/sweepbench-k8s.XXXXXX)
trap 'rm -rf "$work"' EXIT
cat > "$work/sweep.yaml" <<YAML
name: K8s Check
servers:
  - {name: a, url: "http://10.0.0.1:8000", model: m, api_key_env: A_KEY}
  - {name: b, url: "http://10.0.0.2:8000", model: m}
workload: {input_tokens: 64, output_tokens: 16, requests_per_cell: 32}
sweep: {concurrency: [1, 8]}
YAML
export QT_QPA_PLATFORM=offscreen
"$bin" cluster slurm "$work/sweep.yaml" --shards 2 --out "$work/out" --partition gpu --time 01:00:00 >/dev/null
for f in shard.sbatch merge.sbatch submit.sh; do bash -n "$work/out/slurm/$f"; done
echo "ok: slurm scripts parse (bash -n)"
"$bin" cluster k8s "$work/sweep.yaml" --shards 2 --jobs-dir "$work/k8s" --image registry.example/sweepbench:0.1 >/dev/null
bash -n "$work/k8s/apply.sh"
if [ ! -x "$validate" ]; then
    echo "kubernetes-validate not installed (tests/cluster/setup-validator.sh)"
    [ "${SWEEPBENCH_REQUIRE_K8S_VALIDATE:-0}" = 1 ] && exit 1 || exit 77
fi
"$validate" --strict --quiet "$work/k8s/shards-job.yaml" "$work/k8s/merge-job.yaml"
echo "ok: manifests validate (strict)"
sed 's/completionMode: Indexed/completionMode: Indexed\n  bogusField: 1/' "$work/k8s/shards-job.yaml" > "$work/planted.yaml"
if "$validate" --strict --quiet "$work/planted.yaml" >/dev/null 2>&1; then
    echo "FAIL: the validator accepted a manifest with an unknown field"; exit 1
fi
echo "ok: a planted unknown field is rejected"
