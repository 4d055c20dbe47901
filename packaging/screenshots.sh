#!/bin/bash
# Regenerates the README's pictures (docs/screenshots/): the demo sweep's results in the light and
# dark palettes at 1600x1000 and 1024x700, the Pareto view, and the designer in both. Runs the
# headless demo once, then screenshots the result set on disk (`--screenshot` without a run).
# Usage: packaging/screenshots.sh [SWEEPBENCH_BINARY] [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/ci/app/sweepbench}
out=${2:-docs/screenshots}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
export QT_QPA_PLATFORM=offscreen
"$bin" demo --out "$tmp/demo" >/dev/null
for theme in light dark; do
    for size in 1600x1000 1024x700; do
        "$bin" "$tmp/demo" --screenshot "$out/results-$theme-$size.png" --theme "$theme" --size "$size"
    done
done
# The Pareto frontier in Results and, with the set put in Compare, there.
"$bin" "$tmp/demo" --chart pareto --screenshot "$out/results-pareto-light-1600x1000.png" --size 1600x1000
"$bin" --compare "$tmp/demo" --tab compare --chart pareto --screenshot "$out/compare-pareto-dark-1024x700.png" --theme dark --size 1024x700
"$bin" resources/demo.yaml --tab design --screenshot "$out/design-light-1024x700.png" --size 1024x700
"$bin" resources/demo.yaml --tab design --screenshot "$out/design-dark-1600x1000.png" --theme dark --size 1600x1000
