import Foundation
import Testing

/// loaderd parses its flags by hand (README, "Dependencies"); these pin what ArgumentParser printed
/// for it before: the help text, the usage errors and which error wins; usage errors exit 2, as
/// loaderctl's do (one convention for both programs).
@Suite("loaderd command line (the real binary)")
struct LoaderdCommandLineTests {
    /// Regenerate Help/loaderd.txt with LOADERD_UPDATE_GOLDEN=1 after an intended change.
    @Test func helpTextIsPinned() throws {
        let r = try Binary.run("loaderd", ["--help"])
        #expect(r.status == 0 && r.stderr.isEmpty)
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Help/loaderd.txt")
        if ProcessInfo.processInfo.environment["LOADERD_UPDATE_GOLDEN"] == "1" {
            try r.stdout.write(to: url, atomically: true, encoding: .utf8)
        }
        #expect(r.stdout == (try String(contentsOf: url, encoding: .utf8)))
        // -h, and help wins over an unknown option or an extra argument given with it.
        for arguments in [["-h"], ["--bogus", "--help"], ["extra", "-h"]] {
            let other = try Binary.run("loaderd", arguments)
            #expect(other.status == 0 && other.stdout == r.stdout, "\(arguments)")
        }
        let version = try Binary.run("loaderd", ["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("loaderd ") && version.stdout.hasSuffix("\n"))
    }

    @Test(arguments: [
        (["--bogus"], 2, "Error: Unknown option '--bogus'\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--sock", "x"], 2, "Error: Unknown option '--sock'. Did you mean '--socket'?\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--socket"], 2, "Error: Missing value for '--socket <PATH>'\nHelp:  --socket <PATH>  The control socket (default: the config's, else /run/loaderd/loaderd.sock).\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--max-clients", "abc"], 2, "Error: The value 'abc' is invalid for '--max-clients <max-clients>'\nHelp:  --max-clients <max-clients>  Most clients connected at once (default: the config's, else 64).\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--max-clients", "5000"], 2, "Error: --max-clients must be from 1 to 4096, got 5000\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--plymouth=yes"], 2, "Error: The option '--plymouth' does not take any value, but 'yes' was specified.\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--idle-timeout", "1e-10"], 2, "Error: --idle-timeout must be 0 (never) or from 0.001 to 86400 seconds, got 1e-10\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--log-level", "loud"], 2, "Error: --log-level must be one of trace, debug, info, notice, warning, error, critical, got 'loud'\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--set", "a=b"], 2, "Error: --set needs --loader\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--mode-loader", "shutdwon=worm"], 2, "Error: --mode-loader: unknown mode 'shutdwon' (did you mean 'shutdown'?); modes: boot, shutdown, reboot, updates, system-upgrade, application-upgrade, firmware-upgrade, system-reset\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--loader", "bar", "--set", "ab"], 2, "Error: --set expects key=value, got 'ab'\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["extra"], 2, "Error: Unexpected argument 'extra'\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        // A negative number is a value, checked by its option's own range (not a missing value).
        (["--progress", "-5"], 2, "Error: --progress must be a decimal from 0 to 100, got '-5'\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--idle-timeout", "-1"], 2, "Error: --idle-timeout must be 0 (never) or from 0.001 to 86400 seconds, got -1.0\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--freeze-time", "-1"], 2, "Error: --freeze-time must be from 0 to 1000000 seconds, got -1.0\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--max-clients", "-3"], 2, "Error: --max-clients must be from 1 to 4096, got -3\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["-5"], 2, "Error: Unexpected argument '-5'\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--socket", "--help"], 2, "Error: Missing value for '--socket <PATH>'\nHelp:  --socket <PATH>  The control socket (default: the config's, else /run/loaderd/loaderd.sock).\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--max-clients", "abc", "--bogus"], 2, "Error: The value 'abc' is invalid for '--max-clients <max-clients>'\nHelp:  --max-clients <max-clients>  Most clients connected at once (default: the config's, else 64).\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--idle-timeout", "1e-10", "--bogus"], 2, "Error: --idle-timeout must be 0 (never) or from 0.001 to 86400 seconds, got 1e-10\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["---socket", "x"], 2, "Error: Invalid option: ---socket\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        // The socket's path follows daemon.socket's rule: absolute (loaderctl, in another
        // directory, must find it) and fitting a Unix socket address.
        (["--socket", ""], 2, "Error: --socket must be an absolute path (starting with /), e.g. /run/loaderd/loaderd.sock; got an empty path\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--socket", "relative.sock"], 2, "Error: --socket must be an absolute path (starting with /), e.g. /run/loaderd/loaderd.sock; got 'relative.sock'\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--socket", "/" + String(repeating: "s", count: 107)], 2, "Error: --socket must be a path of at most 107 bytes (what a Unix socket address holds; this one has 108), e.g. /run/loaderd/loaderd.sock; got '/\(String(repeating: "s", count: 107))'\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--display", "max7219:dry-run=true,speed=20000000"], 2, "Error: invalid display 'max7219:dry-run=true,speed=20000000': 'speed' must be an integer in 10000...10000000, got '20000000' (in Hz; max7219's clock is at most 10 MHz)\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--display", "image:path=/tmp/r1.bmp,size=8x8"], 2, "Error: invalid display 'image:path=/tmp/r1.bmp,size=8x8': path='/tmp/r1.bmp': cannot choose an image format for /tmp/r1.bmp: unknown extension '.bmp' (expected .ppm or .png)\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--display", "image:path=/tmp/r1.gif,size=8x8"], 2, "Error: invalid display 'image:path=/tmp/r1.gif,size=8x8': path='/tmp/r1.gif': the image display writes .ppm or .png, not .gif\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        // A display spec is checked whole (type, keys, values) before anything starts; a device
        // that does not exist yet is not checked (it is waited for).
        (["--socket", "/tmp/x.sock", "--display", "image:path=/tmp/r.png,size=0x5"], 2, "Error: invalid display 'image:path=/tmp/r.png,size=0x5': size='0x5' is not WxH with sides from 1 to 4096 (e.g. 64x32)\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--display", "imag:size=8x8"], 2, "Error: invalid display 'imag:size=8x8': unknown display type 'imag' (did you mean 'image'?); types: image, terminal, fb, drm, auto, max7219, apa102, sk9822, ws2812, sk6812\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--display", "lcd:size=8x8"], 2, "Error: invalid display 'lcd:size=8x8': unknown display type 'lcd'; types: image, terminal, fb, drm, auto, max7219, apa102, sk9822, ws2812, sk6812\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--display", "image:path=/tmp/r.png,size=8x8,fps=0"], 2, "Error: invalid display 'image:path=/tmp/r.png,size=8x8,fps=0': fps='0' must be a whole number from 1 to 240\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--display", "image:size=8x8"], 2, "Error: invalid display 'image:size=8x8': missing path=FILE (.ppm or .png)\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
        (["--display", "fb:device=/nonexistent/fb0,rotate=45"], 2, "Error: invalid display 'fb:device=/nonexistent/fb0,rotate=45': rotate=45: expected 0, 90, 180 or 270 (degrees clockwise)\nUsage: loaderd <options>\n  See 'loaderd --help' for more information.\n"),
    ] as [([String], Int32, String)])
    func usageErrors(arguments: [String], status: Int32, stderr: String) throws {
        let r = try Binary.run("loaderd", arguments)
        #expect(r.status == status)
        #expect(r.stderr == stderr)
        #expect(r.stdout.isEmpty)
    }

    /// The config file's loader with `--set` words from the command line is the one pair neither
    /// the flags' check nor the file's covers: refused before anything starts, naming both.
    @Test(.timeLimit(.minutes(1))) func configLoaderWithABadSetWordIsRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("loaderd-set-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = dir + "/loaderd.toml"
        try "[loader]\nname = \"linkedin\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let display = "image:path=\(dir)/frame.ppm,size=8x8"
        let bad = try Binary.run("loaderd", ["--config", config, "--set", "duration=0.01", "--socket", dir + "/s", "--display", display])
        // A usage error naming --set (as `--loader linkedin --set duration=0.01` is), not the file.
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("Error: --set for the config's loader linkedin: linkedin: invalid duration=0.01: expected seconds from 0.05 to 60"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/s") && !FileManager.default.fileExists(atPath: dir + "/frame.ppm"))
        // A file that names no loader: --set has nothing to set (it was ignored without a word).
        let empty = dir + "/empty.toml"
        try "[daemon]\nmax_clients = 4\n".write(toFile: empty, atomically: true, encoding: .utf8)
        let none = try Binary.run("loaderd", ["--config", empty, "--set", "fill=red", "--socket", dir + "/s", "--display", display])
        #expect(none.status == 2)
        #expect(none.stderr.hasPrefix("Error: --set needs --loader, or a loader named in the config file ([loader] name); \(empty) names none"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/s"))
    }

    /// The file accepts a log level in any case; so does the flag. `--psplash-fifo DIR` as the
    /// help shows it (the value was only taken as `=DIR`).
    @Test(.timeLimit(.minutes(1))) func aLogLevelInCapitalsAndAPsplashDirectoryAsTheNextWord() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("loaderd-flags-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let daemon = try Process.run(Binary.productsDirectory.appendingPathComponent("loaderd"),
                                     arguments: ["--log-level", "WARNING", "--psplash-fifo", dir, "--socket", dir + "/s",
                                                 "--display", "image:path=\(dir)/f.ppm,size=8x8"])
        defer { daemon.terminate(); daemon.waitUntilExit() }
        var fifo = stat()
        for _ in 0..<200 where lstat(dir + "/psplash_fifo", &fifo) != 0 { usleep(10_000) }
        #expect(daemon.isRunning)
        #expect((fifo.st_mode & S_IFMT) == S_IFIFO, "the FIFO is made in the directory given as the next word")
    }

    /// A refused config file on a terminal reads as the daemon's own log does there: no syslog
    /// priority prefix (that is for journald), which a pipe still gets.
    @Test(.timeLimit(.minutes(1))) func checkConfigOnATerminalHasNoPriorityPrefix() throws {
        let dir = try Binary.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/ranges.toml"
        try "[daemon]\nmax_clients = 0\n".write(toFile: file, atomically: true, encoding: .utf8)
        let expected = "loaderd: \(file):2:15: daemon.max_clients: expected an integer from 1 to 4096, got 0"
        let piped = try Binary.run("loaderd", ["--check-config", file])
        #expect(piped.status == 1 && piped.stderr == "<3>" + expected + "\n", "\(piped.stderr)")

        // The same on a pseudo-terminal as standard error.
        // (posix_openpt and ptsname are hidden by Glibc's module, and the _IOW macros are not
        // imported: TIOCSPTLCK and TIOCGPTN as asm-generic numbers them, x86 and ARM alike.)
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        defer { close(master) }
        var unlock: CInt = 0, number: CUnsignedInt = 0
        try #require(ioctl(master, UInt(0x4004_5431), &unlock) == 0 && ioctl(master, UInt(0x8004_5430), &number) == 0)
        let terminal = try #require(FileHandle(forWritingAtPath: "/dev/pts/\(number)"))
        let process = Process()
        process.executableURL = Binary.productsDirectory.appendingPathComponent("loaderd")
        process.arguments = ["--check-config", file]
        process.standardError = terminal
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try terminal.close()
        #expect(process.terminationStatus == 1)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        while true {
            let n = read(master, &buffer, buffer.count)
            if n <= 0 { break }
            bytes += buffer[..<n]
        }
        // The terminal turns each \n into \r\n.
        #expect(String(decoding: bytes, as: UTF8.self) == expected + "\r\n")
    }
}
