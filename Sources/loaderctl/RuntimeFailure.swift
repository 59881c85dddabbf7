/// A failure of the environment (a file that cannot be written, a daemon that refuses or does not
/// answer), as opposed to a usage error: `LoaderCtl.main` prints `loaderctl: <description>` to
/// stderr, without the usage text that a `ValidationError` adds, and exits with `exitCode`.
struct RuntimeFailure: Error, CustomStringConvertible {
    let description: String
    let exitCode: Int32

    /// Exit 1: the request failed (the daemon answered ERR, a file could not be written).
    init(_ description: String) { self.description = description; self.exitCode = ExitStatus.failure }
    init(_ description: String, exitCode: Int32) { self.description = description; self.exitCode = exitCode }

    /// Exit 3: the daemon could not be reached (no socket, refused, closed, timed out).
    static func unreachable(_ description: String) -> RuntimeFailure {
        RuntimeFailure(description, exitCode: ExitStatus.unreachable)
    }
}

/// loaderctl's exit statuses, the same for every verb.
enum ExitStatus {
    /// Done.
    static let success: Int32 = 0
    /// The daemon answered `ERR` (its message is printed), or an offline verb failed.
    static let failure: Int32 = 1
    /// Bad command line: nothing was sent.
    static let usage: Int32 = 2
    /// The daemon could not be reached, or did not answer in time.
    static let unreachable: Int32 = 3
}
