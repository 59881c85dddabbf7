import FixedPoint
@testable import Loaders
import Raster
import Testing

/// `bar direction=right` (psplash's negative PROGRESS): the fill grows from the right edge, the
/// mirror image of the default.
@Suite struct ProgressBarDirectionTests {
    @Test(arguments: [0.0, 0.05, 0.3, 0.5, 0.77, 1.0])
    func rightIsTheMirrorOfLeft(p: Double) {
        let state = FrameState(elapsed: 0, progress: ProgressState(Fixed(p)))
        let left = Support.render("bar", width: 144, height: 32, state: state)
        let right = Support.render("bar", [("direction", "right")], width: 144, height: 32, state: state)
        var worst = 0
        for y in 0..<32 {
            for x in 0..<144 {
                let a = left[143 - x, y], b = right[x, y]
                worst = max(worst, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)), abs(Int(a.a) - Int(b.a)))
            }
        }
        #expect(worst <= 1, "P = \(p): largest difference from the mirror \(worst)")
    }

    @Test func leftIsTheDefault() {
        let state = FrameState(elapsed: 0, progress: ProgressState(Fixed(0.4)))
        #expect(Support.render("bar", [("direction", "left")], width: 36, height: 8, state: state).pixels
                == Support.render("bar", width: 36, height: 8, state: state).pixels)
    }
}
