import Displays
import FixedPoint
import Glibc
import Loaders
import Raster
import Transports

// A test-free harness for counting instructions per frame with callgrind (docs/PERFORMANCE.md):
//
//   FrameCost LOADER WIDTHxHEIGHT FRAMES
//
// renders one warm-up frame, then FRAMES frames of LOADER, 1/60 s apart, the way the benchmarks do (the bar at 2/3
// progress). Run it twice under `valgrind --tool=callgrind`, once with 0 frames: the difference
// divided by FRAMES × width × height is the cost per pixel, without start-up and set-up.
//
//   FrameCost max7219:LOADER WIDTHx8 FRAMES
//
// does the same and shows each frame on a MAX7219 display of WIDTH / 8 modules whose bus is a
// capture transport that only counts bytes: render + encode + compare + send, the daemon's
// per-frame work for that display, with the bus itself costing nothing (scripts/max7219-instructions.sh).
let arguments = CommandLine.arguments
guard arguments.count == 4, let frames = Int(arguments[3]) else {
    print("usage: FrameCost LOADER WIDTHxHEIGHT FRAMES")
    exit(2)
}
let size = arguments[2].split(separator: "x").compactMap { Int($0) }
guard size.count == 2 else { print("bad size \(arguments[2])"); exit(2) }
var name = arguments[1]
var display: MAX7219Display? = nil
if name.hasPrefix("max7219:") {
    name = String(name.dropFirst("max7219:".count))
    guard size[1] == 8, size[0] % 8 == 0, size[0] > 0 else { print("max7219 frames are Nx8, N a multiple of 8"); exit(2) }
    var c = MAX7219Display.Configuration()
    c.modules = size[0] / 8
    display = try! MAX7219Display(configuration: c, bus: SPICapture(recording: .countOnly))
}
// A monochrome display gets the loaders' lit/unlit design, as loaderd gives it.
var options = SceneOptions()
options.monochrome = display?.isMonochrome ?? false
var scene = Scene(loader: try! Catalog.make(name), width: size[0], height: size[1], options: options)
let state = FrameState(elapsed: 0, progress: name == "bar" ? ProgressState(Fixed(2, over: 3)) : nil)
// One frame before counting, so one-time work (fonts parsed on first use) is not counted per frame.
scene.render(state)
try! display?.show(scene.canvas)
// The frames in a function of their own: its locals are checked for exclusive access when
// compiled, where top-level variables (globals) are checked at run time on every access
// (~100 instructions a frame of the harness's own, not the frame's).
func run(_ scene: inout Scene, _ display: MAX7219Display?, _ state: FrameState, frames: Int) -> (nanoseconds: Int, checksum: UInt32) {
    var state = state, checksum: UInt32 = 0
    // Wall time too, for the peer comparison (scripts/peer-cairo.sh); under callgrind it is meaningless.
    var start = timespec(), end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    for i in 0..<frames {
        state.elapsed = Int64(i) * 16_667
        scene.render(state)
        try! display?.show(scene.canvas)
        checksum &+= UInt32(scene.canvas.pixels[(i * 7) % scene.canvas.pixels.count].a)
    }
    clock_gettime(CLOCK_MONOTONIC, &end)
    return ((end.tv_sec - start.tv_sec) * 1_000_000_000 + (end.tv_nsec - start.tv_nsec), checksum)
}
let (nanoseconds, checksum) = run(&scene, display, state, frames: frames)
print("\(name) \(size[0])x\(size[1]) \(frames) frames, \(frames > 0 ? nanoseconds / frames : 0) ns/frame, checksum \(checksum)")
