#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) in build/fuzz and runs each for SECONDS
# (default 30), starting from the checked-in seeds in tests/fuzz/corpus/<target>/. Exits non-zero
# when any target crashes, leaks, times out on one input or trips a sanitizer; the input that did
# it is left in build/fuzz/artifacts/<target>/ (see tests/fuzz/README.md).
#   tests/fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_EACH=${1:-30}
shift || true
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
  TARGETS=(fuzz_http_response fuzz_sse_chunk fuzz_spec fuzz_results fuzz_aiperf fuzz_vllm fuzz_prometheus fuzz_calibration fuzz_job_render fuzz_trace
           fuzz_guidellm fuzz_inference_perf fuzz_genai_bench fuzz_sglang)
fi
BUILD=${FUZZ_BUILD_DIR:-build/fuzz}
if ! command -v clang++ >/dev/null; then
  echo "tests/fuzz/run.sh: clang++ not found (packaging/install-deps.sh installs clang and libclang-rt-14-dev)" >&2
  exit 2
fi
if [ "${FUZZ_SKIP_BUILD:-0}" != 1 ]; then
# Line tables only: a crash report names file and line, and the build is faster than with -g.
# No precompiled headers here: clang records the mtime of every header in one (CMake regenerates
# its cmake_pch.hxx at each configure), so one that ccache restores into a fresh build folder is
# refused.
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" -DSWEEPBENCH_PCH=OFF \
      -DSWEEPBENCH_FUZZ=ON -DSWEEPBENCH_BUILD_GUI=OFF -DSWEEPBENCH_BUILD_TESTS=OFF -DSWEEPBENCH_WERROR=ON \
      -DCMAKE_CXX_COMPILER_LAUNCHER="$(command -v ccache || true)" >/dev/null
cmake --build "$BUILD" -j"$(nproc)" --target "${TARGETS[@]}"
fi
failed=()
for t in "${TARGETS[@]}"; do
  # New inputs the fuzzer finds go to a scratch corpus beside the build, never into the seeds.
  work="$BUILD/corpus/$t"
  artifacts="$BUILD/artifacts/$t"
  mkdir -p "$work" "$artifacts"
  echo "== $t: ${SECONDS_EACH}s"
  # -rss_limit_mb: every hostile input must stay bounded, so growth is a failure too.
  # -timeout: one input taking over 30 s is a hang (slow units run ~0.3 s here; a loaded box is
  # slower, and a real hang never ends).
  if ! ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 \
       "$BUILD/tests/fuzz/$t" -max_total_time="$SECONDS_EACH" -timeout=30 -rss_limit_mb=2048 \
       -max_len=65536 -print_final_stats=1 -artifact_prefix="$artifacts/" \
       "$work" "tests/fuzz/corpus/$t" > "$BUILD/$t.log" 2>&1; then
    failed+=("$t")
    tail -n 60 "$BUILD/$t.log"
    echo "!! $t failed; reproduce with: $BUILD/tests/fuzz/$t $artifacts/<crash-file>"
  else
    grep -E "^stat::number_of_executed_units|^stat::new_units_added|^stat::peak_rss_mb" "$BUILD/$t.log" | tr '\n' ' '
    echo
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing failed: ${failed[*]}" >&2
  exit 1
fi
echo "fuzzing: ${#TARGETS[@]} targets, ${SECONDS_EACH}s each, no crash"
