import FixedPoint
import Loaders
import Raster
import CompactText

// Prints one line per frame: a name and the FNV-1a 64 hash of the canvas's RGBA bytes (the hash
// the host's golden files keep). scripts/cross-test builds this with the shipped modules for each
// board architecture, runs it under qemu-user and compares every line with the x86_64 run and the
// `fnv1a64:` lines of Tests/LoadersTests/Golden/.
//
// Frames named like a golden file are rendered exactly as the host test that wrote it; the rest
// are every loader at LED and framebuffer sizes, at several moments, with progress, a message and
// an outcome.

func hash(_ canvas: Canvas) -> String {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for p in canvas.pixels {
        h = (h ^ UInt64(p.r)) &* 0x0000_0100_0000_01B3
        h = (h ^ UInt64(p.g)) &* 0x0000_0100_0000_01B3
        h = (h ^ UInt64(p.b)) &* 0x0000_0100_0000_01B3
        h = (h ^ UInt64(p.a)) &* 0x0000_0100_0000_01B3
    }
    return String(h, radix: 16)
}

func emit(_ name: String, _ loader: String, _ width: Int, _ height: Int, _ state: FrameState) {
    let made: AnyLoader
    do { made = try Catalog.make(loader) } catch { print("\(name) error \(error.description)"); return }
    var scene = Scene(loader: made, width: width, height: height)
    scene.render(state)
    print("\(name) \(hash(scene.canvas))")
}

func progress(_ percent: Int) -> ProgressState { ProgressState(Fixed(percent, over: 100)) }

// How the shipped programs compare and hash text (Sources/CLinux/embedded/unicode_normalization.c:
// no canonical equivalence, scalars compared as they are). One line, which scripts/cross-test
// checks on x86_64 and compares on every target: equality, a dictionary keyed by non-ASCII text
// (hash agreeing with equality), a set, sorting, and the board code's own KeyIndex.
func textFacts() -> String {
    let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
    var table: [String: Int] = [:]
    for (i, key) in [composed, decomposed, "ma\u{F1}ana", composed, "plain"].enumerated() { table[key, default: 0] += i }
    let found = [composed, decomposed, "ma\u{F1}ana", "plain", "caf"].map { "\(table[$0] ?? -1)" }
    let unique = Set([composed, decomposed, "\u{AC00}", "\u{1100}\u{1161}"]).count
    let order = ["\u{F6}l", "zebra", decomposed, composed, "apple"].sorted()
        .map { String($0.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: "+")) }
    // CompactText's KeyIndex (a TOML table's keys, the boot timeline's units): by bytes, and with
    // enough keys that some hashes exceed Int32.max, which a 32-bit Int cannot hold.
    var index = KeyIndex()
    for (i, key) in [composed, decomposed, "ma\u{F1}ana", "plain"].enumerated() { index.set(key, i) }
    for k in 0..<300 { index.set("unit\(k).service", k) }
    let indexed = [composed, decomposed, "plain", "caf", "unit299.service"].map { "\(index[$0] ?? -1)" }
    return "text equal:\(composed == composed) canonical:\(composed == decomposed) prefix:\(decomposed.hasPrefix("cafe"))"
        + " table:\(found.joined(separator: ",")) set:\(unique) sorted:\(order.joined(separator: " "))"
        + " index:\(indexed.joined(separator: ","))"
}

@main
struct FrameHashes {
    static func main() {
        print(textFacts())
        // The goldens of Tests/LoadersTests (GoldenFrameTests, QuizUpTests, SkeletonTests, WormTests).
        for (w, h) in [(32, 4), (64, 8), (200, 40)] {
            for ms in [0, 300, 600, 1_000] {
                emit("linkedin_\(w)x\(h)_t\(ms)ms", "linkedin", w, h, FrameState(elapsed: Int64(ms) * 1_000))
            }
        }
        for (w, h) in [(64, 8), (192, 24)] {
            for ms in [1_000, 4_100, 4_250, 9_000] {
                emit("pagedots_\(w)x\(h)_t\(ms)ms", "pagedots", w, h, FrameState(elapsed: Int64(ms) * 1_000))
            }
            for percent in [50, 100] {
                emit("pagedots_\(w)x\(h)_p\(percent)", "pagedots", w, h, FrameState(elapsed: 10_000_000, progress: progress(percent)))
            }
        }
        for (w, h) in [(32, 8), (200, 40)] {
            for percent in [0, 30, 75, 100] {
                emit("bar_\(w)x\(h)_p\(percent)", "bar", w, h, FrameState(elapsed: 0, progress: progress(percent)))
            }
        }
        for size in [16, 120] {
            for t: Int64 in [350_000, 1_050_000, 2_450_000] {
                emit("quizup_\(size)x\(size)_t\(t / 1000)ms", "quizup", size, size, FrameState(elapsed: t))
            }
        }
        for (w, h) in [(32, 8), (32, 16), (200, 60)] {
            for t: Int64 in [600_000, 1_000_000, 1_400_000] {
                emit("skeleton_\(w)x\(h)_t\(t / 1000)ms", "skeleton", w, h, FrameState(elapsed: t))
            }
        }
        for size in [8, 100] {
            for t: Int64 in [400_000, 1_200_000, 1_600_000] {
                emit("worm_\(size)x\(size)_t\(t / 1000)ms", "worm", size, size, FrameState(elapsed: t))
            }
        }

        // Every loader at LED and framebuffer sizes: moments, progress and a message, the exit and
        // both outcomes.
        for name in Catalog.names {
            for (w, h) in [(8, 8), (64, 8), (64, 32), (320, 240)] {
                for ms in [0, 350, 1_200, 2_500] {
                    emit("\(name)-\(w)x\(h)-t\(ms)", name, w, h, FrameState(elapsed: Int64(ms) * 1_000))
                }
                emit("\(name)-\(w)x\(h)-p40-message", name, w, h,
                     FrameState(elapsed: 900_000, progress: progress(40), message: "Booting"))
                for outcome in [Outcome.success, Outcome.failure] {
                    for ms in [1_100, 1_400, 2_000] {
                        emit("\(name)-\(w)x\(h)-\(outcome == .success ? "success" : "failure")-t\(ms)", name, w, h,
                             FrameState(elapsed: Int64(ms) * 1_000, progress: progress(100), message: "Done",
                                        stop: StopState(at: 1_000_000, outcome: outcome)))
                    }
                }
            }
        }
    }
}
