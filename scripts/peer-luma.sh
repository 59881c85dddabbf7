#!/bin/sh
# loaderd's MAX7219 frame beside luma.led_matrix's for the same LinkedIn frame (docs/PERFORMANCE.md).
# Usage: scripts/peer-luma.sh [FRAMES] [MODULES]   (defaults: 100 frames; 8 modules, a 64x8 chain)
# luma is Python and not a dependency of the project: this script puts luma.led_matrix, luma.core
# and Pillow (pinned below) into a virtual environment of Debian's python3 under
# Benchmarks/.build/peers (needs python3-venv and PyPI). It counts each side's instructions per
# frame with callgrind (FRAMES frames minus 0 frames, so interpreter start-up, imports and set-up
# cancel out), then times 20 x FRAMES frames of each without valgrind.
# loaderd's side is Benchmarks' FrameCost `max7219:linkedin`: render, encode, compare and send to
# a bus that counts bytes. luma's is Benchmarks/Peers/luma-linkedin.py: PIL drawing on a kept
# 1-bit image and luma's `max7219.display` onto its `noop` serial interface.
set -eu
frames=${1:-100}; modules=${2:-8}
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/Benchmarks"
venv=.build/peers/luma-venv
if [ ! -x "$venv/bin/python" ]; then
    mkdir -p .build/peers
    python3 -m venv "$venv" || { echo "python3 -m venv failed: apt-get install python3-venv" >&2; exit 1; }
    "$venv/bin/pip" install -q luma.led_matrix==1.9.0 luma.core==2.6.0 pillow==13.0.0 \
        || { rm -rf "$venv"; echo "installing luma.led_matrix from PyPI failed" >&2; exit 1; }
fi
. Peers/measure.sh
size="$((modules * 8))x8"
a=$(per_frame "$ours" max7219:linkedin "$size"); b=$(per_frame "$venv/bin/python" Peers/luma-linkedin.py "$modules")
ta=$(ns "$ours" max7219:linkedin "$size"); tb=$(ns "$venv/bin/python" Peers/luma-linkedin.py "$modules")
printf '%-8s %14s %14s %7s %12s %12s %7s\n' size "loaderd instr" "luma instr" ratio "loaderd ns" "luma ns" ratio
printf '%-8s %14s %14s %6.1fx %12s %12s %6.1fx\n' "$size" "$a" "$b" "$(awk "BEGIN { print $b / $a }")" \
    "$ta" "$tb" "$(awk "BEGIN { print $tb / $ta }")"
