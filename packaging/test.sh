#!/usr/bin/env bash
# Builds SweepBench with warnings as errors and runs every test (the README's test command),
# then the deterministic suites again under AddressSanitizer + UBSan, then each fuzz target for a
# bounded time.
# Then builds the .deb, installs it and runs the installed binary's --version and headless demo.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD_DIR:-build/ci}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSWEEPBENCH_WERROR=ON \
      -DCMAKE_CXX_COMPILER_LAUNCHER="$(command -v ccache || true)"
cmake --build "$BUILD" -j"$(nproc)"
# Timing-sensitive engine tests run alone; everything else in parallel.
(cd "$BUILD" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j"$(nproc)" -LE serial)
(cd "$BUILD" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -L serial)
# The deterministic suites once more under AddressSanitizer + UBSan: they caught a read of a
# destroyed yaml-cpp temporary that the optimised build ran through silently. (The timing
# suites stay out: sanitizers slow the mock's clock. SWEEPBENCH_SKIP_SANITIZERS=1 skips this.)
if [ "${SWEEPBENCH_SKIP_SANITIZERS:-0}" != 1 ]; then
  SAN=${SANITIZER_BUILD_DIR:-build/ci-asan}
  FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer"
  cmake -S . -B "$SAN" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS="$FLAGS" \
        -DCMAKE_EXE_LINKER_FLAGS="$FLAGS" -DCMAKE_SHARED_LINKER_FLAGS="$FLAGS" \
        -DCMAKE_CXX_COMPILER_LAUNCHER="$(command -v ccache || true)"
  cmake --build "$SAN" -j"$(nproc)"
  (cd "$SAN" && QT_QPA_PLATFORM=offscreen ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
       ctest --output-on-failure -j"$(nproc)" -LE serial)
fi
# Every parser of untrusted bytes (HTTP responses, SSE, specs, results, imports) under libFuzzer
# with ASan + UBSan for a bounded time per target; any crash fails the run (tests/fuzz/README.md).
if [ "${SWEEPBENCH_SKIP_FUZZ:-0}" != 1 ]; then
  bash tests/fuzz/run.sh "${SWEEPBENCH_FUZZ_SECONDS:-30}"
fi
if [ "${SWEEPBENCH_SKIP_PACKAGE:-0}" != 1 ] && [ "$(id -u)" = 0 ]; then
  (cd "$BUILD" && cpack -G DEB >/dev/null)
  apt-get install -y -qq "./$BUILD"/sweepbench_*_amd64.deb >/dev/null
  /usr/bin/sweepbench --version
  env -u DISPLAY -u WAYLAND_DISPLAY /usr/bin/sweepbench demo --out "$(mktemp -d)"
fi
