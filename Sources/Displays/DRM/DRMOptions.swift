import Raster
import CompactText

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
    var scale: Int?
    var anchor = Anchor.center
    var offsetX = 0
    var offsetY = 0
    var rotation = Rotation.none
    var background = Color.black
    var console = FramebufferOptions.ConsolePolicy.graphics
    var buffering = FramebufferOptions.Buffering.auto
    var framesPerSecond = 30

    static let keys = ["device", "connector", "mode", "format", "size", "scale", "anchor", "x", "y", "rotate", "background",
                       "console", "buffers", "fps"]
    /// The formats a dumb buffer is created in: the two every KMS driver scans out.
    static let formats: [(name: String, format: FramebufferPixelFormat)] = [("xrgb8888", .xrgb8888), ("rgb565", .rgb565)]

    init(_ spec: DisplaySpec) throws(DisplaySpecError) {
        let text = spec.description
        func fail(_ message: String) -> DisplaySpecError { DisplaySpecError(spec: text, message: message) }
        func integer(_ key: String, _ value: String, _ range: ClosedRange<Int>) throws(DisplaySpecError) -> Int {
            guard let n = Int(value), range.contains(n) else {
                throw fail("\(key)=\(value): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return n
        }
        guard spec.type == "drm" || spec.type == "auto" else { throw fail("not a DRM spec (type '\(spec.type)', expected drm)") }
        for option in spec.options {
            let (key, value) = (option.key, option.value)
            switch key {
            case "device":
                guard value == "auto" || value.hasPrefix("/") else {
                    throw fail("device=\(value): expected auto or a path such as /dev/dri/card0")
                }
                device = value
            case "connector":
                guard !value.isEmpty else { throw fail("connector= needs a name such as HDMI-A-1 (see /sys/class/drm/card0-*)") }
                connector = value
            case "mode":
                guard let m = Self.parseMode(value) else {
                    throw fail("mode=\(value): expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. mode=1280x720 or mode=1920x1080@60")
                }
                mode = m
            case "format":
                guard let f = Self.formats.first(where: { $0.name == value.asciiLowercased() })?.format else {
                    throw fail("format=\(value): expected xrgb8888 or rgb565")
                }
                format = f
            case "size":
                let parts = value.asciiLowercased().split(separator: "x", omittingEmptySubsequences: false)
                guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
                      (1...Canvas.maximumSide).contains(w), (1...Canvas.maximumSide).contains(h) else {
                    throw fail("size=\(value): expected WIDTHxHEIGHT with sides from 1 to \(Canvas.maximumSide), e.g. size=64x32")
                }
                size = (w, h)
            case "scale": scale = try integer(key, value, 1...256)
            case "anchor":
                guard let a = Anchor(rawValue: value.asciiLowercased()) else {
                    throw fail("anchor=\(value): expected one of " + Anchor.allCases.map { $0.rawValue }.joined(separator: ", "))
                }
                anchor = a
            case "x": offsetX = try integer(key, value, -16384...16384)
            case "y": offsetY = try integer(key, value, -16384...16384)
            case "rotate":
                guard let n = Int(value), let r = Rotation(rawValue: n) else { throw fail("rotate=\(value): expected 0, 90, 180 or 270 (degrees clockwise)") }
                rotation = r
            case "background":
                do { background = try Color(parsing: value) } catch { throw fail("background=\(value): \(error.description)") }
                guard background.a == 255 else { throw fail("background=\(value): the background must be opaque") }
            case "console":
                guard let c = FramebufferOptions.ConsolePolicy(rawValue: value.asciiLowercased()) else {
                    throw fail("console=\(value): expected graphics (hide the kernel console while the splash is up) or keep (leave it alone)")
                }
                console = c
            case "buffers":
                guard let b = FramebufferOptions.Buffering(rawValue: value.asciiLowercased()) else {
                    throw fail("buffers=\(value): expected auto or 2 (page flips on vertical blank), or 1 (draw on screen, no flips)")
                }
                buffering = b
            case "fps": framesPerSecond = try integer(key, value, 1...240)
            default:
                throw fail("unknown key '\(key)' (accepted: \(Self.keys.joined(separator: ", ")))")
            }
        }
    }

    /// `1280x720` or `1280x720@60`.
    static func parseMode(_ text: String) -> DRMModeRequest? {
        let at = text.split(separator: "@", omittingEmptySubsequences: false)
        guard at.count <= 2 else { return nil }
        let parts = at[0].asciiLowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...16384).contains(w), (1...16384).contains(h) else { return nil }
        var refresh: Int?
        if at.count == 2 {
            guard let r = Int(at[1]), (1...1000).contains(r) else { return nil }
            refresh = r
        }
        return DRMModeRequest(width: w, height: h, refresh: refresh)
    }
}
