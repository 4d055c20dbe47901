#!/usr/bin/env bash
# The newcomer's main job: install dependencies, build, and run the demo sweep against three
# embedded mock servers — in the GUI when there is a display, as a headless summary otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
BUILD=${BUILD_DIR:-build/demo}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWEEPBENCH_BUILD_TESTS=OFF \
      -DCMAKE_CXX_COMPILER_LAUNCHER="$(command -v ccache || true)" >/dev/null
cmake --build "$BUILD" -j"$(nproc)" --target sweepbench
exec "$BUILD/app/sweepbench" --demo "$@"
