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
swift build -c release --product FrameCost >/dev/null || { echo "building FrameCost failed" >&2; exit 1; }
# Without debug information, as scripts/frame-instructions.sh: valgrind 3.19 cannot read Swift
# 6.3's DWARF 5.
ours=$(mktemp); trap 'rm -f "$ours"' EXIT
objcopy --strip-debug "$(swift build -c release --show-bin-path)/FrameCost" "$ours"
cairo=.build/peers/cairo-linkedin
count() {  # PROGRAM ARGS... -> instructions collected
    out=$(mktemp)
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>"$out" >/dev/null || true
    n=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out")
    [ -n "$n" ] || { echo "callgrind failed on $*:" >&2; tail -5 "$out" >&2; rm -f "$out"; exit 2; }
    rm -f "$out"; echo "$n"
}
per_frame() {  # PROGRAM ARGS-BEFORE-FRAMES... -> instructions per frame
    base=$(count "$@" 0); total=$(count "$@" "$frames")
    echo $(( (total - base) / frames ))
}
ns() { "$@" $((frames * 20)) | sed -n 's/.* \([0-9]*\) ns\/frame.*/\1/p'; }
printf '%-8s %14s %14s %7s %12s %12s %7s\n' size "loaderd instr" "cairo instr" ratio "loaderd ns" "cairo ns" ratio
for size in $sizes; do
    a=$(per_frame "$ours" linkedin "$size"); b=$(per_frame "$cairo" "$size")
    ta=$(ns "$ours" linkedin "$size"); tb=$(ns "$cairo" "$size")
    printf '%-8s %14s %14s %6.1fx %12s %12s %6.1fx\n' "$size" "$a" "$b" "$(awk "BEGIN { print $b / $a }")" \
        "$ta" "$tb" "$(awk "BEGIN { print $tb / $ta }")"
done
