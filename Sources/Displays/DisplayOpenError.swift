/// Why a display could not be opened: a spec it does not accept (names the key and what is
/// accepted), or a device problem (names the device, what failed and what to do).
public enum DisplayOpenError: Error, Sendable, CustomStringConvertible, Equatable {
    case spec(DisplaySpecError)
    case device(DisplayError)

    public var description: String {
        switch self {
        case .spec(let e): e.description
        case .device(let e): e.description
        }
    }
}

extension DisplayOpenError {
    /// This error as a `DisplaySpecError` of `spec`, for callers that report both kinds alike
    /// (the daemon's display factory); a device error keeps its message.
    public func asSpecError(_ spec: DisplaySpec) -> DisplaySpecError {
        switch self {
        case .spec(let e): e
        case .device(let e): DisplaySpecError(spec: spec.description, message: e.message)
        }
    }
}
