#!/usr/bin/env bash
# Open-loop schedule benchmark: how late the client sends against its schedule at
# 2, 8, 32 and 1,000 req/s. Not a test: prints one JSON line per rate. The mock server runs as
# its own process pinned to the last CPU and the client on the others, so the lag measured is
# the client's, not the mock's competition for the same cores. Run it on an otherwise idle
# machine: a build beside it makes the client wait for a CPU, and that shows as lag
# (client_wait_max says how much).
#
#   bash tests/bench/run-openloop-bench.sh [BUILD_DIR]      # default build/ci
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${1:-$ROOT/build/ci}
cpus=$(nproc)
last=$((cpus - 1))
client="0-$((last > 0 ? last - 1 : 0))"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
taskset -c "$last" "$BUILD/app/sweepbench" mock-server --port "$port" --step-base-ms 5 --step-per-seq-ms 0 \
    --prefill-per-token-ms 0.001 --max-batch 4096 >/dev/null 2>&1 &
mock=$!
trap 'kill $mock 2>/dev/null || true' EXIT
for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break; sleep 0.1; done
taskset -c "$client" "$BUILD/tests/bench/sweepbench-openloopbench" --url "http://127.0.0.1:$port" "${@:2}"
