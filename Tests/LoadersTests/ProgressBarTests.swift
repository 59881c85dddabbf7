import FixedPoint
import Foundation
@testable import Loaders
import Raster
import Testing

/// `bar`, checked against LOADERS.md: capsule track white@0.35, leading-aligned capsule fill
/// W × progress, progress smoothed linearly over 0.05 s.
@Suite struct ProgressBarTests {
    /// Fill length along the centre row of a 144x32 canvas (the 36x8 bar at scale 4).
    static func fillLength(_ state: FrameState) -> Double {
        let canvas = Support.render("bar", width: 144, height: 32, state: state)
        var sum = 0.0
        for x in 0..<144 { sum += (Double(canvas[x, 16].a) - 89) / (255 - 89) }
        return sum
    }

    @Test("fill width = W × progress", arguments: [0.0, 0.1, 0.25, 0.5, 0.75, 1.0])
    func fillWidth(p: Double) {
        let length = Self.fillLength(FrameState(elapsed: 0, progress: ProgressState(Fixed(p))))
        #expect(abs(length - 144 * p) < 0.2, "P = \(p): \(length)")
    }

    @Test("progress is smoothed linearly over 0.05 s", arguments: [
        (0.9, 0.2), (1.0, 0.2), (1.0125, 0.3), (1.025, 0.4), (1.0375, 0.5), (1.05, 0.6), (3.0, 0.6),
    ])
    func smoothing(t: Double, shown: Double) {
        let progress = ProgressState(from: Fixed(0.2), to: Fixed(0.6), changedAt: 1_000_000)
        let length = Self.fillLength(FrameState(elapsed: Support.seconds(t), progress: progress))
        #expect(abs(length - 144 * shown) < 0.2, "t = \(t): \(length)")
    }

    @Test func indeterminateShowsTheTrackOnly() {
        let canvas = Support.render("bar", width: 144, height: 32, state: FrameState(elapsed: 0))
        #expect(abs(Int(canvas[72, 16].a) - 89) <= 1)
    }
}
