#!/usr/bin/env bash
# Starts vLLM (installed by install-vllm.sh) on the tiny model, with its real control routes.
# usage: start-vllm.sh [--check] [--daemon LOG] PORT TRACE_DIR [more `vllm serve` flags]
#   --check       only say whether it is installed (exit 0) or not (exit 3)
#   --daemon LOG  run in the background in its own session, wait for /health, print PID=...
#                 (stop it with stop-server.sh PID); default: run in the foreground
# Settings and why:
#   VLLM_SERVER_DEV_MODE=1     serves /reset_prefix_cache (404 without it)
#   --profiler-config          torch profiler writing to TRACE_DIR: /start_profile and /stop_profile
#   --enable-prefix-caching    so a reset has something to clear (vllm:prefix_cache_hits_total shows it)
#   --enforce-eager            no graph capture: starts faster on CPU
#   VLLM_CPU_KVCACHE_SPACE=2   GiB of KV cache; offline: nothing is fetched from the Hub
set -euo pipefail
. "$(dirname "$0")/common.sh"
CHECK=0 DAEMON=""
while [ $# -gt 0 ]; do
  case $1 in
    --check) CHECK=1; shift ;;
    --daemon) DAEMON=${2:?--daemon needs a log file}; shift 2 ;;
    *) break ;;
  esac
done
if [ ! -x "$VLLM_PYTHON" ] || [ ! -f "$VLLM_MODEL/config.json" ] || [ ! -f "$VLLM_DIR/installed-$VLLM_VERSION" ]; then
  echo "vLLM is not installed ($VLLM_PYTHON, $VLLM_MODEL): run tests/realserver/install-vllm.sh" >&2
  exit 3
fi
[ "$CHECK" = 1 ] && { echo "vLLM python: $VLLM_PYTHON model: $VLLM_MODEL"; exit 0; }
PORT=${1:?usage: start-vllm.sh [--check] [--daemon LOG] PORT TRACE_DIR [flags]}
TRACE_DIR=${2:?usage: start-vllm.sh [--check] [--daemon LOG] PORT TRACE_DIR [flags]}; shift 2
mkdir -p "$TRACE_DIR" "$VLLM_DIR/runtime-cache"
TRACE_DIR=$(cd "$TRACE_DIR" && pwd)
export VLLM_SERVER_DEV_MODE=1 VLLM_CPU_KVCACHE_SPACE=2 VLLM_TARGET_DEVICE=cpu
export VLLM_CACHE_ROOT="$VLLM_DIR/runtime-cache"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 VLLM_NO_USAGE_STATS=1 DO_NOT_TRACK=1
run_server "$DAEMON" "$PORT" "$(dirname "$VLLM_PYTHON")/vllm" serve "$VLLM_MODEL" --served-model-name tiny \
  --host 127.0.0.1 --port "$PORT" --max-model-len 2048 --enforce-eager --dtype bfloat16 --enable-prefix-caching \
  --profiler-config "{\"profiler\":\"torch\",\"torch_profiler_dir\":\"$TRACE_DIR\"}" "$@"
