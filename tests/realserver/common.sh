# Sourced by the real-server scripts: one place for the cache root and the pinned versions.
# Everything lives under $SWEEPBENCH_CACHE (default ~/.cache/sweepbench) so a second run is quick.
SWEEPBENCH_CACHE=${SWEEPBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sweepbench}
# llama.cpp comes from the tree vendored in this llama-cpp-python sdist (PyPI; nothing else is fetched).
LLAMA_CPP_PYTHON_VERSION=${LLAMA_CPP_PYTHON_VERSION:-0.3.36}
LLAMA_DIR=${SWEEPBENCH_LLAMA_DIR:-$SWEEPBENCH_CACHE/llama-$LLAMA_CPP_PYTHON_VERSION}
VLLM_VERSION=0.32.0
VLLM_DIR=${SWEEPBENCH_VLLM_DIR:-$SWEEPBENCH_CACHE/vllm-$VLLM_VERSION}
REALSERVER_SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Heavy steps yield the cores to anything else running (other builds, the test suite).
NICE="nice -n 19"
log() { printf '[realserver] %s\n' "$*" >&2; }

# Where the installed pieces are: the SWEEPBENCH_* variables when set, else the cache defaults.
LLAMA_SERVER=${SWEEPBENCH_LLAMA_SERVER:-$LLAMA_DIR/bin/llama-server}
LLAMA_MODEL=${SWEEPBENCH_LLAMA_MODEL:-$LLAMA_DIR/bin/tiny-llama.gguf}
VLLM_PYTHON=${SWEEPBENCH_VLLM_PYTHON:-$VLLM_DIR/venv/bin/python}
VLLM_MODEL=${SWEEPBENCH_VLLM_MODEL:-$VLLM_DIR/tiny-llama}

# run_server DAEMON_LOG PORT CMD...: in the foreground (exec) when DAEMON_LOG is empty; otherwise in
# its own session (so stop-server.sh can end its whole process tree), logging to DAEMON_LOG, and
# returns once /health answers 200 (or fails when the server exits first).
run_server() {
  local logfile=$1 port=$2; shift 2
  if [ -z "$logfile" ]; then exec "$@"; fi
  setsid "$@" >"$logfile" 2>&1 < /dev/null &
  local pid=$!
  for _ in $(seq 1 600); do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -20 "$logfile" >&2; log "the server exited before /health answered (log: $logfile)"; return 1
    fi
    if python3 -c 'import sys, urllib.request as u; u.urlopen(sys.argv[1], timeout=2)' \
        "http://127.0.0.1:$port/health" 2>/dev/null; then
      echo "PID=$pid URL=http://127.0.0.1:$port LOG=$logfile"; return 0
    fi
    sleep 0.5
  done
  log "no /health after 300 s (log: $logfile)"; return 1
}
