import Benchmark
import Displays
import Loaders
import Raster
import Transports

/// Encode time per frame for the LED displays: the frame is mapped, reduced (MAX7219) or gamma
/// corrected and encoded into the display's wire buffer, compared with what was sent, and handed
/// to a capture transport that only counts (so the bus costs nothing here). Two different
/// pre-rendered frames alternate so that every iteration really sends.
func registerLEDBenchmarks() {
    func frames(_ width: Int, _ height: Int) -> (Canvas, Canvas) {
        var scene = Scene(loader: try! Catalog.make("linkedin"), width: width, height: height)
        scene.render(FrameState(elapsed: 300_000))
        let a = scene.canvas
        scene.render(FrameState(elapsed: 700_000))
        return (a, scene.canvas)
    }

    func measure(_ benchmark: Benchmark, _ display: any Display, _ capture: SPICapture, _ pair: (Canvas, Canvas)) {
        try! display.show(pair.0)
        capture.removeAll()
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            try! display.show(i & 1 == 0 ? pair.1 : pair.0)
        }
        benchmark.stopMeasurement()
        blackHole(capture.byteCount)
    }

    for modules in [4, 8, 32] {
        Benchmark("max7219 \(modules) modules (\(modules * 8)x8)") { benchmark in
            let capture = SPICapture(recording: .countOnly)
            var c = MAX7219Display.Configuration()
            c.modules = modules
            let display = try! MAX7219Display(configuration: c, bus: capture)
            measure(benchmark, display, capture, frames(display.canvasWidth, display.canvasHeight))
        }
    }
    for side in [16, 32] {
        Benchmark("apa102 \(side)x\(side) serpentine") { benchmark in
            let capture = SPICapture(recording: .countOnly)
            var c = APA102Display.Configuration()
            c.width = side; c.height = side; c.layout = .serpentine
            let display = APA102Display(configuration: c, bus: capture)
            measure(benchmark, display, capture, frames(side, side))
        }
        for encoding in [3, 8] {
            Benchmark("ws2812 \(side)x\(side) serpentine encoding \(encoding)") { benchmark in
                let capture = SPICapture(recording: .countOnly)
                var c = WS2812Display.Configuration()
                c.width = side; c.height = side; c.layout = .serpentine; c.encoding = encoding
                let display = try! WS2812Display(configuration: c, bus: capture)
                measure(benchmark, display, capture, frames(side, side))
            }
        }
    }
}
