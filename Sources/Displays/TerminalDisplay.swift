import CLinux
import LinuxSystem
import Raster

/// `terminal:size=WxH[,fps=N][,background=COLOR]`: the frames as ANSI colour text on standard
/// output, redrawn in place (for development; see `TerminalRenderer`). An unchanged frame writes
/// nothing; `close()` restores the cursor and colours.
public final class TerminalDisplay: Display {
    public static let acceptedKeys = ["size", "fps", "background"]

    public let name = "terminal"
    public let canvasWidth: Int
    public let canvasHeight: Int
    public let framesPerSecond: Int
    let background: Color
    let fd: Int32
    private var renderer = TerminalRenderer()
    private var previous: [Pixel]
    private var blank: Canvas
    private var started = false
    private var closed = false

    public static func open(_ spec: DisplaySpec) throws(DisplaySpecError) -> TerminalDisplay {
        let o = try readOptions(spec)
        return TerminalDisplay(width: o.size.width, height: o.size.height, fps: o.fps, background: o.background, fd: STDOUT_FILENO)
    }

    /// The spec's keys and values checked, nothing made (`open`, and `--check-config`).
    public static func checkOptions(_ spec: DisplaySpec) throws(DisplaySpecError) { _ = try readOptions(spec) }

    static func readOptions(_ spec: DisplaySpec) throws(DisplaySpecError) -> (size: (width: Int, height: Int), fps: Int, background: Color) {
        try spec.checkKeys(acceptedKeys)
        return (try spec.size(default: (64, 16)), try spec.framesPerSecond(), try spec.color("background", default: .black))
    }

    init(width: Int, height: Int, fps: Int, background: Color, fd: Int32) {
        canvasWidth = width; canvasHeight = height; framesPerSecond = fps
        self.background = background; self.fd = fd
        previous = []
        blank = Canvas(width: width, height: height)
    }

    public func show(_ canvas: Canvas) throws(DisplayError) {
        if started && canvas.pixels == previous { return }
        if !started {
            writeAll(TerminalRenderer.hideCursor + TerminalRenderer.clearScreen)
            started = true
        }
        previous.removeAll(keepingCapacity: true)
        previous.append(contentsOf: canvas.pixels)
        writeAll(TerminalRenderer.cursorHome)
        renderer.withFrame(canvas, background: background) { writeAll($0) }
    }

    public func clear() throws(DisplayError) { try show(blank) }

    public func close() {
        guard !closed else { return }
        closed = true
        if started { writeAll(TerminalRenderer.restore) }
    }

    private func writeAll(_ text: String) {
        var text = text
        text.withUTF8 { writeAll(UnsafeRawBufferPointer($0)) }
    }

    /// A terminal that does not take output (a full pipe, a reader that stopped, Ctrl-S) drops
    /// the rest of the frame rather than stall the daemon's loop. Standard output is shared with
    /// the shell, so it is not switched to O_NONBLOCK; instead each write waits only for a
    /// writable descriptor that `poll` reports at once, and a partly written frame is redrawn
    /// whole next time (`previous` is forgotten).
    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&p, 1, 0)
            if ready < 0 && errno == EINTR { continue }
            guard ready == 1, p.revents & Int16(POLLOUT) != 0 else { previous.removeAll(keepingCapacity: true); return }
            // At most PIPE_BUF bytes per write: a pipe reported writable takes that many without blocking.
            let n = write(fd, bytes.baseAddress! + offset, Swift.min(bytes.count - offset, Int(PIPE_BUF)))
            if n < 0 {
                if errno == EINTR { continue }
                previous.removeAll(keepingCapacity: true)
                return
            }
            offset += n
        }
    }
}
