import FixedPoint
import Loaders

/// The loader being shown: what `start` made, when, and whether it was asked to stop.
/// A class, not a struct: each copy of the struct (a loader, its parameters) retained and
/// released every field through a large outlined copy; a reference is one retain (for size).
/// Only `stop` changes, and only through `DaemonState.session`.
final class Session {
    let name: String
    let assignments: [Assignment]
    /// The values `assignments` gave, with the defaults: what "the same parameters" compares.
    let parameters: Parameters
    let loader: AnyLoader
    /// CLOCK_MONOTONIC nanoseconds of `start`: elapsed time is derived from it, never accumulated.
    let startedAt: Int64
    var stop: StopState?

    init(name: String, assignments: [Assignment], parameters: Parameters, loader: AnyLoader, startedAt: Int64, stop: StopState?) {
        self.name = name
        self.assignments = assignments
        self.parameters = parameters
        self.loader = loader
        self.startedAt = startedAt
        self.stop = stop
    }
}

/// What the commands change: the session, the progress, the message, the brightness.
struct DaemonState {
    var session: Session?
    /// The value `progress` last set (what `status` and the monotonic check use).
    var progressTarget: Percent?
    /// The displayed progress and its animation, in the session's time.
    var progress: ProgressState?
    /// The message as it was given (what `status` says).
    var message: String? { didSet { drawnMessage = message.map(Self.drawn) } }
    /// The message as it is drawn (`drawn(_:)`): set with `message`, not made a frame.
    private(set) var drawnMessage: String?
    var brightness = 100
    /// Test mode: the elapsed time of every frame.
    let frozen: Microseconds?

    init(frozen: Microseconds?) { self.frozen = frozen }

    func elapsed(now: Int64) -> Microseconds {
        if let frozen { return frozen }
        guard let startedAt = session?.startedAt else { return 0 }  // not the whole session copied
        return Swift.max(0, (now - startedAt) / 1000)
    }

    /// Inlined into the daemon, which asks for it every frame: called, it took a copy of the
    /// whole state out of the daemon object first.
    @inline(__always)
    func frameState(now: Int64) -> FrameState {
        FrameState(elapsed: elapsed(now: now), progress: progress, message: drawnMessage, stop: session?.stop)
    }

    /// A message as a person reads it: a line or paragraph separator (U+2028, U+2029, U+0085:
    /// the protocol's line is the message, so they cannot break it) is a space, and the
    /// characters that are invisible by definition (soft hyphen, zero-width space and joiners,
    /// the direction marks and isolates, word joiner, byte-order mark) are left out. Drawn, each
    /// was the fonts' replacement glyph. The text itself when there is none (no copy).
    /// Read as UTF-8 bytes in one pass, not scalar by scalar (for size): every character it
    /// changes is two bytes led by 0xC2 or three led by 0xE2 or 0xEF.
    static func drawn(_ text: String) -> String {
        func invisible(_ v: UInt32) -> Bool {
            v == 0xAD || (0x200B...0x200F).contains(v) || (0x202A...0x202E).contains(v)
                || (0x2060...0x2064).contains(v) || (0x2066...0x2069).contains(v) || v == 0xFEFF
        }
        func separator(_ v: UInt32) -> Bool { v == 0x2028 || v == 0x2029 || v == 0x85 }
        let bytes = RequestParser.bytes(text)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var changed = false
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            // The scalar's value when it may be one of those (0: it is not), and its length.
            var value: UInt32 = 0, length = 1
            if b == 0xC2 && i + 1 < bytes.count {
                value = UInt32(bytes[i + 1])  // U+0080...U+00BF
                length = 2
            } else if (b == 0xE2 || b == 0xEF) && i + 2 < bytes.count {
                value = UInt32(b & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
                length = 3
            }
            if value != 0 && (invisible(value) || separator(value)) {
                changed = true
                if separator(value) { RequestParser.append(0x20, to: &out) }
                i += length
            } else {
                RequestParser.append(b, to: &out)
                i += 1
            }
        }
        return changed ? RequestParser.text(out[...]) : text
    }

    static func fixed(_ p: Percent) -> Fixed { Fixed.ratio(Int64(p.thousandths), 100_000) }

    /// Sets the progress (already checked for monotony), animated from what is shown now.
    mutating func setProgress(_ value: Percent, now: Int64) {
        progressTarget = value
        let target = Self.fixed(value)
        if frozen != nil {
            progress = ProgressState(target)  // a frozen clock never gets through the smoothing
        } else {
            let t = elapsed(now: now)
            progress = progress?.retargeted(to: target, at: t) ?? ProgressState(from: .zero, to: target, changedAt: t)
        }
    }

    /// A new session starts at `now`; a progress already set carries over, settled.
    mutating func start(name: String, assignments: [Assignment], parameters: Parameters, loader: AnyLoader, now: Int64) {
        session = Session(name: name, assignments: assignments, parameters: parameters, loader: loader, startedAt: now, stop: nil)
        if let progressTarget { progress = ProgressState(Self.fixed(progressTarget)) }
    }

    /// The session is over: back to idle. The message stays (it belongs to the boot, not the loader).
    mutating func end() {
        session = nil
        progress = nil
        progressTarget = nil
    }
}
