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
        func fail(_ message: String) -> DisplaySpecError { DisplaySpecError(spec: text, message: message) }
        func integer(_ key: String, _ value: String, _ range: ClosedRange<Int>) throws(DisplaySpecError) -> Int {
            guard let n = Int(value), range.contains(n) else {
                throw fail("\(key)=\(value): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return n
        }
        func dimensions(_ key: String, _ value: String) throws(DisplaySpecError) -> (width: Int, height: Int) {
            guard let (w, h) = parseDimensions(value), w >= 1, h >= 1, w <= 16384, h <= 16384 else {
                throw fail("\(key)=\(value): expected WIDTHxHEIGHT, e.g. \(key)=320x240")
            }
            return (w, h)
        }

        guard spec.type == "fb" else { throw fail("not a framebuffer spec (type '\(spec.type)', expected fb)") }
        var geometry: (width: Int, height: Int)?
        var format: FramebufferPixelFormat?
        var stride: Int?
        for option in spec.options {
            let (key, value) = (option.key, option.value)
            switch key {
            case "device":
                guard !value.isEmpty else { throw fail("device= needs a path, e.g. device=/dev/fb0") }
                device = value
            case "size":
                let s = try dimensions(key, value)
                guard s.width <= Canvas.maximumSide, s.height <= Canvas.maximumSide else {
                    throw fail("size=\(value): the canvas is at most \(Canvas.maximumSide) pixels on each side")
                }
                size = s
            case "vsync":
                guard let flag = parseYesNo(value) else { throw fail("vsync=\(value): expected on or off") }
                vsync = flag
            case "buffers":
                guard let b = Buffering(rawValue: value.asciiLowercased()) else {
                    throw fail("buffers=\(value): expected auto (double-buffer when the virtual screen is tall enough), 1, or 2 (ask the driver for a double-height virtual screen)")
                }
                buffering = b
            case "geometry": geometry = try dimensions(key, value)
            case "format":
                guard let f = FramebufferPixelFormat.supported.first(where: { $0.name == value.asciiLowercased() })?.format else {
                    throw fail("format=\(value): expected one of \(FramebufferPixelFormat.supportedNames)")
                }
                format = f
            case "stride": stride = try integer(key, value, 1...(1 << 20))
            default:
                guard try screen.read(key, value, spec: text) else {
                    throw fail("unknown key '\(key)' (accepted: \(Self.keys.joined(separator: ", ")))")
                }
            }
        }
        switch (geometry, format) {
        case let (g?, f?):
            if let stride, stride < g.width * f.bytesPerPixel {
                throw fail("stride=\(stride) is shorter than a row of \(g.width) pixels at \(f.bitsPerPixel) bpp (\(g.width * f.bytesPerPixel) bytes)")
            }
            file = (g.width, g.height, f, stride)
        case (_?, nil): throw fail("geometry= needs format= too (one of \(FramebufferPixelFormat.supportedNames)) to use a file as the framebuffer")
        case (nil, _?): throw fail("format= only applies with geometry= (a file standing in for the device); a device reports its own format")
        case (nil, nil):
            if stride != nil { throw fail("stride= only applies with geometry= and format= (a file standing in for the device)") }
            // A device by its path from /: a relative one (`device = 3` meaning fb3) would be
            // looked for in the daemon's working directory, and waited for there in vain.
            guard device.hasPrefix("/") else {
                throw fail("device=\(device): expected a framebuffer device's path such as /dev/fb0 (or geometry= and format= for a file standing in for one)")
            }
        }
    }
}
