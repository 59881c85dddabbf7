#!/bin/sh
# Instructions per pixel of whole frames, counted by callgrind (exact where wall time is noisy).
# Usage: scripts/frame-instructions.sh [FRAMES] [SIZES] [LOADER...]
#   defaults: 100 frames; sizes "64x32 64x8 320x240" (quote several); every loader.
#   A loader named max7219:LOADER (size Nx8) counts render + encode for a MAX7219 display of N/8
#   modules (its bus only counts bytes): the pixel budgets do not apply to those rows.
# Builds Benchmarks' FrameCost in release, runs it under callgrind with FRAMES frames and with 0,
# and prints (difference) / (FRAMES × pixels) per loader and size: set-up and process start-up
# cancel out. Budgets (shared/DESIGN.md): ≤ 20 instructions a pixel at 64x32, ≤ 60 at 64x8; rows
# over budget are marked OVER and the script exits 1 when there is one.
set -eu
frames=${1:-100}; sizes=${2:-"64x32 64x8 320x240"}
[ $# -ge 2 ] && shift 2 || shift $#
loaders=${*:-"linkedin pagedots quizup shimmer worm skeleton bar"}
cd "$(dirname "$0")/../Benchmarks"
swift build -c release --product FrameCost >/dev/null || { echo "building FrameCost failed" >&2; exit 1; }
# A copy without debug information: valgrind 3.19 (Debian 12) gives up on the DWARF 5 that Swift
# 6.3 writes ("unhandled dwarf2 abbrev form"); the symbol table is enough for instruction counts.
bin=$(mktemp); trap 'rm -f "$bin"' EXIT
objcopy --strip-debug "$(swift build -c release --show-bin-path)/FrameCost" "$bin"
count() {
    out=$(mktemp)
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" "$3" 2>"$out" >/dev/null || true
    n=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out")
    [ -n "$n" ] || { echo "callgrind failed on FrameCost $1 $2 $3:" >&2; tail -5 "$out" >&2; rm -f "$out"; exit 2; }
    rm -f "$out"; echo "$n"
}
budget() { case $1 in 64x32) echo 20 ;; 64x8) echo 60 ;; *) echo - ;; esac; }
over=0
printf '| %-16s | %-7s | %12s | %9s | %6s | %-4s |\n' loader size instr/frame instr/px budget
printf '|:--|:--|--:|--:|--:|:--|\n'
for loader in $loaders; do
    for size in $sizes; do
        pixels=$(echo "$size" | awk -Fx '{print $1 * $2}')
        base=$(count "$loader" "$size" 0); total=$(count "$loader" "$size" "$frames")
        per=$(awk "BEGIN { printf \"%.1f\", ($total - $base) / $frames / $pixels }")
        limit=$(budget "$size"); flag=ok
        case $loader in max7219:*) limit=- ;; esac
        if [ "$limit" != - ] && awk "BEGIN { exit !($per > $limit) }"; then flag=OVER; over=1; fi
        [ "$limit" = - ] && flag=
        printf '| %-16s | %-7s | %12s | %9s | %6s | %-4s |\n' "$loader" "$size" $(( (total - base) / frames )) "$per" "$limit" "$flag"
    done
done
exit $over
