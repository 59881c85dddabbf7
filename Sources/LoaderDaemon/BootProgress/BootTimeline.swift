import CLinux
import LinuxSystem
import CompactText

/// One boot as the Plymouth front end saw it: when each unit became active (PID 1's `U`
/// messages), in microseconds since loaderd started, and when the boot ended (`Q`).
///
/// Saved at quit, read at the next start: the file is small text, one unit per line, written
/// atomically (a temporary file in the same directory, fsync, rename):
/// ```
/// loaderd-boot-timeline 1
/// total 3.012
/// 0.051 systemd-udevd.service
/// 0.140 systemd-journald.service
/// ```
/// Seconds have three decimals. A unit appears once (its first activation).
public struct BootTimeline: Equatable, Sendable {
    public static let defaultPath = "/var/lib/loaderd/boot-timeline"
    static let header = "loaderd-boot-timeline 1"
    /// Most units kept (a big server boots a few hundred).
    public static let maximumUnits = 4096

    public var total: Int64
    public var units: [(name: String, at: Int64)]

    public init(total: Int64, units: [(name: String, at: Int64)]) { self.total = total; self.units = units }

    public static func == (a: BootTimeline, b: BootTimeline) -> Bool {
        a.total == b.total && a.units.count == b.units.count
            && zip(a.units, b.units).allSatisfy { $0.name == $1.name && $0.at == $1.at }
    }

    // MARK: Text

    public var text: String {
        var out = Self.header + "\n" + "total " + Self.seconds(total) + "\n"
        for unit in units { out += Self.seconds(unit.at) + " " + unit.name + "\n" }
        return out
    }

    static func seconds(_ us: Int64) -> String {
        let ms = Swift.max(0, us) / 1000
        let frac = ms % 1000
        return "\(ms / 1000)." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + "\(frac)"
    }

    /// `S[.fff]` to microseconds (no sign, no exponent): 1–9 digits, then optionally a dot and
    /// 1–6 digits. Read byte by byte in one pass rather than split into Substrings and checked
    /// Character by Character (several times the code). The same texts pass: any byte that is
    /// neither an ASCII digit nor the one dot fails both ways, and with only those bytes Characters
    /// and bytes are the same.
    static func microseconds(_ text: Substring) -> Int64? {
        var whole: Int64 = 0
        var fraction: Int64 = 0
        var wholeDigits = 0
        var fractionDigits = -1  // -1: no dot yet
        for byte in text.utf8 {
            if byte == UInt8(ascii: "."), fractionDigits < 0 {
                fractionDigits = 0
            } else if byte >= 0x30, byte <= 0x39, fractionDigits < 0 {
                guard wholeDigits < 9 else { return nil }  // before it could overflow
                whole = whole * 10 + Int64(byte - 0x30)
                wholeDigits += 1
            } else if byte >= 0x30, byte <= 0x39 {
                guard fractionDigits < 6 else { return nil }
                fraction = fraction * 10 + Int64(byte - 0x30)
                fractionDigits += 1
            } else {
                return nil
            }
        }
        guard wholeDigits > 0, fractionDigits != 0 else { return nil }
        var scale: Int64 = 1
        for _ in 0..<(6 - Swift.max(fractionDigits, 0)) { scale *= 10 }
        return whole * 1_000_000 + fraction * scale
    }

    /// Parses the file's text; the error says which line is wrong and why.
    public static func parse(_ text: String) -> Result<BootTimeline, BootTimelineError> {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        guard lines.first == Substring(header) else { return .failure(.init(line: 1, "expected '\(header)'")) }
        guard lines.count >= 2, lines[1].hasPrefix("total "), let total = microseconds(lines[1].dropFirst(6)), total > 0 else {
            return .failure(.init(line: 2, "expected 'total SECONDS' with SECONDS more than 0"))
        }
        var units: [(name: String, at: Int64)] = []
        for (i, line) in lines.dropFirst(2).enumerated() {
            guard units.count < maximumUnits else { return .failure(.init(line: i + 3, "more than \(maximumUnits) units")) }
            guard let space = line.firstIndex(of: " "), let at = microseconds(line[..<space]), at <= total else {
                return .failure(.init(line: i + 3, "expected 'SECONDS UNIT' with SECONDS at most the total"))
            }
            let name = line[line.index(after: space)...]
            guard !name.isEmpty, !name.utf8.contains(where: { $0 <= 0x20 }) else {
                return .failure(.init(line: i + 3, "expected a unit name without spaces"))
            }
            units.append((name: String(name), at: at))
        }
        return .success(BootTimeline(total: total, units: units))
    }

    // MARK: Files

    /// Reads the timeline at `path`: nil when there is none yet; an error (for a log line) when
    /// the file cannot be read or is not a timeline.
    public static func load(path: String) -> Result<BootTimeline?, BootTimelineError> {
        // O_NONBLOCK: a FIFO at the path must not block start-up in open(2); only a regular file is read.
        let fd = loaderd_open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0)
        if fd < 0 {
            if errno == ENOENT { return .success(nil) }
            return .failure(.init("cannot open: " + String(cString: loaderd_strerror(errno))))
        }
        defer { close(fd) }
        if let refusal = RegularFile.refusal(fd) { return .failure(.init(refusal)) }
        let read: [UInt8]?
        do { read = try FileDescriptor(rawValue: fd).readToEnd(limit: 1 << 20) } catch {
            return .failure(.init("cannot read: " + String(cString: loaderd_strerror(error.rawValue))))
        }
        guard let bytes = read else { return .failure(.init("larger than 1 MiB; not a boot timeline")) }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(.init("not UTF-8 text")) }
        return parse(text).map { Optional($0) }
    }

    /// Writes the timeline to `path` atomically; creates the directory (0755) when it is missing.
    public func save(path: String) throws(BootTimelineError) {
        guard let slash = path.lastIndex(of: "/") else { throw BootTimelineError("not an absolute path") }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        if mkdir(directory, 0o755) != 0 && errno != EEXIST {
            throw BootTimelineError("cannot create \(directory): " + String(cString: loaderd_strerror(errno)))
        }
        let temporary = path + ".tmp"
        // O_NONBLOCK and the check after it: a FIFO at the temporary path would block quit in
        // open(2) (or in write) forever. Refused, not removed: someone put it there.
        let fd = loaderd_open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o644)
        guard fd >= 0 else {
            // ENXIO from a non-blocking open for writing: a FIFO nobody reads.
            if errno == ENXIO { throw BootTimelineError("cannot write \(temporary): it is a FIFO, not a regular file; remove it") }
            throw BootTimelineError("cannot create \(temporary): " + String(cString: loaderd_strerror(errno)))
        }
        if let refusal = RegularFile.refusal(fd) {
            close(fd)
            throw BootTimelineError("cannot write \(temporary): \(refusal)")
        }
        var content = text
        var failure: Int32 = 0
        content.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; failure = errno; return }
                offset += n
            }
        }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw BootTimelineError("cannot write \(path): " + String(cString: loaderd_strerror(failure)))
        }
        let dirfd = loaderd_open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        if dirfd >= 0 { _ = fsync(dirfd); close(dirfd) }
    }
}

public struct BootTimelineError: Error, Equatable, CustomStringConvertible, Sendable {
    public let line: Int?
    public let message: String
    init(line: Int? = nil, _ message: String) { self.line = line; self.message = message }
    public var description: String { line.map { "line \($0): " + message } ?? message }
}

extension Character {
    /// 0–9, compared as bytes: `isWholeNumber` would link Unicode's numeric tables for the same answer.
    var isASCIIDigitCharacter: Bool { asciiValue.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
}

/// Turns the `U` stream into a determinate progress that never goes backwards.
///
/// With the previous boot's timeline, a unit becoming active maps to the share of the previous
/// boot's duration at which it became active then (Plymouth's boot-duration idea); a unit the
/// previous boot did not have changes nothing. Progress stays below 100 until quit.
///
/// Without a timeline (the first boot, or a corrupt file), there is nothing honest to divide by:
/// the estimate is `90 · n / (n + 50)` for n units seen — it moves with every unit, slows as the
/// boot goes on, never reaches 90, and quit takes it to 100.
public struct BootProgressEstimator: Sendable {
    /// Previous boot: unit → its share of the boot in thousandths of a percent (0…100_000).
    private(set) var history: [String: Int]
    public var hasHistory: Bool { !history.isEmpty }
    /// This boot, in arrival order.
    public private(set) var recorded: [(name: String, at: Int64)] = []
    /// Each unit recorded, with its place in `recorded` (a dictionary like `history`'s, so that
    /// one kind of table serves both).
    private var seen: [String: Int] = [:]
    /// The highest target handed out (thousandths of a percent).
    public private(set) var current = 0

    /// Highest progress before quit.
    public static let ceiling = 99_000

    public init(previous: BootTimeline?) {
        history = Self.shares(previous)
    }

    /// The previous boot's timeline read late: by a splash started in the initramfs, which reaches
    /// the real root's /var/lib/loaderd only once PID 1 has switched there. Units from now on map
    /// to their shares; progress never goes back (a share below what the estimate has shown moves
    /// nothing). Ignored when a timeline is already in use.
    public mutating func adopt(previous: BootTimeline) {
        guard !hasHistory else { return }
        history = Self.shares(previous)
    }

    private static func shares(_ previous: BootTimeline?) -> [String: Int] {
        var h: [String: Int] = [:]
        if let previous, previous.total > 0 {
            for unit in previous.units where h[unit.name] == nil {
                // at ≤ total (checked when read), so the share is at most 100 %; the product is
                // computed without overflow for any time the file may hold.
                let (product, overflow) = unit.at.multipliedReportingOverflow(by: 100_000)
                let share = overflow ? unit.at / Swift.max(1, previous.total / 100_000) : product / previous.total
                h[unit.name] = Int(Swift.min(100_000, Swift.max(0, share)))
            }
        }
        return h
    }

    /// A unit became active `at` microseconds after start: the new progress in thousandths of a
    /// percent, or nil when it does not move.
    public mutating func unitActive(_ name: String, at: Int64) -> Int? {
        guard seen[name] == nil else { return nil }
        if recorded.count < BootTimeline.maximumUnits {
            seen[name] = recorded.count
            recorded.append((name, at))
        }
        let estimate: Int
        if hasHistory {
            guard let share = history[name] else { return nil }
            estimate = Swift.min(share, Self.ceiling)
        } else {
            let n = seen.count
            estimate = 90_000 * n / (n + 50)
        }
        guard estimate > current else { return nil }
        current = estimate
        return estimate
    }

    /// This boot's timeline, ended at `at` microseconds: at least 1 ms, the file's resolution, so
    /// that a session shorter than that (a test's, a front end's quit right after the start) is
    /// not written as `total 0.000`, which `parse` refuses.
    public func timeline(endedAt at: Int64) -> BootTimeline {
        BootTimeline(total: Swift.max(at, recorded.last?.at ?? 0, 1_000), units: recorded)
    }
}
