import CommandLineKit

/// A failure of the environment (a file that cannot be written, a daemon that refuses or does not
/// answer), as opposed to a usage error: `LoaderCtl.main` prints `loaderctl: <description>` to
/// stderr, without the usage text that a `UsageError` adds, and exits with `exitCode`.
struct RuntimeFailure: Error {
    let description: String
    let exitCode: Int32

    /// Exit 1: the request failed (the daemon answered ERR, a file could not be written).
    init(_ description: String) { self.description = description; self.exitCode = ExitCode.failure }
    init(_ description: String, exitCode: Int32) { self.description = description; self.exitCode = exitCode }

    /// Exit 3: the daemon could not be reached (no socket, refused, closed, timed out).
    static func unreachable(_ description: String) -> RuntimeFailure {
        RuntimeFailure(description, exitCode: ExitCode.unreachable)
    }
}
