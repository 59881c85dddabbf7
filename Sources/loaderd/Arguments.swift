import CLinux

// loaderd's command line, parsed by hand. swift-argument-parser cost ~4 ms of CPU per start
// (type metadata, conformance scans and Mirror walks before the first frame; docs/PERFORMANCE.md,
// "The daemon"), more than the whole start-up budget; loaderctl keeps it. The help text, messages,
// exit codes (64 for usage errors) and the order in which errors are reported follow what
// ArgumentParser printed for this command, so scripts and users see no difference.

/// One option of `loaderd`, as its help lists it.
struct OptionSpec {
    enum Kind { case value, flag }
    let name: String  // without the leading "--"
    let kind: Kind
    let valueName: String?
    let help: String

    /// `--socket <PATH>`, `--plymouth`.
    var label: String {
        switch kind {
        case .flag: return "--" + name
        case .value: return "--\(name) <\(valueName ?? name)>"
        }
    }
}

/// Why the command line was refused: printed as ArgumentParser printed it, exit status 64.
struct UsageError: Error {
    let message: String
    /// The option whose value was missing or invalid: its help follows the message.
    var option: OptionSpec? = nil
}

/// The arguments as given: each option's values in order, flags, positionals, unknown options.
struct ParsedArguments {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var helpRequested = false
    var versionRequested = false
    var unknownOptions: [String] = []
    var positionals: [String] = []

    func last(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }
}

enum ArgumentSyntax {
    /// Splits the arguments. Errors found here (a missing value, a value given to a flag, `---x`)
    /// win over `--help`; unknown options and extra arguments are reported only after the
    /// values were converted and checked, as ArgumentParser did.
    static func parse(_ arguments: [String], options: [OptionSpec]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        func isOptionLike(_ word: String) -> Bool { word.utf8.count > 1 && word.utf8.first == UInt8(ascii: "-") }
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
                // -h, or a group of short flags or a single-dash long name: -h is the only short name.
                let body = word.dropFirst()
                let name = body.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
                if name.contains("h") { parsed.helpRequested = true } else { parsed.unknownOptions.append("-" + name) }
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
                parsed.flags.insert(name)
            case .value:
                let value: String
                if let attached {
                    guard !attached.isEmpty else { throw UsageError(message: "Missing value for '\(option.label)'", option: option) }
                    value = attached
                } else {
                    guard index < arguments.count, !isOptionLike(arguments[index]) else {
                        throw UsageError(message: "Missing value for '\(option.label)'", option: option)
                    }
                    value = arguments[index]
                    index += 1
                }
                parsed.values[name, default: []].append(value)
            }
        }
        return parsed
    }

    /// The error for what was left over: the first unknown option (with the closest long name
    /// when one is near), else the first extra argument.
    static func leftovers(_ parsed: ParsedArguments, options: [OptionSpec]) -> UsageError? {
        if let unknown = parsed.unknownOptions.first {
            let names = options.map { "--" + $0.name }  // ArgumentParser did not suggest --help or --version
            var best: (name: String, distance: Int)?
            for name in names {
                let distance = editDistance(name, unknown)
                if distance < 4, best == nil || distance < best!.distance { best = (name, distance) }
            }
            if let best { return UsageError(message: "Unknown option '\(unknown)'. Did you mean '\(best.name)'?") }
            return UsageError(message: "Unknown option '\(unknown)'")
        }
        if let extra = parsed.positionals.first { return UsageError(message: "Unexpected argument '\(extra)'") }
        return nil
    }

    /// Converts every value given for `option`, in order; the first that does not convert is the error.
    static func convert<T>(_ parsed: ParsedArguments, _ option: OptionSpec, _ convert: (String) -> T?) throws(UsageError) -> T? {
        var result: T?
        for value in parsed.all(option.name) {
            guard let converted = convert(value) else {
                throw UsageError(message: "The value '\(value)' is invalid for '\(option.label)'", option: option)
            }
            result = converted
        }
        return result
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

enum HelpText {
    static let labelColumn = 26

    /// The help ArgumentParser would print for these options at `width` columns.
    static func render(abstract: String, discussion: String, usage: String, options: [OptionSpec], width: Int) -> String {
        var text = wrap("OVERVIEW: " + abstract + "\n\n" + discussion, to: width) + "\n\n"
        text += "USAGE: " + usage + "\n\n"
        text += "OPTIONS:\n"
        var elements = options.map { ($0.label, $0.help) }
        elements.append(("--version", "Show the version."))
        elements.append(("-h, --help", "Show help information."))
        for (label, help) in elements {
            let padded = "  " + label
            let wrapped = wrap(help, to: width, indent: labelColumn)
            if padded.count < labelColumn {
                text += padded + String(wrapped.dropFirst(padded.count)) + "\n"
            } else {
                text += padded + "\n" + wrapped + "\n"
            }
        }
        return text
    }

    /// ArgumentParser's word wrap: lines of at most `width - indent` characters broken at the last
    /// space (a longer word stays whole), explicit line breaks kept, non-empty lines indented.
    static func wrap(_ string: String, to width: Int, indent: Int = 0) -> String {
        let columns = width - indent
        guard columns > 0 else { return "" }
        let text = Substring(string)
        var lines: [Substring] = []
        var current = text.startIndex
        while true {
            let chunk = text[current...].prefix(columns)
            if let lastBreak = chunk.lastIndex(of: "\n") {
                lines.append(contentsOf: text[current..<lastBreak].split(separator: "\n", omittingEmptySubsequences: false))
                current = text.index(after: lastBreak)
            } else if chunk.endIndex == text.endIndex {
                lines.append(text[current...])
                break
            } else if let lastSpace = chunk.lastIndex(of: " ") {
                lines.append(text[current..<lastSpace])
                current = text.index(after: lastSpace)
            } else if let nextSpace = text[current...].firstIndex(of: " ") {
                lines.append(text[current..<nextSpace])
                current = text.index(after: nextSpace)
            } else {
                lines.append(text[current...])
                break
            }
        }
        let pad = String(repeating: " ", count: indent)
        return lines.map { $0.isEmpty ? "" : pad + $0 }.joined(separator: "\n")
    }

    /// $COLUMNS, else the terminal's width on standard output, else 80 (as ArgumentParser).
    static var screenWidth: Int {
        if let columns = getenv("COLUMNS").flatMap({ Int(String(cString: $0)) }) { return columns }
        var columns: UInt16 = 0, rows: UInt16 = 0
        if loaderd_window_size(STDOUT_FILENO, &columns, &rows) == 0, columns > 0 { return Int(columns) }
        return 80
    }
}
