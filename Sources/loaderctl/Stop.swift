import CLinux
import CommandLineKit
import CompactText

// `stop`, and `stop --wait`. The protocol has no "finished" notification: the client asks
// `status` every 20 ms until it reports `idle` (or `running`: only someone else's `start` makes a
// stopped session look like that). The daemon reports `idle` only once the cleared frame is on
// every display that works (Sources/LoaderDaemon: sessionChanged, statusJSON).

enum StopVerb {
    static let modes = ["success", "failure", "now"]
    static let pollInterval: Int64 = 20_000  // µs

    static let waitOption = OptionSpec(name: "wait", kind: .flag,
        help: "Return only once the splash has finished drawing: the exit animation and the outcome mark are over and the display is clear (asks `status` every 20 ms).")
    static let waitTimeoutOption = OptionSpec(name: "wait-timeout", kind: .value, valueName: "SECONDS",
        help: "Give up waiting after this long: exit 1. (default: 30.0)")

    static let verb: Verb = {
        var page = HelpPage(
            abstract: "End the loader: its exit animation, then an optional outcome mark.",
            discussion: """
                Without an outcome the loader plays its exit animation and the display clears. \
                `success` or `failure` shows the outcome mark for a moment after it; `now` clears at once. \
                With --wait, loaderctl returns when that is over (prints `stopped`).
                """,
            usage: "loaderctl stop [<mode>] [--wait] [--wait-timeout <SECONDS>] " + ConnectionOptions.usage)
        page.arguments = [ArgumentSpec("<mode>", help: "success, failure or now (default: just the exit animation). (values: success, failure, now)")]
        page.options = [waitOption, waitTimeoutOption] + ConnectionOptions.options
        return Verb(name: "stop", page: page) { [page] (parsed) throws(CommandError) in
            let words = try parsed.verbArguments(required: [], optional: 1, options: page.options)
            if let mode = words.first, !modes.contains(mode) {
                throw .usage("The value '\(mode)' is invalid for '<mode>'; expected success, failure or now (or no mode: just the exit animation)")
            }
            let waitTimeout = try parsed.number(waitTimeoutOption) { Double($0) } ?? 30
            guard waitTimeout.isFinite, waitTimeout > 0, waitTimeout <= 3600 else {
                throw .usage("--wait-timeout must be more than 0 and at most 3600 seconds, got \(waitTimeout)")
            }
            // Said with no --wait, a time-out for a wait that never happens is a slip of the script.
            if parsed.last(waitTimeoutOption.name) != nil && !parsed.has("wait") {
                throw .usage("--wait-timeout is the longest --wait waits; give --wait too (or leave --wait-timeout out)")
            }
            let connection = try ConnectionOptions(parsed)
            let reply = try connection.send(words.first.map { "stop " + $0 } ?? "stop")
            connection.say(reply)
            if parsed.has("wait") {
                try waitUntilDrawn(connection, timeout: waitTimeout)
                if reply != "stopped" { connection.say("stopped") }
            }
        }
    }()

    /// Polls `status` until the daemon has drawn its last frame of the stopped loader.
    static func waitUntilDrawn(_ connection: ConnectionOptions, timeout: Double) throws(CommandError) {
        let deadline = monotonicMicroseconds() + Int64(timeout * 1_000_000)
        while true {
            let reply = try connection.send("status")
            guard let status = JSONValue(parsing: reply), let state = status["state"]?.string else {
                throw .failure(RuntimeFailure("the daemon's status has no state: \(reply)"))
            }
            if state == "idle" || state == "running" { return }
            if monotonicMicroseconds() >= deadline {
                throw .failure(RuntimeFailure("loaderd at \(connection.socketPath) was still drawing the exit (state '\(state)') after \(formatSeconds(timeout)) s (raise --wait-timeout)"))
            }
            sleepUntil(monotonicMicroseconds() + pollInterval)
        }
    }
}
