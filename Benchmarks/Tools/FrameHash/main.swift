import FixedPoint
import Glibc  // links libm, which FixedPoint's set-up (Spring) uses
import Loaders
import Raster

// A hash of every pixel of every frame, for each loader and size: a quick check that a renderer
// change left frames byte-identical over many more frames than the goldens hold.
//
//   FrameHash [FRAMES]   (default 600 frames, 1/60 s apart, every loader at 64x32, 64x8 (also monochrome), 320x240 and three odd sizes)
//
// Run it before and after a change and compare the output.
let frames = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 600 : 600
for name in Catalog.names {
    for (w, h, monochrome) in [(64, 32, false), (64, 8, false), (64, 8, true), (320, 240, false), (17, 11, false), (37, 19, false), (100, 13, false)] {
        var options = SceneOptions()
        options.monochrome = monochrome
        var scene = Scene(loader: try! Catalog.make(name), width: w, height: h, options: options)
        var state = FrameState(elapsed: 0, progress: name == "bar" ? ProgressState(Fixed(2, over: 3)) : nil)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in 0..<frames {
            state.elapsed = Int64(i) * 16_667
            scene.render(state)
            for p in scene.canvas.pixels {
                hash = (hash ^ UInt64(p.r) ^ UInt64(p.g) << 8 ^ UInt64(p.b) << 16 ^ UInt64(p.a) << 24) &* 0x100_0000_01b3
            }
        }
        print(name, "\(w)x\(h)\(monochrome ? " monochrome" : "")", String(hash, radix: 16))
    }
}
