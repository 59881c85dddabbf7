import CompactText

// Splitting a command line into options and positionals, the way swift-argument-parser did for
// these programs before they parsed by hand (its help and error texts are pinned by
// Tests/CLITests): `--name value`, `--name=value`, flags, `-h`, `--` ends the options.

/// The arguments as given: each option's values in order, flags, positionals, unknown options.
/// (A command line has a handful of options: lists searched from the end, not dictionaries, whose
/// hashing code a board binary would carry for them alone.)
public struct ParsedArguments {
    /// Every option's value in the order given.
    public var values: [(name: String, value: String)] = []
    public var flags: [String] = []
    public var helpRequested = false
    public var versionRequested = false
    public var unknownOptions: [String] = []
    public var positionals: [String] = []

    public init() {}

    public func last(_ name: String) -> String? { values.last(where: { $0.name == name })?.value }
    public func all(_ name: String) -> [String] { values.filter { $0.name == name }.map { $0.value } }
    public func has(_ flag: String) -> Bool { flags.contains(flag) }
}

public enum ArgumentSyntax {
    /// Splits the arguments. Errors found here (a missing value, a value given to a flag, `---x`)
    /// win over `--help`; unknown options and extra arguments are left for `leftovers`, so a
    /// program reports them after its own checks, as ArgumentParser did.
    ///
    /// A word such as `-20` or `-.5` is a value (`--timeout -1`) or a positional (`progress -20`,
    /// `brightness -1`), not a group of short options, unless an option is spelled so: the
    /// number then reaches its option's own range check, whose message says what is accepted,
    /// instead of being reported as a missing value. A word with a space (`- item`) is text.
    public static func parse(_ arguments: [String], options: [OptionSpec]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        // The first error, thrown at one place (each throw was code of its own).
        var failure: UsageError? = nil
        func isOptionLike(_ word: String) -> Bool {
            guard word.utf8.count > 1, word.utf8.first == UInt8(ascii: "-"), !namesNoOption(word) else { return false }
            guard looksNegative(word) else { return true }
            return options.contains(where: { $0.short.map { "-" + $0 == word } ?? false })
        }
        // Read on UTF-8 bytes, as every test of a dash or `=` here is of one ASCII byte (for size:
        // no Character stepping).
        words: while index < arguments.count {
            let word = arguments[index]
            index += 1
            if onlyPositionals || !isOptionLike(word) {
                parsed.positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            // -h, a short alias (-o FILE, -q), or a single-dash long name; else `--name[=value]`.
            var dashes = 0
            for byte in word.utf8 {
                guard byte == UInt8(ascii: "-"), dashes < 3 else { break }
                dashes += 1
            }
            if dashes == 3 {
                failure = UsageError(message: "Invalid option: " + word)
                break
            }
            let long = dashes == 2
            let (name, attachedValue) = cut(word, from: dashes, at: UInt8(ascii: "="))
            guard let option = options.first(where: { long ? $0.name == name : $0.short == name }) else {
                if long ? name == "help" : name.utf8.contains(UInt8(ascii: "h")) {
                    parsed.helpRequested = true
                } else if long && name == "version" {
                    parsed.versionRequested = true
                } else {
                    parsed.unknownOptions.append((long ? "--" : "-") + name)
                }
                continue
            }
            let attached = long ? attachedValue : nil  // a short option's `=...` is not read
            switch option.kind {
            case .flag:
                if let attached {
                    failure = UsageError(message: filled("The option '--{}' does not take any value, but '{}' was specified.", name, attached))
                    break words
                }
                parsed.flags.append(option.name)
            case .value:
                var value = attached
                if attached == nil, index < arguments.count, !isOptionLike(arguments[index]) {
                    value = arguments[index]
                    index += 1
                }
                // `--name=` has no value; `--name ''` has an empty one.
                guard let value, !(attached?.isEmpty ?? false) else {
                    failure = UsageError(message: filled("Missing value for '{}'", option.label), option: option)
                    break words
                }
                parsed.values.append((option.name, value))
            }
        }
        if let failure { throw failure }
        return parsed
    }

    /// `text` from its byte `start` on, cut at its first `separator` (an ASCII byte): the part
    /// before it, and the part after it (nil without one). On the UTF-8 bytes, for size: String
    /// indices and Character stepping were more code.
    @inline(never)
    public static func cut(_ text: String, from start: Int = 0, at separator: UInt8) -> (head: String, tail: String?) {
        var text = text
        return text.withUTF8 { bytes in
            let rest = bytes[start...]
            guard let at = rest.firstIndex(of: separator) else {
                return (String(decoding: UnsafeBufferPointer(rebasing: rest), as: UTF8.self), nil)
            }
            return (String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self),
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[(at + 1)...]), as: UTF8.self))
        }
    }

    /// A word with a space before any `=`, such as `- item` or `-- Mounting --`: no option is
    /// named so, so it is text (a positional, or an option's value) wherever it stands.
    /// (`--message=two words` is still the option with its value.)
    public static func namesNoOption(_ word: String) -> Bool {
        word.utf8.prefix { $0 != UInt8(ascii: "=") }.contains(UInt8(ascii: " "))
    }

    /// `-20`, `-0.5`, `-.5`: a minus sign then a digit or a point.
    public static func looksNegative(_ word: String) -> Bool {
        var bytes = word.utf8.makeIterator()
        guard bytes.next() == UInt8(ascii: "-"), let second = bytes.next() else { return false }
        return (second >= UInt8(ascii: "0") && second <= UInt8(ascii: "9")) || second == UInt8(ascii: ".")
    }

    /// The error for the first unknown option (with the closest long name when one is near).
    public static func unknownOption(_ parsed: ParsedArguments, options: [OptionSpec]) -> UsageError? {
        guard let unknown = parsed.unknownOptions.first else { return nil }
        var best: (name: String, distance: Int)?
        for option in options {  // ArgumentParser did not suggest --help or --version
            let name = "--" + option.name
            let distance = editDistance(name, unknown)
            if distance < 4, best == nil || distance < best!.distance { best = (name, distance) }
        }
        if let best { return UsageError(message: filled("Unknown option '{}'. Did you mean '{}'?", unknown, best.name)) }
        return UsageError(message: filled("Unknown option '{}'", unknown))
    }

    /// The error for what was left over: the first unknown option, else the first extra
    /// argument (positionals from index `expected` on).
    public static func leftovers(_ parsed: ParsedArguments, options: [OptionSpec], expected: Int = 0) -> UsageError? {
        if let error = unknownOption(parsed, options: options) { return error }
        if parsed.positionals.count > expected {
            return UsageError(message: filled("Unexpected argument '{}'", parsed.positionals[expected]))
        }
        return nil
    }

    /// Converts every value given for `option`, in order; the first that does not convert is the error.
    public static func convert<T>(_ parsed: ParsedArguments, _ option: OptionSpec, _ convert: (String) -> T?) throws(UsageError) -> T? {
        var result: T?
        for value in parsed.all(option.name) {
            guard let converted = convert(value) else {
                throw UsageError(message: filled("The value '{}' is invalid for '{}'", value, option.label), option: option)
            }
            result = converted
        }
        return result
    }
}
