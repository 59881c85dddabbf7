import LinuxSystem
import CompactText

/// A transport failure a person can act on: the device, what failed, and what to do about it.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The device as the user named it (`/dev/spidev0.0`, `gpiochip0`).
    public let device: String
    /// What failed and, where there is one, the fix.
    public let message: String
    /// The system error behind it, if any.
    public let errno: Errno?

    public init(device: String, message: String, errno: Errno? = nil) {
        self.device = device; self.message = message; self.errno = errno
    }

    public var description: String { filled("{}: {}", device, message) }
}
