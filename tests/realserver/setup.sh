#!/usr/bin/env bash
# Installs both real servers for the integration tests (cached: quick the second time) and prints
# the environment the tests read, e.g.  eval "$(bash tests/realserver/setup.sh)"
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
t0=$(date +%s); bash "$HERE/build-llama.sh"; t1=$(date +%s)
bash "$HERE/install-vllm.sh"; t2=$(date +%s)
echo "[realserver] setup: llama.cpp $((t1 - t0)) s, vLLM $((t2 - t1)) s" >&2
