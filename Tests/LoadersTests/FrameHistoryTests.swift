import FixedPoint
import Foundation
@testable import Loaders
import Raster
import Testing

/// A canvas cleared to transparent clears only the columns its fills wrote since (`Canvas.clear`),
/// and a display compares only the rows `Canvas.drawnRows` reports with its last frame's. Frame
/// after frame on one scene — every loader at LED and screen sizes, with progress, a message
/// that comes, changes and goes, and a stop with its exit — each frame must equal the same
/// state rendered on a fresh scene, and every pixel that is not transparent must lie in the
/// reported rows.
@Suite struct FrameHistoryTests {
    static let sizes = [(8, 8), (64, 8), (64, 32), (320, 240)]

    static func states() -> [FrameState] {
        var states: [FrameState] = []
        for i in 0..<12 {
            let t = Microseconds(i) * 274_000
            let progress = i < 2 ? nil : ProgressState(from: Fixed(i - 2, over: 10), to: Fixed(i - 1, over: 10), changedAt: t - 50_000)
            let message: String? = i < 3 ? nil : (i < 6 ? "Starting services" : (i < 9 ? "Mounting /home and a much longer line of text" : nil))
            let stop = i < 10 ? nil : StopState(at: 9 * 274_000 + 100_000, outcome: i == 10 ? .success : nil)
            states.append(FrameState(elapsed: t, progress: progress, message: message, stop: stop))
        }
        return states
    }

    @Test(arguments: Catalog.names) func framesOnOneSceneEqualFreshOnes(_ name: String) {
        // The screens also with a logo (a block of pixels stored each frame, not a fill).
        let cases = Self.sizes.map { ($0.0, $0.1, false) } + [(320, 240, true), (800, 480, true)]
        for (w, h, logo) in cases {
            var options = SceneOptions()
            if logo { options.logoPath = BootScreenTests.logoPath }
            var scene = Scene(loader: Support.loader(name), width: w, height: h, options: options)
            // A display's dimmed copy (brightness 40 %), made again on the same canvas each frame.
            var dimmed = Canvas(width: w, height: h)
            for (i, state) in Self.states().enumerated() {
                scene.render(state)
                dimmed.copyScaled(from: scene.canvas, by: 102)
                if dimmed.pixels != scene.canvas.pixels.map({ $0.scaled(by: 102) }) {
                    Issue.record("\(name) \(w)x\(h) frame \(i): the dimmed copy is not the frame scaled")
                    break
                }
                var fresh = Scene(loader: Support.loader(name), width: w, height: h, options: options)
                fresh.render(state)
                if scene.canvas.pixels != fresh.canvas.pixels {
                    Issue.record("\(name) \(w)x\(h)\(logo ? " with a logo" : "") frame \(i): differs from the same state on a fresh scene")
                    break
                }
                guard let rows = scene.canvas.drawnRows else {
                    // Known on every frame: cleared to transparent and drawn through the canvas.
                    Issue.record("\(name) \(w)x\(h)\(logo ? " with a logo" : "") frame \(i): the canvas does not know its drawn rows")
                    break
                }
                let stray = (0..<h).first { y in !rows.contains(y) && (0..<w).contains { scene.canvas[$0, y] != .transparent } }
                if let stray {
                    Issue.record("\(name) \(w)x\(h) frame \(i): row \(stray) drawn outside the reported rows \(rows)")
                    break
                }
            }
        }
    }
}
