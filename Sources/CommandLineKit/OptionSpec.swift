import CompactText

// The vocabulary of a command line as loaderd and loaderctl describe theirs: options, positional
// arguments and the usage error. Board code (Embedded Swift): no reflection, no existentials, so
// each program lists its options as data and reads the parsed words itself.

/// One option, as the help lists it.
public struct OptionSpec: Sendable {
    public enum Kind: Sendable { case value, flag }
    public let name: String  // without the leading "--"
    /// A one-letter alias (`o` for `-o`), or nil.
    public let short: String?
    public let kind: Kind
    public let valueName: String?
    public let help: String

    public init(name: String, short: String? = nil, kind: Kind, valueName: String? = nil, help: String) {
        self.name = name
        self.short = short
        self.kind = kind
        self.valueName = valueName
        self.help = help
    }

    /// `--socket <PATH>`, `--plymouth`: how messages name the option.
    public var label: String {
        switch kind {
        case .flag: return "--" + name
        case .value: return filled("--{} <{}>", name, valueName ?? name)
        }
    }

    /// `-o, --output <FILE>`: how the help lists it.
    public var helpLabel: String { (short.map { filled("-{}, ", $0) } ?? "") + label }
}

/// A positional argument, as the help's ARGUMENTS section lists it.
public struct ArgumentSpec: Sendable {
    public let label: String  // `<PERCENT>`
    public let help: String

    public init(_ label: String, help: String) {
        self.label = label
        self.help = help
    }
}

/// Why the command line was refused: nothing was done; the program prints it and exits
/// `ExitCode.usage`.
public struct UsageError: Error, Sendable {
    public let message: String
    /// The option whose value was missing or invalid: its help follows the message.
    public var option: OptionSpec?

    public init(message: String, option: OptionSpec? = nil) {
        self.message = message
        self.option = option
    }
}

/// The exit statuses both programs share (docs/PROTOCOL.md, "Exit status").
public enum ExitCode {
    /// Done.
    public static let success: Int32 = 0
    /// The request failed: the daemon answered `ERR`, a file could not be written, the daemon
    /// could not start.
    public static let failure: Int32 = 1
    /// Bad command line: nothing was done (nothing sent).
    public static let usage: Int32 = 2
    /// loaderctl only: the daemon could not be reached, or did not answer in time.
    public static let unreachable: Int32 = 3
}

/// The release both programs print for `--version`. loaderd's protocol reply (`version`) uses
/// LoaderDaemonVersion; Tests/CLITests checks that the two agree.
public enum ProjectVersion {
    public static let version = "0.1.0"
}
