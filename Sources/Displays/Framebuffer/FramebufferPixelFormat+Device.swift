import CLinux
import CompactText
import ScreenEncoding

/// A device whose pixel layout no encode path handles; the message names the layout.
struct UnsupportedPixelFormat: Error, CustomStringConvertible {
    let description: String
}

extension FramebufferPixelFormat {
    /// The bitfields of `fb_var_screeninfo` as a format (not necessarily a supported one).
    init(_ info: fb_var_screeninfo) {
        self.init(bitsPerPixel: Int(info.bits_per_pixel),
                  red: Field(offset: Int(info.red.offset), length: Int(info.red.length)),
                  green: Field(offset: Int(info.green.offset), length: Int(info.green.length)),
                  blue: Field(offset: Int(info.blue.offset), length: Int(info.blue.length)),
                  alpha: Field(offset: Int(info.transp.offset), length: Int(info.transp.length)))
    }

    /// The supported format a device reports, decided once at open, or why it is refused:
    /// packed-pixel truecolor only, one of `supported`, most significant bits on the left.
    static func resolve(_ info: fb_var_screeninfo, _ fix: fb_fix_screeninfo) -> Result<FramebufferPixelFormat, UnsupportedPixelFormat> {
        let described = FramebufferPixelFormat(info)
        let msbRight = info.red.msb_right != 0 || info.green.msb_right != 0 || info.blue.msb_right != 0
        let found = matching(bitsPerPixel: described.bitsPerPixel, red: described.red, green: described.green,
                             blue: described.blue, alpha: described.alpha, msbRight: msbRight)
        var problems = ""
        if fix.type != UInt32(FB_TYPE_PACKED_PIXELS) { problems += filled(", type {} (not packed pixels)", String(fix.type)) }
        if fix.visual != UInt32(FB_VISUAL_TRUECOLOR) { problems += filled(", visual {} (not truecolor)", String(fix.visual)) }
        if msbRight { problems += ", msb_right" }
        if let found, problems.isEmpty { return .success(found) }
        return .failure(UnsupportedPixelFormat(description:
            filled("unsupported pixel format: {}{}; supported: {} (switch the mode to 16 or 32 bpp, e.g. fbset -depth 32, or framebuffer_depth=32 in a Raspberry Pi's config.txt)",
                   described.description, problems, supportedFormatNames())))
    }
}

/// `FramebufferPixelFormat.supportedNames`, built by a loop in one place: its map and join were
/// copied into each of the four messages that name the formats (for size).
@inline(never) func supportedFormatNames() -> String {
    var text = ""
    for entry in FramebufferPixelFormat.supported { text += text.isEmpty ? entry.name : ", " + entry.name }
    return text
}
