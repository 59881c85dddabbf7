import Benchmark

// Each file registers one group: RasterBenchmarks, LoaderBenchmarks, FramebufferBenchmarks.
// Every benchmark runs 1000 iterations per sample (scalingFactor .kilo), so the harness's own
// ~16 mallocs per sample amount to 0.016 per iteration: a per-frame malloc count of 0 means none.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 200
    )
    registerRasterBenchmarks()
    registerLoaderBenchmarks()
    framebufferBenchmarks()
    registerLEDBenchmarks()
}
