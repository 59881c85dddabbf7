import CLinux
import CommandLineKit
import CompactText

/// The options every daemon verb shares: where the socket is, how long to wait, and whether to
/// print the reply. They may also come before the verb (`loaderctl --socket PATH ping`).
struct ConnectionOptions {
    static let defaultSocket = "/run/loaderd/loaderd.sock"

    static let socketOption = OptionSpec(name: "socket", kind: .value, valueName: "PATH",
        help: "The daemon's control socket (default: $LOADERD_SOCKET, else /run/loaderd/loaderd.sock).")
    static let timeoutOption = OptionSpec(name: "timeout", kind: .value, valueName: "SECONDS",
        help: "Seconds to wait for the daemon to accept and answer; a busy one is asked again until then. (default: 5.0)")
    static let quietOption = OptionSpec(name: "quiet", short: "q", kind: .flag,
        help: "Print nothing on success (errors still go to standard error).")
    static let options = [socketOption, timeoutOption, quietOption]
    /// How the usage line of a daemon verb ends.
    static let usage = "[--socket <PATH>] [--timeout <SECONDS>] [--quiet]"

    var socket: String?
    var timeout: Double = 5
    var quiet = false

    init(_ parsed: ParsedArguments) throws(CommandError) {
        socket = parsed.last("socket")
        timeout = try Self.timeout(parsed)
        quiet = parsed.has("quiet")
        try Self.check(path: socketPath)
    }

    /// The offline verbs (render, preview) take these options so that a script's fixed prefix
    /// (`loaderctl -q --socket $S`) works with every verb; they use none of them (they print
    /// nothing on success that --quiet would silence). The values given are checked as a daemon
    /// verb checks them; $LOADERD_SOCKET, not given, is not.
    static func checkUnused(_ parsed: ParsedArguments) throws(CommandError) {
        _ = try timeout(parsed)
        if let socket = parsed.last("socket") { try check(path: socket) }
    }

    private static func timeout(_ parsed: ParsedArguments) throws(CommandError) -> Double {
        let timeout = try parsed.number(timeoutOption) { Double($0) } ?? 5
        guard timeout.isFinite, timeout > 0, timeout <= 3600 else {
            throw .usage("--timeout must be more than 0 and at most 3600 seconds, got \(timeout)")
        }
        return timeout
    }

    private static func check(path: String) throws(CommandError) {
        guard !path.isEmpty else { throw .usage("--socket must not be empty") }
        guard path.utf8.count < DaemonClient.maximumPathLength else {
            throw .usage("socket path '\(path)' is \(path.utf8.count) bytes; a Unix socket path must be shorter than \(DaemonClient.maximumPathLength)")
        }
        guard !path.utf8.contains(0) else { throw .usage("socket path must not contain a NUL byte") }
    }

    /// `--socket`, else a non-empty `$LOADERD_SOCKET`, else the default path.
    var socketPath: String {
        if let socket { return socket }
        if let env = getenv("LOADERD_SOCKET"), env.pointee != 0 { return String(cString: env) }
        return Self.defaultSocket
    }

    /// Sends one request line and returns the data of an `OK` reply (`""` for a bare `OK`).
    /// `ERR` fails with the daemon's message (exit 1); an unreachable daemon with exit 3.
    func send(_ request: String) throws(CommandError) -> String {
        let line: String
        do throws(RuntimeFailure) {
            line = TerminalText.escaped(try DaemonClient(path: socketPath, timeout: timeout).exchange(request))
        } catch {
            throw .failure(error)
        }
        switch DaemonReply(line) {
        case .ok(let data): return data
        case .err(_, let message): throw .failure(RuntimeFailure(message))
        case .unexpected(let text): throw .failure(RuntimeFailure("unexpected reply from loaderd at \(socketPath): '\(text)'"))
        }
    }

    /// Prints `text` as a line, unless --quiet.
    func say(_ text: String) {
        if !quiet { printOut(text + "\n") }
    }
}
