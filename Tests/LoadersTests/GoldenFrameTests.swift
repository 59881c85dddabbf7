import FixedPoint
@testable import Loaders
import Raster
import Testing

/// Golden frames of linkedin, pagedots and bar at LED sizes and framebuffer sizes.
@Suite struct GoldenFrameTests {
    static func check(_ name: String, _ width: Int, _ height: Int, _ state: FrameState, golden: String,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        let canvas = Support.render(name, width: width, height: height, state: state)
        GoldenFrames.check(canvas, named: golden, sourceLocation: sourceLocation)
    }

    @Test func linkedin() {
        for (w, h) in [(32, 4), (64, 8), (200, 40)] {
            for ms in [0, 300, 600, 1_000] {
                Self.check("linkedin", w, h, FrameState(elapsed: Int64(ms) * 1_000), golden: "linkedin_\(w)x\(h)_t\(ms)ms")
            }
        }
    }

    @Test func pagedots() {
        for (w, h) in [(64, 8), (192, 24)] {
            for ms in [1_000, 4_100, 4_250, 9_000] {
                Self.check("pagedots", w, h, FrameState(elapsed: Int64(ms) * 1_000), golden: "pagedots_\(w)x\(h)_t\(ms)ms")
            }
            for percent in [50, 100] {
                Self.check("pagedots", w, h, FrameState(elapsed: 10_000_000, progress: ProgressState(Fixed(percent, over: 100))),
                           golden: "pagedots_\(w)x\(h)_p\(percent)")
            }
        }
    }

    @Test func bar() {
        for (w, h) in [(32, 8), (200, 40)] {
            for percent in [0, 30, 75, 100] {
                Self.check("bar", w, h, FrameState(elapsed: 0, progress: ProgressState(Fixed(percent, over: 100))),
                           golden: "bar_\(w)x\(h)_p\(percent)")
            }
        }
    }
}
