#!/bin/bash
# A sharded sweep through a real Slurm: `sweepbench cluster slurm --submit` renders and submits a
# 2-task job array plus the afterok merge job; the merged set must equal an unsharded run of
# the same spec (cells, statuses, request counts). Needs a running cluster (slurm-up.sh).
# Exit 77 (ctest: skipped) when there is none, unless SWEEPBENCH_REQUIRE_SLURM=1.
set -euo pipefail
bin=${1:?usage: slurm-e2e.sh SWEEPBENCH_BINARY}
if ! command -v sbatch >/dev/null || ! sinfo -h >/dev/null 2>&1; then
    echo "no Slurm cluster answers (start one with tests/cluster/slurm-up.sh)"
    [ "${SWEEPBENCH_REQUIRE_SLURM:-0}" = 1 ] && exit 1 || exit 77
fi
work=$(mktemp -d /tmp/sweepbench-slurm-e2e.XXXXXX)
trap 'rm -rf "$work"' EXIT
cat > "$work/sweep.yaml" <<YAML
name: slurm e2e
servers:
  - name: vllm-a
    mock: vllm
  - name: sglang-b
    mock: sglang
workload: {input_tokens: 16, output_tokens: 8, requests_per_cell: 24, calibrate_prompts: false}
sweep: {concurrency: [1, 4]}
YAML
export QT_QPA_PLATFORM=offscreen
"$bin" cluster slurm "$work/sweep.yaml" --shards 2 --cpus 1 --out "$work/out" --sweepbench "$bin" --job-name sb-e2e --submit
# The merge job leaves merged/results.json behind; the queue empties when both jobs ended.
for _ in $(seq 600); do
    [ -z "$(squeue -h -n sb-e2e-shard,sb-e2e-merge 2>/dev/null)" ] && break
    sleep 0.5
done
for log in "$work"/out/slurm-*.log; do echo "== $log"; tail -3 "$log"; done
[ -s "$work/out/merged/results.json" ] || { echo "FAIL: no merged results.json"; exit 1; }
"$bin" run "$work/sweep.yaml" --out "$work/whole" >/dev/null 2>&1
python3 - "$work/out/merged/results.json" "$work/whole/results.json" "$work/out" <<'PY'
import json, os, sys
merged, whole = (json.load(open(p)) for p in sys.argv[1:3])
out = sys.argv[3]
assert "shard" not in merged and len(merged.get("merged_from", [])) == 2, merged.get("merged_from")
mc, wc = merged["cells"], whole["cells"]
assert len(mc) == len(wc) == 4, (len(mc), len(wc))
for m, w in zip(mc, wc):
    for key in ("server", "concurrency", "status", "records"):
        assert m.get(key) == w.get(key), (key, m.get(key), w.get(key))
    assert m["requests"]["completed"] == w["requests"]["completed"] == 24, m["requests"]
    assert m["requests"]["failed"] == w["requests"]["failed"] == 0, m["requests"]
    lines = open(os.path.join(out, "merged", m["records"])).read().count("\n")
    assert lines == 24, (m["records"], lines)
shards = sorted(os.listdir(out))
assert "shard-0" in shards and "shard-1" in shards, shards
print("ok: merged set of 2 Slurm shards equals the unsharded run (4 cells, 24 requests each)")
PY
