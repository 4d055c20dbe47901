#!/usr/bin/env bash
# Regenerates the committed hicolor PNGs from the SVG sources (needs rsvg-convert: apt-get install librsvg2-bin).
# 16 and 24 px come from grid-tuned SVGs; every other size from the main SVG. Run after editing an SVG and commit the PNGs.
set -euo pipefail
cd "$(dirname "$0")"
ID=io.github.sweepbench.SweepBench
for size in 16 24 32 48 64 128 256; do
  src=$ID.svg
  [ -f "$ID-$size.svg" ] && src=$ID-$size.svg
  mkdir -p hicolor/${size}x${size}/apps
  rsvg-convert -w "$size" -h "$size" "$src" -o hicolor/${size}x${size}/apps/$ID.png
done
