import Benchmark
import FixedPoint
import Raster

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal, .instructions], maxDuration: .seconds(1))

    Benchmark("empty") { benchmark in
        for i in benchmark.scaledIterations { blackHole(i) }
    }

    Benchmark("canvas clear 64x32") { benchmark in
        var canvas = Canvas(width: 64, height: 32)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { canvas.clear(to: .black); blackHole(canvas.pixels[0]) }
    }

    framebufferBenchmarks()
}
