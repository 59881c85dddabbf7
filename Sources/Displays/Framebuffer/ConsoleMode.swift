import CLinux
import LinuxSystem
import CompactText

/// The active virtual terminal held in graphics mode while the splash is up, so the kernel
/// console neither prints over it nor blinks its cursor. Owns the terminal descriptor and puts
/// the previous mode back (normally `KD_TEXT`) when released: in `restore()` or, on any other
/// path out, in `deinit`.
struct ConsoleMode: ~Copyable {
    private let fd: FileDescriptor
    private var previous: Int32
    let path: String

    /// Opens `path` (default `/dev/tty0`: whichever VT is in the foreground) and switches it to
    /// `KD_GRAPHICS`. Throws a sentence to log: the splash still works without it.
    init(path: String = "/dev/tty0") throws(ConsoleModeError) {
        let fd: FileDescriptor
        do {
            fd = try Self.openTerminal(path)
        } catch {
            throw ConsoleModeError(filled("cannot open {} to put the console in graphics mode ({}); the kernel console may draw over the splash (run as root, or use console=keep to silence this)", path, error.description))
        }
        let mode: Int32
        do {
            mode = try fd.consoleMode()
            if mode != loaderd_kd_graphics { try fd.setConsoleMode(loaderd_kd_graphics) }
        } catch {
            try? fd.close()
            throw ConsoleModeError(filled("cannot switch {} to graphics mode ({}); the kernel console may draw over the splash", path, error.description))
        }
        self.fd = fd
        self.previous = mode
        self.path = path
    }

    /// The terminal, read-write, never made our controlling terminal.
    static func openTerminal(_ path: String) throws(Errno) -> FileDescriptor {
        try FileDescriptor.openDevice(path, .readWrite, options: [.closeOnExec, FileDescriptor.OpenOptions(rawValue: O_NOCTTY)])
    }

    /// Leaves the console in graphics mode when released (a retained splash: whoever takes the
    /// screen next sets the mode it wants).
    mutating func keepGraphicsMode() { previous = loaderd_kd_graphics }

    /// Puts the console back as it was and closes the terminal.
    consuming func restore() { /* deinit does the work */ }

    deinit {
        if previous != loaderd_kd_graphics { try? fd.setConsoleMode(previous) }
        try? fd.close()
    }
}

struct ConsoleModeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The foreground virtual terminal put back in text mode from outside: what a loaderd that was
/// killed (SIGKILL, a crash, systemd's stop timeout) could not do itself. `loaderd
/// --restore-console`, run by loaderd.service's ExecStopPost= whenever the daemon ended without
/// success, so a restarted daemon finds the console as it was before the splash, and one that
/// systemd stops restarting (its start limit) leaves the login prompt on the screen. Switching to
/// text mode makes the kernel console redraw its text.
public enum ConsoleRestore: Equatable, Sendable {
    /// It was in graphics mode and is in text mode now.
    case restored
    /// It was in text mode already: nothing was changed.
    case alreadyText
    /// No virtual terminal here (no /dev/tty0, or not a terminal: a board with only an LED matrix).
    case noTerminal
    /// Why it could not be done.
    case failed(String)

    public static func toText(path: String = "/dev/tty0") -> ConsoleRestore {
        let fd: FileDescriptor
        do {
            fd = try ConsoleMode.openTerminal(path)
        } catch {
            if error == .noSuchFileOrDirectory || error == .noSuchAddressOrDevice || error == .operationNotSupportedByDevice { return .noTerminal }
            return .failed(filled("cannot open {}: {}", path, error.description))
        }
        defer { try? fd.close() }
        let mode: Int32
        do { mode = try fd.consoleMode() } catch {
            if error == .inappropriateIOCTLForDevice { return .noTerminal }
            return .failed(filled("{}: {}", path, error.description))
        }
        if mode == loaderd_kd_text { return .alreadyText }
        do { try fd.setConsoleMode(loaderd_kd_text) } catch { return .failed(filled("cannot switch {} to text mode: {}", path, error.description)) }
        return .restored
    }
}
