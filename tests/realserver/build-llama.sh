#!/usr/bin/env bash
# Builds llama.cpp's `llama-server` (CPU only, static, no web UI / curl / OpenSSL) and a tiny
# random-weight GGUF model for the real-server tests. Idempotent: when both exist it only prints
# where they are. Output (last lines, eval-able):
#   export SWEEPBENCH_LLAMA_SERVER=.../bin/llama-server
#   export SWEEPBENCH_LLAMA_MODEL=.../bin/tiny-llama.gguf
# Source: the llama.cpp tree vendored in the llama-cpp-python sdist on PyPI, so the only download
# is one sdist (plus the gguf/numpy wheels for the model writer). ~10 min at nice 19 on 2 cores.
set -euo pipefail
. "$(dirname "$0")/common.sh"
SERVER="$LLAMA_DIR/bin/llama-server"
MODEL="$LLAMA_DIR/bin/tiny-llama.gguf"
mkdir -p "$LLAMA_DIR"
cd "$LLAMA_DIR"
if [ ! -x "$SERVER" ] || [ ! -s "$MODEL" ]; then
  SRC="$LLAMA_DIR/src/vendor/llama.cpp"
  # A venv of our own: pip for the download (Debian's system pip is externally managed) and the
  # gguf/numpy the model writer needs.
  [ -x venv/bin/python ] || python3 -m venv venv
  if [ ! -f "$SRC/CMakeLists.txt" ]; then
    log "downloading the llama-cpp-python $LLAMA_CPP_PYTHON_VERSION sdist into $LLAMA_DIR/dl"
    rm -rf dl src && mkdir -p dl src
    venv/bin/python -m pip download -q --no-deps --no-binary llama-cpp-python \
      "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" -d dl
    tar xzf dl/llama_cpp_python-*.tar.gz -C src --strip-components=1
  fi
  if [ ! -x "$SERVER" ]; then
    log "building llama-server (log: $LLAMA_DIR/build.log)"
    start=$(date +%s)
    # No web UI: its prebuilt assets would be downloaded. Static libraries: the binary stands alone.
    # No ccache: the shared compiler cache is for the project's own objects.
    cmake -S "$SRC" -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
      -DGGML_NATIVE=ON -DGGML_CCACHE=OFF -DLLAMA_BUILD_SERVER=ON -DLLAMA_CURL=OFF \
      -DLLAMA_OPENSSL=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_BUILD_UI=OFF \
      -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF >build.log 2>&1 \
      || { tail -30 build.log >&2; exit 1; }
    $NICE cmake --build build -j"$(nproc)" --target llama-server >>build.log 2>&1 \
      || { tail -30 build.log >&2; exit 1; }
    mkdir -p bin && cp build/bin/llama-server "$SERVER.tmp" && mv "$SERVER.tmp" "$SERVER"
    log "llama-server built in $(( $(date +%s) - start )) s"
  fi
  if [ ! -s "$MODEL" ]; then
    venv/bin/python -m pip install -q -c "$REALSERVER_SCRIPTS/llama-constraints.txt" gguf numpy
    mkdir -p bin
    venv/bin/python "$REALSERVER_SCRIPTS/make_tiny_gguf.py" "$MODEL.tmp" \
      "$SRC/models/ggml-vocab-llama-spm.gguf"
    mv "$MODEL.tmp" "$MODEL"
  fi
fi
log "llama-server: $SERVER ($("$SERVER" --version 2>&1 | grep -m1 -i version || true))"
echo "export SWEEPBENCH_LLAMA_SERVER=$SERVER"
echo "export SWEEPBENCH_LLAMA_MODEL=$MODEL"
