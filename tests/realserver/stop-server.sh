#!/usr/bin/env bash
# Stops a server started with start-*.sh --daemon: its whole session (vLLM runs an engine process
# beside its API server). usage: stop-server.sh PID
set -euo pipefail
PID=${1:?usage: stop-server.sh PID}
kill -TERM -- "-$PID" 2>/dev/null || { echo "no process group $PID" >&2; exit 0; }
for _ in $(seq 1 40); do
  kill -0 -- "-$PID" 2>/dev/null || exit 0
  sleep 0.5
done
echo "process group $PID did not stop within 20 s: killing it" >&2
kill -KILL -- "-$PID" 2>/dev/null || true
