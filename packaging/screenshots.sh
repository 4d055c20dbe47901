#!/bin/bash
# Regenerates the README's pictures (docs/screenshots/): every pane (Design, Run, Results, the
# selected cell's Trace tab, Compare, the Pareto view) at 1024x700 and 1600x1000, the results also in
# both palettes at both sizes. Runs the headless demo twice (Compare needs two sets), then
# screenshots the sets on disk (`--screenshot` without a run); the Run tab is pictured after a GUI
# demo run. WALK=1 pictures every pane in both palettes at both sizes (for a review walk; the README
# shows a subset).
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
"$bin" demo --out "$tmp/demo-again" >/dev/null

shot() { # PANE THEME SIZE
    local pane=$1 theme=$2 size=$3 file="$out/$1-$2-$3.png"
    case $pane in
        design) "$bin" resources/demo.yaml --tab design --screenshot "$file" --theme "$theme" --size "$size" ;;
        run) "$bin" --demo --tab run --screenshot "$file" --theme "$theme" --size "$size" >/dev/null ;;
        results) "$bin" "$tmp/demo" --screenshot "$file" --theme "$theme" --size "$size" ;;
        trace) "$bin" "$tmp/demo" --tab trace --screenshot "$file" --theme "$theme" --size "$size" ;;
        compare) "$bin" --compare "$tmp/demo" --compare "$tmp/demo-again" --tab compare --screenshot "$file" --theme "$theme" --size "$size" ;;
        results-pareto) "$bin" "$tmp/demo" --chart pareto --screenshot "$file" --theme "$theme" --size "$size" ;;
        compare-pareto) "$bin" --compare "$tmp/demo" --compare "$tmp/demo-again" --tab compare --chart pareto --screenshot "$file" --theme "$theme" --size "$size" ;;
    esac
}

panes=(design run results trace compare results-pareto compare-pareto)
if [ "${WALK:-0}" = 1 ]; then
    for pane in "${panes[@]}"; do
        for theme in light dark; do
            for size in 1024x700 1600x1000; do shot "$pane" "$theme" "$size"; done
        done
    done
    exit 0
fi
# The README's set: each pane at both sizes, the small screen in the dark palette; the results
# in both palettes at both sizes.
for pane in "${panes[@]}"; do
    shot "$pane" dark 1024x700
    shot "$pane" light 1600x1000
done
shot results light 1024x700
shot results dark 1600x1000
