import Raster
import CompactText
import ScreenEncoding

/// The `drm:` display spec, checked key by key. Placement keys mean what they mean for `fb:`
/// (the same `Placement` resolves them).
///
/// `drm:device=auto|/dev/dri/card0,connector=HDMI-A-1,mode=1920x1080@60,format=xrgb8888|rgb565,
/// size=64x32,scale=8,anchor=center,x=0,y=0,rotate=0,background=black,console=graphics|keep,
/// buffers=auto|1|2,fps=30`
struct DRMOptions: Sendable {
    /// `auto`: the first card with a connected output.
    var device = "auto"
    var connector: String?
    var mode: DRMModeRequest?
    /// nil: the driver's preferred depth decides (16: rgb565, else xrgb8888).
    var format: FramebufferPixelFormat?
    var size: (width: Int, height: Int)?
    /// scale, anchor, x, y, rotate, background, console, fps: the keys fb: takes too.
    var screen = ScreenKeys()
    var buffering = FramebufferOptions.Buffering.auto

    static let keys = ["device", "connector", "mode", "format", "size", "scale", "anchor", "x", "y", "rotate", "background",
                       "console", "buffers", "fps"]
    /// The formats a dumb buffer is created in: the two every KMS driver scans out.
    static let formats: [(name: String, format: FramebufferPixelFormat)] = [("xrgb8888", .xrgb8888), ("rgb565", .rgb565)]

    init(_ spec: DisplaySpec) throws(DisplaySpecError) {
        let text = spec.description
        func fail(_ message: String) -> DisplaySpecError { DisplaySpecError(spec: text, message: message) }
        guard spec.type == "drm" || spec.type == "auto" else { throw fail(filled("not a DRM spec (type '{}', expected drm)", spec.type)) }
        for option in spec.options {
            let (key, value) = (option.key, option.value)
            switch key {
            case "device":
                guard value == "auto" || value.hasPrefix("/") else {
                    throw fail(filled("device={}: expected auto or a path such as /dev/dri/card0", value))
                }
                device = value
            case "connector":
                guard !value.isEmpty else { throw fail("connector= needs a name such as HDMI-A-1 (see /sys/class/drm/card0-*)") }
                connector = value
            case "mode":
                guard let m = Self.parseMode(value) else {
                    throw fail(filled("mode={}: expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. mode=1280x720 or mode=1920x1080@60", value))
                }
                mode = m
            case "format":
                guard let f = Self.formats.first(where: { $0.name == value.asciiLowercased() })?.format else {
                    throw fail(filled("format={}: expected xrgb8888 or rgb565", value))
                }
                format = f
            case "size":
                guard let (w, h) = parseDimensions(value), (1...Canvas.maximumSide).contains(w), (1...Canvas.maximumSide).contains(h) else {
                    throw fail(filled("size={}: expected WIDTHxHEIGHT with sides from 1 to {}, e.g. size=64x32", value, String(Canvas.maximumSide)))
                }
                size = (w, h)
            case "buffers":
                guard let b = FramebufferOptions.Buffering(rawValue: value.asciiLowercased()) else {
                    throw fail(filled("buffers={}: expected auto or 2 (page flips on vertical blank), or 1 (draw on screen, no flips)", value))
                }
                buffering = b
            default:
                guard try screen.read(key, value, spec: text) else {
                    throw fail(filled("unknown key '{}' (accepted: {})", key, Self.keys.joined(separator: ", ")))
                }
            }
        }
    }

    /// `1280x720` or `1280x720@60`.
    static func parseMode(_ text: String) -> DRMModeRequest? {
        let at = text.split(separator: "@", omittingEmptySubsequences: false)
        guard at.count <= 2 else { return nil }
        guard let (w, h) = parseDimensions(String(at[0])), (1...16384).contains(w), (1...16384).contains(h) else { return nil }
        var refresh: Int?
        if at.count == 2 {
            guard let r = Int(at[1]), (1...1000).contains(r) else { return nil }
            refresh = r
        }
        return DRMModeRequest(width: w, height: h, refresh: refresh)
    }
}
