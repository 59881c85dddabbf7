import Raster
import CompactText
import ScreenEncoding

/// The `fb:` display spec, checked key by key. Human values are parsed here, once.
///
/// `fb:device=/dev/fb0,size=64x32,scale=8,anchor=center,x=0,y=0,rotate=0,background=black,
/// console=graphics,vsync=off,buffers=auto,fps=30` — and for a regular file standing in for the
/// device: `fb:device=/tmp/fb.raw,geometry=320x240,format=rgb565[,stride=640]`.
struct FramebufferOptions: Sendable {
    enum ConsolePolicy: String, Sendable { case graphics, keep }
    enum Buffering: String, Sendable { case auto, one = "1", two = "2" }

    var device = "/dev/fb0"
    var size: (width: Int, height: Int)?
    /// scale, anchor, x, y, rotate, background, console, fps: the keys drm: takes too.
    var screen = ScreenKeys()
    var vsync = false
    var buffering = Buffering.auto
    /// Set for a file standing in for the device: its geometry, format and stride (bytes per row).
    var file: (width: Int, height: Int, format: FramebufferPixelFormat, stride: Int?)?

    static let keys = ["device", "size", "scale", "anchor", "x", "y", "rotate", "background", "console", "vsync",
                       "buffers", "fps", "geometry", "format", "stride"]

    init(_ spec: DisplaySpec) throws(DisplaySpecError) {
        let text = spec.description
        if let problem = try read(spec, text) { throw DisplaySpecError(spec: text, message: problem) }
    }

    /// Reads the spec's keys: the first problem's message, or nil. (The messages are returned,
    /// not thrown, and `init` throws once: for size, as each throw site is code of its own.)
    private mutating func read(_ spec: DisplaySpec, _ text: String) throws(DisplaySpecError) -> String? {
        guard spec.type == "fb" else { return filled("not a framebuffer spec (type '{}', expected fb)", spec.type) }
        var geometry: (width: Int, height: Int)?
        var format: FramebufferPixelFormat?
        var stride: Int?
        for option in spec.options {
            let (key, value) = (option.key, option.value)
            // The key's place in `keys`, then a switch on it (for size: not a comparison per case).
            let index = keyIndex(key, Self.keys)
            switch index {
            case 0:  // device
                guard !value.isEmpty else { return "device= needs a path, e.g. device=/dev/fb0" }
                device = value
            case 1, 12:  // size, geometry
                guard let (w, h) = parseDimensions(value), w >= 1, h >= 1, w <= 16384, h <= 16384 else {
                    return filled("{}={}: expected WIDTHxHEIGHT, e.g. {}=320x240", key, value, key)
                }
                if index == 12 {
                    geometry = (w, h)
                } else {
                    guard w <= Canvas.maximumSide, h <= Canvas.maximumSide else {
                        return filled("size={}: the canvas is at most {} pixels on each side", value, String(Canvas.maximumSide))
                    }
                    size = (w, h)
                }
            case 9:  // vsync
                guard let flag = parseYesNo(value) else { return filled("vsync={}: expected on or off", value) }
                vsync = flag
            case 10:  // buffers
                guard let b = Buffering(rawValue: value.asciiLowercased()) else {
                    return filled("buffers={}: expected auto (double-buffer when the virtual screen is tall enough), 1, or 2 (ask the driver for a double-height virtual screen)", value)
                }
                buffering = b
            case 13:  // format
                guard let f = FramebufferPixelFormat.supported.first(where: { $0.name == value.asciiLowercased() })?.format else {
                    return filled("format={}: expected one of {}", value, supportedFormatNames())
                }
                format = f
            case 14:  // stride
                guard let n = Int(value), (1...(1 << 20)).contains(n) else {
                    return filled("stride={}: expected a whole number from 1 to 1048576", value)
                }
                stride = n
            default:
                guard try screen.read(key, value, spec: text) else {
                    return filled("unknown key '{}' (accepted: {})", key, Self.keys.joined(separator: ", "))
                }
            }
        }
        switch (geometry, format) {
        case let (g?, f?):
            if let stride, stride < g.width * f.bytesPerPixel {
                return filled("stride={} is shorter than a row of {} pixels at {} bpp ({} bytes)", String(stride), String(g.width), String(f.bitsPerPixel), String(g.width * f.bytesPerPixel))
            }
            file = (g.width, g.height, f, stride)
        case (_?, nil): return filled("geometry= needs format= too (one of {}) to use a file as the framebuffer", supportedFormatNames())
        case (nil, _?): return "format= only applies with geometry= (a file standing in for the device); a device reports its own format"
        case (nil, nil):
            if stride != nil { return "stride= only applies with geometry= and format= (a file standing in for the device)" }
            // A device by its path from /: a relative one (`device = 3` meaning fb3) would be
            // looked for in the daemon's working directory, and waited for there in vain.
            guard device.hasPrefix("/") else {
                return filled("device={}: expected a framebuffer device's path such as /dev/fb0 (or geometry= and format= for a file standing in for one)", device)
            }
        }
        return nil
    }
}
