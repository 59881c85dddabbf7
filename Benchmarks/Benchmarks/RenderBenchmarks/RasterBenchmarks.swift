import Benchmark
import FixedPoint
import Raster

/// Canvas operations and each shape at an LED-sized and a framebuffer-sized canvas.
func registerRasterBenchmarks() {
    for (w, h) in [(64, 32), (320, 240)] {
        Benchmark("canvas clear \(w)x\(h)") { benchmark in
            var canvas = Canvas(width: w, height: h)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { canvas.clear(to: .black); blackHole(canvas.pixels[0]) }
        }
        let fw = Fixed(w), fh = Fixed(h)
        // Each shape covers most of the canvas at a subpixel position, so edges are anti-aliased.
        let inset = FixedRect(x: Fixed(1, over: 3), y: Fixed(1, over: 4), width: fw - 1, height: fh - 1)
        // One call per concrete shape type: loaders fill concrete shapes, so `fill` must be
        // measured specialized for each (an `any Shape` list would measure the existential path).
        registerFill("rectangle", Rectangle(inset), w, h)
        registerFill("rounded rectangle", RoundedRectangle(inset, cornerRadius: fh / 4), w, h)
        registerFill("capsule", RoundedRectangle.capsule(inset), w, h)
        registerFill("circle", Ellipse(center: Point(x: fw / 2, y: fh / 2), radius: fh / 2 - Fixed(1, over: 3)), w, h)
        registerFill("ellipse", Ellipse(center: Point(x: fw / 2, y: fh / 2), radiusX: fw / 2 - 1, radiusY: fh / 2 - 1), w, h)
        registerFill("triangle", Triangle(Point(x: fw / 2, y: Fixed(1, over: 3)), Point(x: fw - 1, y: fh - 1), Point(x: 1, y: fh - 2)), w, h)
        Benchmark("fill capsule with gradient \(w)x\(h)") { benchmark in
            var canvas = Canvas(width: w, height: h)
            let gradient = LinearGradient(colors: [.blue, .purple, .pink, .blue], startX: 0, endX: fw)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                canvas.fill(RoundedRectangle.capsule(inset), with: .linearGradient(gradient))
                blackHole(canvas.pixels[0])
            }
        }
        Benchmark("fill capsule clipped to rounded rect \(w)x\(h)") { benchmark in
            var canvas = Canvas(width: w, height: h)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                canvas.withClip(.roundedRect(inset, cornerRadius: fh / 2)) { c in
                    c.fill(RoundedRectangle.capsule(inset), with: .solid(.blue))
                }
                blackHole(canvas.pixels[0])
            }
        }
    }

    Benchmark("cubic bezier (0.6,0,0.4,1) evaluation") { benchmark in
        let curve = CubicBezier(Fixed(6, over: 10), 0, Fixed(4, over: 10), 1)
        var t = Fixed.zero
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(curve(t))
            t = Fixed(raw: (t.raw &+ 4099) & 0xFFFF)
        }
    }
}

/// Fills `shape` (a concrete type, so `Canvas.fill` is specialized for it) once per iteration.
func registerFill<S: Shape>(_ name: String, _ shape: S, _ w: Int, _ h: Int) {
    Benchmark("fill \(name) \(w)x\(h)") { benchmark in
        var canvas = Canvas(width: w, height: h)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            canvas.fill(shape, with: .solid(.blue))
            blackHole(canvas.pixels[0])
        }
    }
}
