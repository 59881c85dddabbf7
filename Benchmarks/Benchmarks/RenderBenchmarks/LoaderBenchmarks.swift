import Benchmark
import FixedPoint
import Loaders
import Raster

/// One whole frame (clear, loader, exit/message handling) per iteration, for every loader at the
/// sizes of LED strips, small panels and a wide framebuffer banner. The scene is made before
/// measuring (that is when buffers are sized); frames advance 1/60 s each.
func registerLoaderBenchmarks() {
    let sizes = [(64, 8), (64, 32), (128, 64), (480, 64)]
    for name in Catalog.names {
        for (w, h) in sizes {
            Benchmark("frame \(name) \(w)x\(h)") { benchmark in
                var scene = Scene(loader: try! Catalog.make(name), width: w, height: h)
                var state = FrameState(elapsed: 0, progress: name == "bar" ? ProgressState(Fixed(2, over: 3)) : nil)
                scene.render(state)
                benchmark.startMeasurement()
                for i in benchmark.scaledIterations {
                    state.elapsed = Int64(i) * 16_667
                    scene.render(state)
                    blackHole(scene.canvas.pixels[0])
                }
            }
        }
    }
}
