import Benchmark
import Displays
import FixedPoint
import Glibc
import Loaders
import Raster

/// Framebuffer writes into an in-memory framebuffer (a file on /dev/shm standing in for the
/// device, mapped shared like /dev/fb0): encode per pixel format at scale ×1 and ×4, full frames,
/// a one-pixel dirty rectangle, and an unchanged frame (the diff alone). One iteration = one frame.
func framebufferBenchmarks() {
    // A realistic frame: the bar loader at 40 % on a 128x64 canvas.
    var scene = Scene(loader: try! Catalog.make("bar"), width: 128, height: 64)
    scene.render(FrameState(elapsed: 0, progress: ProgressState(Fixed(0.4))))
    let frameA = scene.canvas
    // Differs in the first and last pixel: the dirty rectangle is the whole canvas.
    var frameB = frameA
    frameB[0, 0] = Pixel(r: 255, g: 255, b: 255, a: 255)
    frameB[127, 63] = Pixel(r: 255, g: 255, b: 255, a: 255)
    // Differs in one middle pixel only.
    var frameC = frameA
    frameC[64, 32] = Pixel(r: 255, g: 0, b: 0, a: 255)

    func open(_ format: String, scale: Int) -> (FramebufferDisplay, String) {
        let path = "/dev/shm/loaderd-bench-\(getpid())-\(format)-\(scale).raw"
        let spec = try! DisplaySpec(parsing: "fb:device=\(path),geometry=\(128 * scale)x\(64 * scale),format=\(format),size=128x64,scale=\(scale)")
        return (try! FramebufferDisplay.open(spec), path)
    }

    for format in ["rgb565", "rgb888", "xrgb8888"] {
        for scale in [1, 4] {
            Benchmark("fb full frame \(format) 128x64 x\(scale)") { benchmark in
                let (display, path) = open(format, scale: scale)
                defer { display.close(); unlink(path) }
                try display.show(frameA)
                benchmark.startMeasurement()
                for i in benchmark.scaledIterations { try display.show(i & 1 == 0 ? frameB : frameA) }
                benchmark.stopMeasurement()
                blackHole(display.statistics.bytesWritten)
            }
        }
    }

    for scale in [1, 4] {
        Benchmark("fb one-pixel dirty rect xrgb8888 128x64 x\(scale)") { benchmark in
            let (display, path) = open("xrgb8888", scale: scale)
            defer { display.close(); unlink(path) }
            try display.show(frameA)
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations { try display.show(i & 1 == 0 ? frameC : frameA) }
            benchmark.stopMeasurement()
            blackHole(display.statistics.bytesWritten)
        }
    }

    Benchmark("fb unchanged frame 128x64 (diff only)") { benchmark in
        let (display, path) = open("xrgb8888", scale: 4)
        defer { display.close(); unlink(path) }
        try display.show(frameA)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try display.show(frameA) }
        benchmark.stopMeasurement()
        blackHole(display.statistics.bytesWritten)
    }
}
