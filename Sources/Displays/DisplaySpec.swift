import CompactText

// Standard library only: this file is compiled into the config fuzzer as it is (Fuzz/ConfigFuzz).

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
        // On the UTF-8 bytes: the separators are ASCII, so every cut falls between two scalars.
        // (By Character, with grapheme breaking at every step, parsing one spec took ~19,000
        // instructions, twice at each start.) Integer positions in one array of the bytes: the
        // string view's own indices compiled to 3 KB more code on ARM.
        let bytes = Array(text.utf8)
        func string(_ from: Int, _ to: Int) -> String { String(decoding: bytes[from..<to], as: UTF8.self) }
        let colon = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.count
        guard colon > 0, bytes[..<colon].allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F }) else {
            throw DisplaySpecError(spec: text, message: "expected TYPE:key=value,... (e.g. fb:device=/dev/fb0,scale=4)")
        }
        var options: [Option] = []
        var start = colon + 1
        while start < bytes.count {
            var end = start, eq = -1
            while end < bytes.count && bytes[end] != UInt8(ascii: ",") {
                if eq < 0 && bytes[end] == UInt8(ascii: "=") { eq = end }
                end += 1
            }
            defer { start = end + 1 }
            if end == start { continue }
            guard eq > start else { throw DisplaySpecError(spec: text, message: filled("'{}' is not key=value", string(start, end))) }
            let key = string(start, eq)
            if options.contains(where: { $0.key == key }) {
                throw DisplaySpecError(spec: text, message: filled("'{}' is given twice", key))
            }
            options.append(Option(key, string(eq + 1, end)))
        }
        // ASCII only (checked above), lowered without the Unicode tables (Raster's asciiLowercased;
        // this file stays standard-library-only for the config fuzzer).
        self.type = String(decoding: bytes[..<colon].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
        self.options = options
    }

    public subscript(key: String) -> String? { options.first { $0.key == key }?.value }

    public var description: String {
        // One loop appending, not a map and a join (for size).
        var text = type
        for i in options.indices { text += filled("{}{}={}", i == 0 ? ":" : ",", options[i].key, options[i].value) }
        return text
    }
}

/// A malformed display spec, or an option it does not accept.
public struct DisplaySpecError: Error, Sendable, CustomStringConvertible, Equatable {
    public let spec: String
    public let message: String
    public init(spec: String, message: String) { self.spec = spec; self.message = message }
    public var description: String { filled("invalid display '{}': {}", spec, message) }
}
