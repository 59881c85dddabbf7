import FixedPoint
import Foundation
@testable import Loaders
import Raster

/// Shared helpers for the loader tests: rendering through the real catalog and scene, and
/// reference models computed in Double straight from the formulas of LOADERS.md.
enum Support {
    static func loader(_ name: String, _ assignments: [(key: String, value: String)] = []) -> AnyLoader {
        do { return try Catalog.make(name, assignments: assignments) } catch { fatalError("\(error)") }
    }

    static func render(_ name: String, _ assignments: [(key: String, value: String)] = [], width: Int, height: Int,
                       state: FrameState) -> Canvas {
        var scene = Scene(loader: loader(name, assignments), width: width, height: height)
        scene.render(state)
        return scene.canvas
    }

    static func seconds(_ s: Double) -> Microseconds { Microseconds((s * 1_000_000).rounded()) }

    /// The spring of LOADERS.md: mass 1, stiffness (2π/response)², damping 4π·ζ/response,
    /// released from 0 towards 1 at rest. Closed form of the under-damped oscillator.
    static func spring(_ t: Double, response: Double = 0.3, damping: Double = 0.75) -> Double {
        if t <= 0 { return 0 }
        let w0 = 2 * Double.pi / response
        let wd = w0 * (1 - damping * damping).squareRoot()
        return 1 - exp(-damping * w0 * t) * (cos(wd * t) + damping * w0 / wd * sin(wd * t))
    }

    /// CSS cubic-bezier(x1, y1, x2, y2) at input progress x, by bisection on the x polynomial.
    static func cubicBezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x: Double) -> Double {
        func b(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if b(x1, x2, mid) < x { lo = mid } else { hi = mid }
        }
        return b(y1, y2, (lo + hi) / 2)
    }

    /// Premultiplied channel values of a pixel as Doubles 0...1.
    static func rgba(_ p: Pixel) -> (r: Double, g: Double, b: Double, a: Double) {
        (Double(p.r) / 255, Double(p.g) / 255, Double(p.b) / 255, Double(p.a) / 255)
    }

    /// How much of pixel `p` is `fill` rather than `track` (both premultiplied, over black):
    /// the projection of p on the segment track → fill. 0.5 is the "mostly fill" threshold.
    static func share(_ p: Pixel, fill: Pixel, track: Pixel) -> Double {
        let v = [Double(p.r) - Double(track.r), Double(p.g) - Double(track.g), Double(p.b) - Double(track.b)]
        let d = [Double(fill.r) - Double(track.r), Double(fill.g) - Double(track.g), Double(fill.b) - Double(track.b)]
        let dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
        return (v[0] * d[0] + v[1] * d[1] + v[2] * d[2]) / dd
    }

    /// Runs of non-transparent pixels along row `y`, as subpixel [left, right) edges measured
    /// from the edge pixels' alpha (the shapes drawn at opacity 1, so alpha is coverage).
    static func runs(_ canvas: Canvas, row y: Int) -> [(left: Double, right: Double)] {
        var result: [(left: Double, right: Double)] = []
        var x = 0
        while x < canvas.width {
            if canvas[x, y].a == 0 { x += 1; continue }
            let start = x
            while x < canvas.width && canvas[x, y].a > 0 { x += 1 }
            let end = x - 1
            let left = Double(start) + 1 - Double(canvas[start, y].a) / 255
            let right = Double(end) + Double(canvas[end, y].a) / 255
            result.append((left, right))
        }
        return result
    }
}
