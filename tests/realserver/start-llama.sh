#!/usr/bin/env bash
# Starts the llama-server built by build-llama.sh with the tiny model.
# usage: start-llama.sh [--check] [--daemon LOG] [--no-slot-save-path] PORT [more llama-server flags]
#   --check               only say whether it is installed (exit 0) or not (exit 3)
#   --daemon LOG          run in the background in its own session, wait for /health, print PID=...
#                         (stop it with stop-server.sh PID); default: run in the foreground
#   --no-slot-save-path   start without --slot-save-path: every POST /slots/N?action=... is then 501
# Flags and why:
#   --parallel 8        eight slots with continuous batching; a ninth request waits for a free slot
#   -c 16384            shared by the slots: 2048 tokens each
#   -t 1                one compute thread: steadier on a 2-core machine shared with the client
#   --metrics --slots   Prometheus text at /metrics, GET /slots
#   --slot-save-path    needed for any slot action, erase (our llamacpp reset) included
#   --cache-ram 0       no host-RAM prompt cache: with it, erasing every slot still leaves cached
#                       prefixes that come back (cache_n > 0 after a reset)
set -euo pipefail
. "$(dirname "$0")/common.sh"
CHECK=0 DAEMON="" SLOT_SAVE=1
while [ $# -gt 0 ]; do
  case $1 in
    --check) CHECK=1; shift ;;
    --daemon) DAEMON=${2:?--daemon needs a log file}; shift 2 ;;
    --no-slot-save-path) SLOT_SAVE=0; shift ;;
    *) break ;;
  esac
done
if [ ! -x "$LLAMA_SERVER" ] || [ ! -s "$LLAMA_MODEL" ]; then
  echo "llama-server is not installed ($LLAMA_SERVER, $LLAMA_MODEL): run tests/realserver/build-llama.sh" >&2
  exit 3
fi
[ "$CHECK" = 1 ] && { echo "llama-server: $LLAMA_SERVER model: $LLAMA_MODEL"; exit 0; }
PORT=${1:?usage: start-llama.sh [--check] [--daemon LOG] [--no-slot-save-path] PORT [flags]}; shift
ARGS=(-m "$LLAMA_MODEL" --alias tiny --host 127.0.0.1 --port "$PORT" --parallel 8 -c 16384 -t 1
      --metrics --slots --cache-ram 0)
if [ "$SLOT_SAVE" = 1 ]; then
  # Only an explicit save action writes here (erase does not): one folder in the cache serves all.
  mkdir -p "$LLAMA_DIR/slots"
  ARGS+=(--slot-save-path "$LLAMA_DIR/slots")
fi
run_server "$DAEMON" "$PORT" "$LLAMA_SERVER" "${ARGS[@]}" "$@"
