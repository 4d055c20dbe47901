#!/usr/bin/env bash
# Builds SweepBench with warnings as errors and runs every test (the README's test command).
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
if [ "${SWEEPBENCH_SKIP_PACKAGE:-0}" != 1 ] && [ "$(id -u)" = 0 ]; then
  (cd "$BUILD" && cpack -G DEB >/dev/null)
  apt-get install -y -qq "./$BUILD"/sweepbench_*_amd64.deb >/dev/null
  /usr/bin/sweepbench --version
  env -u DISPLAY -u WAYLAND_DISPLAY /usr/bin/sweepbench demo --out "$(mktemp -d)"
fi
