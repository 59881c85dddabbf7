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
        func isOptionLike(_ word: String) -> Bool {
            guard word.utf8.count > 1, word.utf8.first == UInt8(ascii: "-"), !namesNoOption(word) else { return false }
            guard looksNegative(word) else { return true }
            let short = String(word.dropFirst())
            return options.contains(where: { $0.short == short })
        }
        func takeValue(_ option: OptionSpec, attached: String?) throws(UsageError) -> String {
            if let attached {
                guard !attached.isEmpty else { throw UsageError(message: "Missing value for '\(option.label)'", option: option) }
                return attached
            }
            guard index < arguments.count, !isOptionLike(arguments[index]) else {
                throw UsageError(message: "Missing value for '\(option.label)'", option: option)
            }
            index += 1
            return arguments[index - 1]
        }
        while index < arguments.count {
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
            if word.hasPrefix("---") { throw UsageError(message: "Invalid option: " + word) }
            if !word.hasPrefix("--") {
                // -h, a short alias (-o FILE, -q), or a single-dash long name.
                let body = word.dropFirst()
                let name = String(body.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0])
                if let option = options.first(where: { $0.short == name }) {
                    switch option.kind {
                    case .flag: parsed.flags.append(option.name)
                    case .value: parsed.values.append((option.name, try takeValue(option, attached: nil)))
                    }
                } else if name.contains("h") {
                    parsed.helpRequested = true
                } else {
                    parsed.unknownOptions.append("-" + name)
                }
                continue
            }
            let body = word.dropFirst(2)
            let parts = body.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let attached: String? = parts.count > 1 ? String(parts[1]) : nil
            if name == "help" { parsed.helpRequested = true; continue }
            if name == "version" { parsed.versionRequested = true; continue }
            guard let option = options.first(where: { $0.name == name }) else {
                parsed.unknownOptions.append("--" + name)
                continue
            }
            switch option.kind {
            case .flag:
                if let attached {
                    throw UsageError(message: "The option '--\(name)' does not take any value, but '\(attached)' was specified.")
                }
                parsed.flags.append(name)
            case .value:
                parsed.values.append((name, try takeValue(option, attached: attached)))
            }
        }
        return parsed
    }

    /// A word with a space before any `=`, such as `- item` or `-- Mounting --`: no option is
    /// named so, so it is text (a positional, or an option's value) wherever it stands.
    /// (`--message=two words` is still the option with its value.)
    public static func namesNoOption(_ word: String) -> Bool {
        word.utf8.prefix { $0 != UInt8(ascii: "=") }.contains(UInt8(ascii: " "))
    }

    /// `-20`, `-0.5`, `-.5`: a minus sign then a digit or a point.
    public static func looksNegative(_ word: String) -> Bool {
        let bytes = Array(word.utf8)
        guard bytes.count > 1, bytes[0] == UInt8(ascii: "-") else { return false }
        return (bytes[1] >= UInt8(ascii: "0") && bytes[1] <= UInt8(ascii: "9")) || bytes[1] == UInt8(ascii: ".")
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
        if let best { return UsageError(message: "Unknown option '\(unknown)'. Did you mean '\(best.name)'?") }
        return UsageError(message: "Unknown option '\(unknown)'")
    }

    /// The error for what was left over: the first unknown option, else the first extra
    /// argument (positionals from index `expected` on).
    public static func leftovers(_ parsed: ParsedArguments, options: [OptionSpec], expected: Int = 0) -> UsageError? {
        if let error = unknownOption(parsed, options: options) { return error }
        if parsed.positionals.count > expected {
            return UsageError(message: "Unexpected argument '\(parsed.positionals[expected])'")
        }
        return nil
    }

    /// Converts every value given for `option`, in order; the first that does not convert is the error.
    public static func convert<T>(_ parsed: ParsedArguments, _ option: OptionSpec, _ convert: (String) -> T?) throws(UsageError) -> T? {
        var result: T?
        for value in parsed.all(option.name) {
            guard let converted = convert(value) else {
                throw UsageError(message: "The value '\(value)' is invalid for '\(option.label)'", option: option)
            }
            result = converted
        }
        return result
    }
}
