#!/bin/sh
# loaderd's renderer beside cairo for the same LinkedIn frame (docs/PERFORMANCE.md, "Peers").
# Usage: scripts/peer-cairo.sh [FRAMES] [SIZE...]   (defaults: 100 frames; 64x8 480x64)
# Builds Benchmarks/Peers/cairo-linkedin.c (needs Debian's libcairo2-dev) and Benchmarks'
# FrameCost (release), counts each one's instructions per frame with callgrind (FRAMES frames
# minus 0 frames, so start-up and set-up cancel out), then times 20 x FRAMES frames of each
# without valgrind (CLOCK_MONOTONIC inside the programs; noisy on a shared machine).
set -eu
frames=${1:-100}
[ $# -ge 1 ] && shift
sizes=${*:-"64x8 480x64"}
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/Benchmarks"
pkg-config --exists cairo || { echo "cairo not found: apt-get install libcairo2-dev" >&2; exit 1; }
mkdir -p .build/peers
cc -O2 -o .build/peers/cairo-linkedin Peers/cairo-linkedin.c $(pkg-config --cflags --libs cairo) -lm
. Peers/measure.sh
cairo=.build/peers/cairo-linkedin
printf '%-8s %14s %14s %7s %12s %12s %7s\n' size "loaderd instr" "cairo instr" ratio "loaderd ns" "cairo ns" ratio
for size in $sizes; do
    a=$(per_frame "$ours" linkedin "$size"); b=$(per_frame "$cairo" "$size")
    ta=$(ns "$ours" linkedin "$size"); tb=$(ns "$cairo" "$size")
    printf '%-8s %14s %14s %6.1fx %12s %12s %6.1fx\n' "$size" "$a" "$b" "$(awk "BEGIN { print $b / $a }")" \
        "$ta" "$tb" "$(awk "BEGIN { print $tb / $ta }")"
done
