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
        var text = HelpText.wrap(filled("OVERVIEW: {}{}", abstract, discussion.isEmpty ? "" : "\n\n" + discussion), to: width) + "\n\n"
        text += filled("USAGE: {}\n\n", usage)
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
            text += filled("\n{}\n", subcommandsFooter)
        }
        return text
    }
}

public enum HelpText {
    static let labelColumn = 26

    /// `  --label <V>           help…`: the help starts in column 26, or under a label too long for it.
    @inline(never)  // called at five places in `render`
    static func row(_ label: String, _ help: String, width: Int) -> String {
        wrap(help, to: width, indent: labelColumn, after: "  " + label) + "\n"
    }

    /// ArgumentParser's word wrap: lines of at most `width - indent` characters broken at the last
    /// space (a longer word stays whole), explicit line breaks kept, non-empty lines indented.
    public static func wrap(_ string: String, to width: Int, indent: Int = 0) -> String {
        wrap(string, to: width, indent: indent, after: "")
    }

    /// The same after `label` (ASCII), which stands in the first line's indent when it is shorter,
    /// else on a line of its own. Read as UTF-8 bytes, a character counted at each byte that
    /// starts a scalar (for size: no Character stepping; the help texts have no combining marks).
    static func wrap(_ string: String, to width: Int, indent: Int, after label: String) -> String {
        let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " ")
        var out = Array(label.utf8)
        var column = out.count  // where the first line goes on
        if column > 0 && column >= indent {
            out.append(newline)
            column = 0
        }
        let columns = width - indent
        let text = columns > 0 ? Array(string.utf8) : []  // no room: the label alone
        var first = true
        // One line: after a line break unless it is the first; indented unless it is empty.
        func line(_ start: Int, _ end: Int) {
            if !first {
                out.append(newline)
                column = 0
            }
            first = false
            if start < end {
                out.append(contentsOf: repeatElement(space, count: indent - column))
                out.append(contentsOf: text[start..<end])
            }
        }
        var current = 0
        while columns > 0 {
            // The chunk: at most `columns` characters from `current`.
            var end = current, counted = 0
            while end < text.count {
                if text[end] & 0xC0 != 0x80 {
                    if counted == columns { break }
                    counted += 1
                }
                end += 1
            }
            if let lastBreak = text[current..<end].lastIndex(of: newline) {
                var start = current
                for index in current..<lastBreak where text[index] == newline {
                    line(start, index)
                    start = index + 1
                }
                line(start, lastBreak)
                current = lastBreak + 1
            } else if end == text.count {
                line(current, end)
                break
            } else if let lastSpace = text[current..<end].lastIndex(of: space) {
                line(current, lastSpace)
                current = lastSpace + 1
            } else if let nextSpace = text[current...].firstIndex(of: space) {
                line(current, nextSpace)
                current = nextSpace + 1
            } else {
                line(current, text.count)
                break
            }
        }
        return String(decoding: out, as: UTF8.self)
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
    var text = filled("Error: {}\n", TerminalText.escaped(error.message))
    if let option = error.option { text += filled("Help:  {}  {}\n", option.label, option.help) }
    text += filled("Usage: {}\n  See '{}' for more information.\n", usage, helpCommand)
    printError(text)
    exit(ExitCode.usage)
}
