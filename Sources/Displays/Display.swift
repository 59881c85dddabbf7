import Raster

/// Something that shows frames: a framebuffer, an LED matrix, an image file, a terminal.
///
/// A display is opened once (all format, rotation and scale decisions are made then) and owns
/// its resources until `close()` (or deinit). Per frame the daemon renders the scene into a canvas
/// of `canvasWidth × canvasHeight` and calls `show`, which maps, encodes and writes only what
/// changed. Errors are environment errors (a device unplugged, a full disk): the daemon reports
/// them and keeps running; they never trap.
public protocol Display: AnyObject {
    /// A short human name, e.g. `fb:/dev/fb0` or `image:/run/loaderd/frame.png`.
    var name: String { get }
    /// The size of the low-resolution canvas this display wants frames in.
    var canvasWidth: Int { get }
    var canvasHeight: Int { get }
    /// Frames per second while animating (each display may differ).
    var framesPerSecond: Int { get }

    /// Shows `canvas` (exactly `canvasWidth × canvasHeight`), writing only what changed since the
    /// previous frame.
    func show(_ canvas: Canvas) throws(DisplayError)

    /// Blanks the display (background colour, or off for LEDs).
    func clear() throws(DisplayError)

    /// Releases the device, restoring whatever was changed at open (e.g. the console mode).
    /// Safe to call twice.
    func close()

    /// Whether each pixel is only on or off (a MAX7219 matrix): the scene then draws loaders'
    /// monochrome designs. False unless a display says otherwise.
    var isMonochrome: Bool { get }
}

extension Display {
    public var isMonochrome: Bool { false }
}

/// A display failure a person can act on: names the display, what failed and a hint.
public struct DisplayError: Error, Sendable, CustomStringConvertible, Equatable {
    public let display: String
    public let message: String
    public init(display: String, message: String) { self.display = display; self.message = message }
    public var description: String { "\(display): \(message)" }
}

/// A display as written on the command line or in the config: `TYPE:key=value,key=value`,
/// e.g. `fb:device=/dev/fb0,scale=4` or `image:path=/tmp/frame.png,size=64x32`.
public struct DisplaySpec: Sendable, Equatable, CustomStringConvertible {
    public var type: String
    public var options: [Option]

    public struct Option: Sendable, Equatable {
        public var key: String
        public var value: String
        public init(_ key: String, _ value: String) { self.key = key; self.value = value }
    }

    public init(type: String, options: [Option]) { self.type = type; self.options = options }

    /// Parses `TYPE[:key=value[,key=value]...]`. Values cannot contain commas.
    public init(parsing text: String) throws(DisplaySpecError) {
        let typePart: Substring, rest: Substring
        if let colon = text.firstIndex(of: ":") {
            typePart = text[..<colon]; rest = text[text.index(after: colon)...]
        } else {
            typePart = Substring(text); rest = ""
        }
        guard !typePart.isEmpty, typePart.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw DisplaySpecError(spec: text, message: "expected TYPE:key=value,... (e.g. fb:device=/dev/fb0,scale=4)")
        }
        var options: [Option] = []
        for item in rest.split(separator: ",", omittingEmptySubsequences: true) {
            guard let eq = item.firstIndex(of: "="), eq != item.startIndex else {
                throw DisplaySpecError(spec: text, message: "'\(item)' is not key=value")
            }
            let key = String(item[..<eq])
            if options.contains(where: { $0.key == key }) {
                throw DisplaySpecError(spec: text, message: "'\(key)' is given twice")
            }
            options.append(Option(key, String(item[item.index(after: eq)...])))
        }
        self.type = String(typePart).lowercased()
        self.options = options
    }

    public subscript(key: String) -> String? { options.first { $0.key == key }?.value }

    public var description: String {
        options.isEmpty ? type : type + ":" + options.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }
}

/// A malformed display spec, or an option it does not accept.
public struct DisplaySpecError: Error, Sendable, CustomStringConvertible, Equatable {
    public let spec: String
    public let message: String
    public init(spec: String, message: String) { self.spec = spec; self.message = message }
    public var description: String { "invalid display '\(spec)': \(message)" }
}
