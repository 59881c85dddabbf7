import Displays
import FixedPoint
import Glibc
import Loaders
import Raster

// The cost of writing a frame to a display, the same way for every display type, so the DRM
// display can be measured next to the fb display on the same machine (docs/PERFORMANCE.md):
//
//   DisplayFrameCost SPEC FRAMES
//
// e.g. `DisplayFrameCost fb:device=/dev/fb0,size=128x64,scale=4 600` and
// `DisplayFrameCost drm:device=/dev/dri/card0,size=128x64,scale=4 600`. Shows the bar loader at
// 40 % and the same frame with two corner pixels changed, alternately: every frame's dirty
// rectangle is the whole canvas (the worst case for the write; a loader usually changes less).
// Prints wall time per frame and bytes written; on DRM a frame includes its page flip, and the
// wait for the previous flip when frames come faster than the refresh (then the figure is the
// refresh period, not the write).
let arguments = CommandLine.arguments
guard arguments.count == 3, let frames = Int(arguments[2]), frames > 0 else {
    print("usage: DisplayFrameCost SPEC FRAMES   (SPEC: fb:… or drm:…, as for loaderd --display)")
    exit(2)
}
let spec: DisplaySpec
do { spec = try DisplaySpec(parsing: arguments[1]) } catch { print("\(error)"); exit(2) }
let display: any Display
do {
    switch spec.type {
    case "fb": display = try FramebufferDisplay.open(spec)
    case "drm": display = try DRMDisplay.open(spec)
    default: print("DisplayFrameCost measures fb: and drm: displays"); exit(2)
    }
} catch { print("\(error)"); exit(1) }

var scene = Scene(loader: try! Catalog.make("bar"), width: display.canvasWidth, height: display.canvasHeight)
scene.render(FrameState(elapsed: 0, progress: ProgressState(Fixed(0.4))))
let frameA = scene.canvas
var frameB = frameA
frameB[0, 0] = Pixel(r: 255, g: 255, b: 255, a: 255)
frameB[display.canvasWidth - 1, display.canvasHeight - 1] = Pixel(r: 255, g: 255, b: 255, a: 255)

try display.show(frameA)
var start = timespec(), end = timespec()
clock_gettime(CLOCK_MONOTONIC, &start)
for i in 0..<frames { try display.show(i & 1 == 0 ? frameB : frameA) }
clock_gettime(CLOCK_MONOTONIC, &end)
let nanoseconds = Int(end.tv_sec - start.tv_sec) * 1_000_000_000 + Int(end.tv_nsec - start.tv_nsec)
var bytes = 0
if let fb = display as? FramebufferDisplay { bytes = fb.statistics.bytesWritten }
if let drm = display as? DRMDisplay { bytes = drm.statistics.bytesWritten }
print("\(display.name) canvas \(display.canvasWidth)x\(display.canvasHeight): \(frames) frames, "
    + "\(nanoseconds / frames / 1000) µs per frame, \(bytes / frames) bytes per frame")
display.close()
