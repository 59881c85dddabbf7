// Standard library only: this file is compiled into the Plymouth fuzzer as it is
// (Fuzz/PlymouthFuzz). docs/PROTOCOL.md ("Plymouth front end") and /work/shared/PROTOCOLS.md
// ("Plymouth socket") are the specification; plymouth's src/ply-boot-protocol.h the source.

/// Plymouth's request and reply bytes (ply-boot-protocol.h).
public enum PlymouthWire {
    public static let noArgument: UInt8 = 0x00
    public static let argumentFollows: UInt8 = 0x02
    public static let ack: UInt8 = 0x06
    public static let nak: UInt8 = 0x15
    public static let answer: UInt8 = 0x02
    public static let multipleAnswers: UInt8 = 0x09
    public static let noAnswer: UInt8 = 0x05

    /// The name plymouthd listens on (abstract, bound with the trimmed address length).
    public static let socketName = "/org/freedesktop/plymouthd"
    /// The name old clients try (abstract, full-length NUL-padded address).
    public static let oldSocketName = "/ply-boot-protocol"
}

/// One reply of the Plymouth protocol.
public enum PlymouthReply: Equatable, Sendable {
    case ack
    case nak
    case noAnswer
    case answer([UInt8])
    case multipleAnswers([[UInt8]])

    /// The bytes on the wire: one byte, or the type byte, a uint32 little-endian length and the
    /// bytes (NUL-separated strings for several answers).
    public var bytes: [UInt8] {
        switch self {
        case .ack: return [PlymouthWire.ack]
        case .nak: return [PlymouthWire.nak]
        case .noAnswer: return [PlymouthWire.noAnswer]
        case .answer(let data): return Self.withLength(PlymouthWire.answer, data)
        case .multipleAnswers(let list):
            var data: [UInt8] = []
            for (i, item) in list.enumerated() {
                if i > 0 { data.append(0) }
                data += item
            }
            return Self.withLength(PlymouthWire.multipleAnswers, data)
        }
    }

    private static func withLength(_ type: UInt8, _ data: [UInt8]) -> [UInt8] {
        let n = UInt32(truncatingIfNeeded: data.count)
        return [type, UInt8(n & 0xFF), UInt8((n >> 8) & 0xFF), UInt8((n >> 16) & 0xFF), UInt8(n >> 24)] + data
    }
}

/// One request: the command byte and its argument (without the final NUL), nil when the request
/// had none.
public struct PlymouthRequest: Equatable, Sendable {
    public var command: UInt8
    public var argument: [UInt8]?
    public init(command: UInt8, argument: [UInt8]?) { self.command = command; self.argument = argument }

    /// The argument as C reads it (up to its first NUL), as text (invalid UTF-8 replaced).
    public var text: String {
        guard let argument else { return "" }
        let end = argument.firstIndex(of: 0) ?? argument.endIndex
        return String(decoding: argument[..<end], as: UTF8.self)
    }

    /// The request's bytes, as the `plymouth` client writes them.
    public var bytes: [UInt8] {
        guard let argument else { return [command, PlymouthWire.noArgument] }
        precondition(argument.count < 255, "a Plymouth argument is at most 254 bytes")
        return [command, PlymouthWire.argumentFollows, UInt8(argument.count + 1)] + argument + [0]
    }
}

/// Why a connection's byte stream is not Plymouth's protocol: the connection is dropped.
public enum PlymouthFramingError: Error, Equatable, Sendable {
    /// The byte after the command is neither 0x00 (no argument) nor 0x02 (argument follows).
    case badHeader(UInt8)
    /// An argument length of 0 (it counts the final NUL, so is at least 1).
    case zeroLength
    /// The argument's last byte is not the NUL it must end with.
    case missingNUL
}

/// Incremental parser of a request stream: pipelined requests, requests split across reads.
/// Holds at most one argument (≤ 255 bytes), so its memory is bounded by the protocol itself.
public struct PlymouthParser {
    private enum Stage { case command, header, length, argument }
    private var stage = Stage.command
    private var command: UInt8 = 0
    private var remaining = 0
    private var argument: [UInt8] = []
    /// Set on the first error; after it the parser consumes nothing more.
    public private(set) var error: PlymouthFramingError?

    public init() { argument.reserveCapacity(255) }

    /// Whether a request has begun but not ended.
    public var isInsideRequest: Bool { stage != .command }

    /// Feeds one chunk; `body` gets each complete request in order. Returns the first framing
    /// error (then and later: the caller drops the connection, requests before it were handed out).
    @discardableResult
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (PlymouthRequest) -> Void) -> PlymouthFramingError? {
        if let error { return error }
        for byte in chunk {
            switch stage {
            case .command:
                command = byte
                stage = .header
            case .header:
                switch byte {
                case PlymouthWire.noArgument:
                    stage = .command
                    body(PlymouthRequest(command: command, argument: nil))
                case PlymouthWire.argumentFollows:
                    stage = .length
                default:
                    error = .badHeader(byte)
                    return error
                }
            case .length:
                guard byte > 0 else { error = .zeroLength; return error }
                remaining = Int(byte)
                argument.removeAll(keepingCapacity: true)
                stage = .argument
            case .argument:
                remaining -= 1
                if remaining > 0 {
                    argument.append(byte)
                } else {
                    guard byte == 0 else { error = .missingNUL; return error }
                    stage = .command
                    body(PlymouthRequest(command: command, argument: argument))
                }
            }
        }
        return nil
    }
}
