import Raster
import CompactText
/// Why an image could not be chosen, encoded, decoded, read or written.
///
/// The description names the file (when there is one) and the reason, e.g.
/// `cannot write /x/y.png: No such file or directory`. In-memory encoders and decoders throw it
/// with `path == nil` ("cannot encode PNG data: …"); the file functions attach the path.
public struct ImageCodecError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Operation: String, Sendable, Hashable {
        case chooseFormat
        case encode
        case decode
        case read
        case write
    }

    public var operation: Operation
    /// The file concerned, or nil for in-memory data.
    public var path: String?
    /// The format concerned, when known.
    public var format: ImageFormat?
    /// What went wrong (a system error string, a libpng/giflib message, or our own check).
    public var reason: String

    public init(_ operation: Operation, path: String? = nil, format: ImageFormat? = nil, reason: String) {
        self.operation = operation
        self.path = path
        self.format = format
        self.reason = reason
    }

    public var description: String {
        switch (operation, path) {
        case (.chooseFormat, let path?):
            return filled("cannot choose an image format for {}: {}", path, reason)
        case (.chooseFormat, nil):
            return filled("cannot choose an image format: {}", reason)
        case (_, let path?):
            return filled("cannot {} {}: {}", operation.rawValue, path, reason)
        case (_, nil):
            let what = format.map { filled("{} data", $0.name) } ?? "image data"
            return filled("cannot {} {}: {}", operation.rawValue, what, reason)
        }
    }

    /// This error re-expressed as a failure to read or write `path` (keeping the reason).
    func at(path: String, _ operation: Operation) -> ImageCodecError {
        ImageCodecError(operation, path: path, format: format, reason: reason)
    }
}

/// The image file formats `loaderctl render` writes, chosen by file extension.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    /// Binary PPM (P6), 8-bit RGB: trivial to diff and to read back in tests.
    case ppm
    /// 8-bit RGB PNG via libpng's simplified API.
    case png
    /// Animated GIF (GIF89a, loops forever) via giflib.
    case gif

    /// The accepted extensions, lower case with the dot (matching is case-insensitive).
    public static var extensions: [String] { allCases.map { "." + $0.rawValue } }

    /// Upper-case name for messages ("PNG").
    public var name: String { rawValue.asciiUppercased() }

    /// Whether the format holds more than one frame.
    public var isAnimated: Bool { self == .gif }

    /// The format named by `path`'s extension (case-insensitive). `expected`: the formats the
    /// caller takes, which an error for a missing or unknown extension lists (the image display
    /// takes two of the three: its message must not offer .gif). A known format outside them is
    /// still returned, for the caller to refuse with its own reason.
    public init(path: String, expected: [ImageFormat] = ImageFormat.allCases) throws(ImageCodecError) {
        let file = path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path)
        let names = expected.map { "." + $0.rawValue }
        let accepted = names.count == 2 ? filled("{} or {}", names[0], names[1]) : "one of " + names.joined(separator: ", ")
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else {
            throw ImageCodecError(.chooseFormat, path: path, reason: filled("no file extension (expected {})", accepted))
        }
        let ext = file[file.utf8.index(after: dot)...]  // bytes: no Character walk, for size
        guard let format = ImageFormat(rawValue: ext.asciiLowercased()) else {
            throw ImageCodecError(.chooseFormat, path: path,
                                  reason: filled("unknown extension '.{}' (expected {})", String(ext), accepted))
        }
        self = format
    }
}
