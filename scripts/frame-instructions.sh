#!/bin/sh
# Instructions per pixel of whole frames, counted by callgrind (exact where wall time is noisy).
# Usage: scripts/frame-instructions.sh [FRAMES] [SIZE] [LOADER...]   (defaults: 200 64x32, every loader)
# Builds Benchmarks' FrameCost in release, runs it under callgrind with FRAMES frames and with 0,
# and prints (difference) / (FRAMES × pixels): set-up and process start-up cancel out.
set -eu
frames=${1:-200}; size=${2:-64x32}
[ $# -ge 2 ] && shift 2 || shift $#
loaders=${*:-"linkedin pagedots quizup shimmer worm skeleton bar"}
cd "$(dirname "$0")/../Benchmarks"
swift build -c release --product FrameCost >/dev/null || { echo "building FrameCost failed" >&2; exit 1; }
bin=$(swift build -c release --show-bin-path)/FrameCost
pixels=$(echo "$size" | awk -Fx '{print $1 * $2}')
count() {
    out=$(mktemp)
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$size" "$2" 2>"$out" >/dev/null
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out"; rm -f "$out"
}
for loader in $loaders; do
    base=$(count "$loader" 0); total=$(count "$loader" "$frames")
    echo "$loader $size: $(( (total - base) / frames )) instructions/frame, $(awk "BEGIN { printf \"%.1f\", ($total - $base) / $frames / $pixels }") per pixel"
done
