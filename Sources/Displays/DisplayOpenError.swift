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
