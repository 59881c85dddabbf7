import CommandLineKit
import Displays
import FixedPoint
import CLinux
import LinuxSystem
import Loaders
import Raster
import CompactText

enum PreviewVerb {
    static let fpsOption = OptionSpec(name: "fps", kind: .value, help: "Frames per second (1 to 120). (default: 30)")
    static let durationOption = OptionSpec(name: "duration", kind: .value, valueName: "SECONDS", help: "Stop after this many seconds (default: run until interrupted).")

    static let verb: Verb = {
        var page = HelpPage(
            abstract: "Animate a loader in this terminal at its real speed (Ctrl-C to stop).",
            discussion: """
                Needs a terminal with 24-bit colour; each character cell shows two pixels (upper half \
                block). The cursor and colours are restored on exit, including Ctrl-C.
                """,
            usage: "loaderctl preview <name> [--size <WxH>] [--progress <PERCENT>] [--message <message>] [--set <key=value> ...] [--background <COLOR>] [--margin <margin>] [--mono] [--message-style <STYLE>] [--stop-at <SECONDS>] [--outcome <OUTCOME>] [--fps <fps>] [--duration <SECONDS>]")
        page.arguments = [SceneOptionsGroup.nameArgument]
        page.options = SceneOptionsGroup.options + [fpsOption, durationOption]
        return Verb(name: "preview", page: page, unlistedOptions: ConnectionOptions.options) { [page] (parsed) throws(CommandError) in
            let name = try parsed.verbArguments(required: ["<name>"], optional: 0, options: page.options)[0]
            try ConnectionOptions.checkUnused(parsed)
            let scene = try SceneOptionsGroup(parsed, name: name)
            let fps = try parsed.number(fpsOption) { Int($0) } ?? 30
            let duration = try parsed.number(durationOption) { Double($0) }
            guard (1...120).contains(fps) else { throw .usage("--fps must be from 1 to 120, got \(fps)") }
            if let duration, !(duration.isFinite && duration > 0) { throw .usage("--duration must be a positive number of seconds") }
            animate(scene, fps: fps, duration: duration)
        }
    }()

    static func animate(_ options: SceneOptionsGroup, fps: Int, duration: Double?) {
        var scene = options.makeScene()
        var terminal = TerminalRenderer()
        let rows = TerminalRenderer.rows(forHeight: scene.canvas.height)
        let end = duration.map { Time.microseconds(seconds: $0) }
        installRestoreOnSignal()
        printOut(TerminalRenderer.hideCursor)
        defer { printOut(TerminalRenderer.restore) }

        let start = monotonicMicroseconds()
        let frameInterval = Time.perSecond / Int64(fps)
        var frame: Int64 = 0
        while true {
            // Frames are scheduled at absolute times start + n/fps; a late frame is skipped, not queued.
            let now = monotonicMicroseconds() - start
            if let end, now >= end { break }
            scene.render(options.state(at: now))
            let text = terminal.render(options.shown(scene), background: options.background)
            // A reader gone (EPIPE, SIGPIPE ignored): nobody sees the frames.
            guard printOut((frame == 0 ? "" : TerminalRenderer.cursorUp(rows) + "\r") + text) else { break }
            frame = now / frameInterval + 1
            sleepUntil(start + frame * frameInterval)
        }
    }
}

/// CLOCK_MONOTONIC in microseconds.
func monotonicMicroseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
}

/// Sleeps until the absolute CLOCK_MONOTONIC time `deadline` (µs), resuming after signals.
func sleepUntil(_ deadline: Int64) {
    var ts = timespec(nanoseconds: deadline * 1000)
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
}

/// On Ctrl-C or SIGTERM: reset colours, show the cursor, move below the picture, exit 130/143.
/// Only async-signal-safe calls (write, _exit) run in the handler.
func installRestoreOnSignal() {
    let handler: @convention(c) (Int32) -> Void = { signal in
        let restore: StaticString = "\u{1B}[0m\u{1B}[?25h\n"
        _ = write(STDOUT_FILENO, restore.utf8Start, restore.utf8CodeUnitCount)
        _exit(128 + signal)
    }
    signal(SIGINT, handler)
    signal(SIGTERM, handler)
}
