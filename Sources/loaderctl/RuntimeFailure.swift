/// A failure of the environment (a file that cannot be written, a daemon that does not answer),
/// as opposed to a usage error: ArgumentParser prints its description and exits 1, without the
/// usage text that a `ValidationError` adds.
struct RuntimeFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
