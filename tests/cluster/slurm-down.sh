#!/bin/bash
# Stops what slurm-up.sh started (jobs first, so no slurmstepd is left behind). Safe to repeat.
set -u
dir=${SB_SLURM_DIR:-/tmp/sweepbench-slurm}
if [ -s "$dir/slurmctld.pid" ] && command -v scancel >/dev/null; then
    scancel --quiet $(squeue -h -o %A 2>/dev/null | sort -u) 2>/dev/null || true
    for _ in $(seq 50); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
fi
for d in slurmd slurmctld munged; do
    [ -s "$dir/$d.pid" ] || continue
    pid=$(cat "$dir/$d.pid")
    if [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$d" ]; then
        kill "$pid"
        for _ in $(seq 100); do [ -e "/proc/$pid" ] || break; sleep 0.1; done
        [ -e "/proc/$pid" ] && kill -9 "$pid"
    fi
    rm -f "$dir/$d.pid"
done
exit 0
