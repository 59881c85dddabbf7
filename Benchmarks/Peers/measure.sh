# Sourced by scripts/peer-cairo.sh and scripts/peer-luma.sh (from Benchmarks/, with $frames
# set): builds FrameCost in release and sets $ours to a copy without debug information
# (valgrind 3.19 cannot read Swift 6.3's DWARF 5; the symbol table is enough), then defines
#   count PROGRAM ARGS...                  instructions callgrind collects for one run
#   per_frame PROGRAM ARGS-BEFORE-FRAMES...  (run of $frames frames − run of 0) / $frames
#   ns PROGRAM ARGS-BEFORE-FRAMES...       the program's own ns/frame over 20 x $frames frames
swift build -c release --product FrameCost >/dev/null || { echo "building FrameCost failed" >&2; exit 1; }
ours=$(mktemp); trap 'rm -f "$ours"' EXIT
objcopy --strip-debug "$(swift build -c release --show-bin-path)/FrameCost" "$ours"
count() {
    out=$(mktemp)
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>"$out" >/dev/null || true
    n=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out")
    [ -n "$n" ] || { echo "callgrind failed on $*:" >&2; tail -5 "$out" >&2; rm -f "$out"; exit 2; }
    rm -f "$out"; echo "$n"
}
per_frame() {
    base=$(count "$@" 0); total=$(count "$@" "$frames")
    echo $(( (total - base) / frames ))
}
ns() { "$@" $((frames * 20)) | sed -n 's/.* \([0-9]*\) ns\/frame.*/\1/p'; }
