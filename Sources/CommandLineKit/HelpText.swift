import CLinux
import CompactText

/// A `--help` page in the layout ArgumentParser printed (the pinned texts in Tests/CLITests/Help):
/// OVERVIEW and discussion wrapped to the screen, USAGE as one line, then ARGUMENTS, OPTIONS and
/// SUBCOMMANDS with their help in a column.
public struct HelpPage: Sendable {
    public var abstract: String
    public var discussion: String = ""
    public var usage: String
    public var arguments: [ArgumentSpec] = []
    public var options: [OptionSpec] = []
    /// Whether OPTIONS lists `--version`.
    public var listsVersion = false
    /// Name and abstract of each subcommand, and the line that follows them.
    public var subcommands: [(name: String, abstract: String)] = []
    public var subcommandsFooter = ""

    public init(abstract: String, discussion: String = "", usage: String) {
        self.abstract = abstract
        self.discussion = discussion
        self.usage = usage
    }

    /// The page at `width` columns, ending with one newline.
    public func render(width: Int) -> String {
        var text = HelpText.wrap("OVERVIEW: " + abstract + (discussion.isEmpty ? "" : "\n\n" + discussion), to: width) + "\n\n"
        text += "USAGE: " + usage + "\n\n"
        if !arguments.isEmpty {
            text += "ARGUMENTS:\n"
            for argument in arguments { text += HelpText.row(argument.label, argument.help, width: width) }
            text += "\n"
        }
        text += "OPTIONS:\n"
        for option in options { text += HelpText.row(option.helpLabel, option.help, width: width) }
        if listsVersion { text += HelpText.row("--version", "Show the version.", width: width) }
        text += HelpText.row("-h, --help", "Show help information.", width: width)
        if !subcommands.isEmpty {
            text += "\nSUBCOMMANDS:\n"
            for command in subcommands { text += HelpText.row(command.name, command.abstract, width: width) }
            text += "\n" + subcommandsFooter + "\n"
        }
        return text
    }
}

public enum HelpText {
    static let labelColumn = 26

    /// `  --label <V>           help…`: the help starts in column 26, or under a label too long for it.
    static func row(_ label: String, _ help: String, width: Int) -> String {
        let padded = "  " + label
        let wrapped = wrap(help, to: width, indent: labelColumn)
        if padded.count < labelColumn { return padded + String(wrapped.dropFirst(padded.count)) + "\n" }
        return padded + "\n" + wrapped + "\n"
    }

    /// ArgumentParser's word wrap: lines of at most `width - indent` characters broken at the last
    /// space (a longer word stays whole), explicit line breaks kept, non-empty lines indented.
    public static func wrap(_ string: String, to width: Int, indent: Int = 0) -> String {
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
    public static var screenWidth: Int {
        if let columns = getenv("COLUMNS").flatMap({ Int(String(cString: $0)) }) { return columns }
        var columns: UInt16 = 0, rows: UInt16 = 0
        if loaderd_window_size(STDOUT_FILENO, &columns, &rows) == 0, columns > 0 { return Int(columns) }
        return 80
    }
}

/// A usage error as ArgumentParser printed it: the message, the option's help when one option is
/// at fault, the usage line and where to get help. Exits `ExitCode.usage`. The message repeats
/// the words at fault, as given: their control characters are written out (`TerminalText`).
public func exitWithUsageError(_ error: UsageError, usage: String, helpCommand: String) -> Never {
    var text = "Error: " + TerminalText.escaped(error.message) + "\n"
    if let option = error.option { text += "Help:  \(option.label)  \(option.help)\n" }
    text += "Usage: " + usage + "\n  See '" + helpCommand + "' for more information.\n"
    printError(text)
    exit(ExitCode.usage)
}
