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
        let typePart: Substring, rest: Substring
        if let colon = text.firstIndex(of: ":") {
            typePart = text[..<colon]; rest = text[text.index(after: colon)...]
        } else {
            typePart = Substring(text); rest = ""
        }
        guard !typePart.isEmpty, typePart.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F }) else {
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
        // ASCII only (checked above), lowered without the Unicode tables (Raster's asciiLowercased;
        // this file stays standard-library-only for the config fuzzer).
        self.type = String(decoding: typePart.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
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
