import CompactText
import Displays
import FixedPoint
import Glibc
import Loaders
import Testing
@testable import LoaderDaemon

@Suite("Config: loaderd.toml to typed settings")
struct ConfigTests {
    /// The repository's config/loaderd.toml.
    static let shippedPath: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/config/loaderd.toml"
    }()

    private func failure(_ text: String) -> String {
        do { _ = try Config.parse(text, source: "loaderd.toml"); return "no error" } catch { return error.description }
    }

    @Test func emptyFileIsTheDefaults() throws {
        #expect(try Config.parse("") == Config())
        #expect(try Config.parse("# nothing\n\n[daemon]\n[loader]\n[boot]\n") == Config())
        let d = Config()
        #expect(d.daemon.socket == "/run/loaderd/loaderd.sock")
        #expect(d.daemon.socketGroup == nil)
        #expect(d.daemon.maxClients == 64)
        #expect(d.daemon.idleTimeout == 60 * Time.perSecond)
        #expect(d.daemon.maxLine == 4096)
        #expect(d.daemon.logLevel == .info)
        #expect(d.loader.name == nil && d.loader.parameters.isEmpty && d.loader.message == nil)
        #expect(d.loader.messageStyle == .plain && d.loader.progress == nil)
        #expect(d.displays.isEmpty)
        #expect(d.boot.psplashFifo == false && d.boot.plymouth == false)
    }

    @Test func everySettingIsRead() throws {
        let config = try Config.parse("""
            [daemon]
            socket = "/run/splash.sock"
            socket_group = "video"
            max_clients = 8
            idle_timeout = 2.5
            max_line = 1024
            log_level = "debug"

            [loader]
            name = "LinkedIn"
            parameters = { fill = "#0a66c2", duration = 1.2, cornerRadius = 0 }
            message = "Starting network"
            message_style = "grok"
            progress = 40

            [[display]]
            type = "fb"
            device = "/dev/fb1"
            scale = 4
            vsync = true

            [[display]]
            type = "IMAGE"
            path = '/tmp/a,b.png'
            size = "64x32"

            [[display]]
            type = "apa102"
            spi = "/dev/spidev0.0"
            size = "8x8"
            gamma = 2.20

            [boot]
            psplash_fifo = true
            plymouth = true
            """)
        #expect(config.daemon.socket == "/run/splash.sock")
        #expect(config.daemon.socketGroup == "video")
        // A group ID may be a TOML integer too; it is kept as the text a name or number is.
        #expect(try Config.parse("[daemon]\nsocket_group = 0").daemon.socketGroup == "0")
        #expect(config.daemon.maxClients == 8)
        #expect(config.daemon.idleTimeout == 2_500_000)
        #expect(config.daemon.maxLine == 1024)
        #expect(config.daemon.logLevel == .debug)
        #expect(config.loader.name == "linkedin")
        #expect(config.loader.parameters == [.init("fill", "#0a66c2"), .init("duration", "1.2"), .init("cornerRadius", "0")])
        #expect(config.loader.message == "Starting network")
        #expect(config.loader.messageStyle == .grok)
        #expect(config.loader.progress == 40)
        #expect(config.displays == [
            DisplaySpec(type: "fb", options: [.init("device", "/dev/fb1"), .init("scale", "4"), .init("vsync", "true")]),
            DisplaySpec(type: "image", options: [.init("path", "/tmp/a,b.png"), .init("size", "64x32")]),
            DisplaySpec(type: "apa102", options: [.init("spi", "/dev/spidev0.0"), .init("size", "8x8"), .init("gamma", "2.20")]),
        ])
        #expect(config.boot.psplashFifo && config.boot.plymouth)
        // The parameters are what Catalog.make takes.
        _ = try Catalog.make(config.loader.name!, assignments: config.loader.parameters.assignments)
    }

    @Test func parametersAsTheirOwnTableAndDisplaysAsAnInlineArray() throws {
        let config = try Config.parse("""
            display = [{ type = "fb", device = "/dev/fb0" }]
            [loader]
            name = "bar"
            [loader.parameters]
            fill = "red"
            """)
        #expect(config.loader.parameters == [.init("fill", "red")])
        #expect(config.displays == [DisplaySpec(type: "fb", options: [.init("device", "/dev/fb0")])])
        #expect(try Config.parse("[daemon]\nidle_timeout = 0").daemon.idleTimeout == 0)
    }

    @Test(arguments: [
        // Type and range errors point at the value and name the key.
        ("[daemon]\nmax_clients = \"many\"", #"loaderd.toml:2:15: daemon.max_clients: expected an integer from 1 to 4096, got "many""#),
        ("[daemon]\nmax_clients = 0", "loaderd.toml:2:15: daemon.max_clients: expected an integer from 1 to 4096, got 0"),
        ("[daemon]\nmax_line = 1.5", "loaderd.toml:2:12: daemon.max_line: expected an integer from 256 to 1048576, got 1.5"),
        ("[daemon]\nidle_timeout = -1", "loaderd.toml:2:16: daemon.idle_timeout: expected a number of seconds from 0 (never) to 86400, got -1"),
        ("[daemon]\nidle_timeout = nan", "loaderd.toml:2:16: daemon.idle_timeout: expected a number of seconds from 0 (never) to 86400, got nan"),
        ("[daemon]\nsocket = \"run/x.sock\"", #"loaderd.toml:2:10: daemon.socket: expected an absolute path (starting with /), got "run/x.sock""#),
        ("[daemon]\nsocket = 5", "loaderd.toml:2:10: daemon.socket: expected a string, got 5"),
        ("[daemon]\nsocket = \"\"", #"loaderd.toml:2:10: daemon.socket: expected an absolute path (starting with /), got """#),
        ("[daemon]\nsocket_group = \"\"", #"loaderd.toml:2:16: daemon.socket_group: expected a group name or number, got """#),
        ("[daemon]\nsocket_group = -1", "loaderd.toml:2:16: daemon.socket_group: expected a group name or number, got -1"),
        ("[daemon]\nsocket_group = 4294967295", "loaderd.toml:2:16: daemon.socket_group: expected a group name or number, got 4294967295"),
        ("[daemon]\nsocket_group = 1.5", "loaderd.toml:2:16: daemon.socket_group: expected a group name or number, got 1.5"),
        ("[daemon]\nlog_level = \"loud\"", #"loaderd.toml:2:13: daemon.log_level: expected one of trace, debug, info, notice, warning, error, critical, got "loud""#),
        ("[loader]\nname = \"spinner\"", #"loaderd.toml:2:8: loader.name: unknown loader "spinner"; available: linkedin, pagedots, quizup, shimmer, worm, skeleton, bar"#),
        ("[loader]\nname = \"linkedn\"", #"loaderd.toml:2:8: loader.name: unknown loader "linkedn" (did you mean 'linkedin'?); available: linkedin, pagedots, quizup, shimmer, worm, skeleton, bar"#),
        ("[loader]\nmessage_style = \"loud\"", #"loaderd.toml:2:17: loader.message_style: expected one of plain, grok, chatgpt, calm, got "loud""#),
        ("[loader]\nprogress = 101", "loaderd.toml:2:12: loader.progress: expected a number from 0 to 100, got 101"),
        ("[loader]\nprogress = true", "loaderd.toml:2:12: loader.progress: expected a number from 0 to 100, got true"),
        ("[loader]\nmessage = \"a\\nb\"", "loaderd.toml:2:11: loader.message: the message must be one line without control characters"),
        ("[boot]\nplymouth = \"yes\"", #"loaderd.toml:2:12: boot.plymouth: expected true, false or "auto" (answer only when plymouthd is not running), got "yes""#),
        // Loader parameters are checked with the catalog, at the parameter.
        ("[loader]\nname = \"linkedin\"\nparameters = { duration = \"fast\" }", #"loaderd.toml:3:27: loader.parameters.duration: expected seconds from 0.05 to 60, got "fast""#),
        ("[loader]\nname = \"linkedin\"\nparameters = { fil = \"red\" }", "loaderd.toml:3:16: unknown parameter 'fil' for linkedin (did you mean 'fill'?); linkedin accepts cornerRadius, fill, track, duration, curve"),
        ("[loader]\nparameters = { fill = \"red\" }", "loaderd.toml:2:1: loader.parameters: parameters need a loader: set loader.name too"),
        ("[loader]\nname = \"bar\"\nparameters = { fill = [1] }", "loaderd.toml:3:23: loader.parameters.fill: expected a string, number or boolean, got an array"),
        ("[loader]\nname = \"bar\"\nparameters = \"fill=red\"", ##"loaderd.toml:3:14: loader.parameters: expected a table of key = "value", e.g. { fill = "#0a66c2" }, got "fill=red""##),
        // Displays: the type, each key and each value as opening the display would check them
        // (nothing is opened), at the key or value at fault.
        ("[[display]]\ndevice = \"/dev/fb0\"", #"loaderd.toml:1:1: display: a [[display]] needs a type, e.g. type = "fb""#),
        ("[[display]]\ntpye = \"fb\"", "loaderd.toml:2:1: unknown key 'tpye' in [[display]] (did you mean 'type'?)"),
        ("[[display]]\ntype = \"f b\"", #"loaderd.toml:2:8: display.type: unknown display type "f b" (did you mean "fb"?); types: image, terminal, fb, drm, auto, max7219, apa102, sk9822, ws2812, sk6812"#),
        ("[[display]]\ntype = \"fb\"\nrotat = 90", "loaderd.toml:3:1: unknown key 'rotat' in [[display]] of type fb (did you mean 'rotate'?); fb accepts type, device, size, scale, anchor, x, y, rotate, background, console, vsync, buffers, fps, geometry, format, stride"),
        ("[[display]]\ntype = \"fb\"\nrotate = 45", "loaderd.toml:3:10: display.rotate: rotate=45: expected 0, 90, 180 or 270 (degrees clockwise)"),
        ("[[display]]\ntype = \"fb\"\ndevice = 1", "loaderd.toml:3:10: display.device: device=1: expected a framebuffer device's path such as /dev/fb0 (or geometry= and format= for a file standing in for one)"),
        ("[[display]]\ntype = \"drm\"\nmode = \"big\"", "loaderd.toml:3:8: display.mode: mode=big: expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. mode=1280x720 or mode=1920x1080@60"),
        ("[[display]]\ntype = \"auto\"\nsize = \"9x\"", "loaderd.toml:3:8: display.size: size=9x: expected WIDTHxHEIGHT with sides from 1 to 4096, e.g. size=64x32"),
        ("[[display]]\ntype = \"max7219\"\nspi = \"/dev/spidev0.0\"\nmodules = 0", "loaderd.toml:4:11: display.modules: 'modules' must be an integer in 1...256, got '0'"),
        ("[[display]]\ntype = \"max7219\"\nspi = \"/dev/spidev0.0\"\nmodules = 5\nrows = 2", "loaderd.toml:5:8: display.rows: 'rows' must divide 'modules' evenly (5 modules cannot make 2 equal rows)"),
        ("[[display]]\ntype = \"ws2812\"\nspi = \"/dev/spidev0.0\"\nsize = \"8x8\"\ndry-run = \"out.txt\"", "loaderd.toml:5:11: display.dry-run: dry-run= takes true, false, or a file ending in .png or .ppm, got 'out.txt'"),
        ("[[display]]\ntype = \"image\"\nsize = \"8x8\"", "loaderd.toml:1:1: display: missing path=FILE (.ppm or .png)"),
        ("[[display]]\ntype = \"fb\"\nsize = [64, 32]", "loaderd.toml:3:8: display.size: expected a string, number or boolean (display options are passed on as text), got an array"),
        ("[display]\ntype = \"fb\"", "loaderd.toml:1:1: display: write [[display]] (an array of tables, one per display), not [display]"),
        ("[[daemon]]\n", "loaderd.toml:1:1: daemon: [[daemon]] is a single table: write [daemon]"),
        ("daemon = 1", "loaderd.toml:1:10: daemon: expected a table [daemon], got 1"),
    ])
    func valueErrorsNameLineColumnAndKey(text: String, expected: String) {
        #expect(failure(text) == expected)
    }

    @Test(arguments: [
        ("[daemon]\nmax_client = 3", "loaderd.toml:2:1: unknown key 'max_client' in [daemon] (did you mean 'max_clients'?); known keys: socket, socket_group, max_clients, idle_timeout, display_timeout, max_line, log_level"),
        ("[daemon]\nmax-clients = 3", "loaderd.toml:2:1: unknown key 'max-clients' in [daemon] (did you mean 'max_clients'?); known keys: socket, socket_group, max_clients, idle_timeout, display_timeout, max_line, log_level"),
        ("[daemon]\n  sockt = \"/x\"", "loaderd.toml:2:3: unknown key 'sockt' in [daemon] (did you mean 'socket'?); known keys: socket, socket_group, max_clients, idle_timeout, display_timeout, max_line, log_level"),
        ("[loader]\nmesage = \"hi\"", "loaderd.toml:2:1: unknown key 'mesage' in [loader] (did you mean 'message'?); known keys: name, parameters, message, message_style, progress"),
        ("[boot]\nsplash = true", "loaderd.toml:2:1: unknown key 'splash' in [boot]; known keys: psplash_fifo, psplash_fifo_dir, plymouth, timeline, status_messages, shutdown_loader, reboot_loader"),
        ("[dispaly]\n", "loaderd.toml:1:2: unknown table or key 'dispaly' (did you mean [[display]]?); the file has [daemon], [loader], [[display]], [boot] and [screen]"),
        ("[deamon]\n", "loaderd.toml:1:2: unknown table or key 'deamon' (did you mean [daemon]?); the file has [daemon], [loader], [[display]], [boot] and [screen]"),
        ("fps = 30", "loaderd.toml:1:1: unknown table or key 'fps'; the file has [daemon], [loader], [[display]], [boot] and [screen]"),
    ])
    func unknownKeysAreErrorsWithASuggestion(text: String, expected: String) {
        #expect(failure(text) == expected)
    }

    @Test func suggestions() {
        #expect(suggestion(for: "fsp", among: ["fps", "type"]) == "fps")
        #expect(suggestion(for: "FPS", among: ["fps"]) == "fps")
        #expect(suggestion(for: "brightness", among: ["fps", "type"]) == nil)
        #expect(editDistance("kitten", "sitting") == 3)
        #expect(editDistance("", "abc") == 3)
        #expect(editDistance("ab", "ba") == 1)
    }

    // MARK: The shipped file

    @Test func shippedFileParsesToTheDefaults() throws {
        #expect(try Config.load(path: Self.shippedPath) == Config())
    }

    /// Every `#key = value` line in config/loaderd.toml is a default: uncommenting all of them
    /// (and the table headers) must still give exactly `Config()`. So the documented defaults
    /// cannot drift from the code's.
    @Test func shippedDefaultsMatchTheCode() throws {
        let text = try readFile(Self.shippedPath)
        var uncommented = 0
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            if line.hasPrefix("#"), let next = line.dropFirst().first, next.isLetter || next == "[" { uncommented += 1; return line.dropFirst() }
            return line
        }
        #expect(uncommented >= 8)
        #expect(try Config.parse(lines.joined(separator: "\n"), source: "uncommented") == Config())
    }

    /// Every key the decoder knows appears in the shipped file.
    @Test func shippedFileDocumentsEveryKey() throws {
        let text = try readFile(Self.shippedPath)
        for (table, keys) in Config.knownKeys where !table.isEmpty {
            #expect(text.contains(table == "display" ? "[[display]]" : "[\(table)]"), "[\(table)] undocumented")
            for key in keys { #expect(text.contains("\(key) = "), "\(table).\(key) undocumented") }
        }
    }

    /// The examples in the shipped file (lines starting `# key = ...`) are valid too.
    @Test func shippedExamplesParse() throws {
        let text = try readFile(Self.shippedPath)
        var out: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var l = line
            if l.hasPrefix("#") { l = l.dropFirst() }
            if l.hasPrefix(" ") { l = l.dropFirst() }
            // Keep only what looks like TOML: headers and key = value.
            let key = l.prefix { $0.isLetter || $0 == "_" }
            if l.hasPrefix("[") || (!key.isEmpty && l.dropFirst(key.count).hasPrefix(" = ")) { out.append(l) } else { out.append("") }
        }
        // The file shows parameters both inline and as a table: keep the inline form only.
        let joined = out.joined(separator: "\n").replacingOccurrences("[loader.parameters]\nfill = \"#0a66c2\"", "")
        let config = try Config.parse(joined, source: "examples")
        #expect(config.loader.name == "linkedin")
        #expect(config.daemon.socketGroup == "loaderd")
        #expect(config.displays.map(\.type) == ["fb", "drm", "auto", "image"])
    }

    // MARK: Files

    @Test func loadNamesThePathWhenTheFileCannotBeRead() {
        do { _ = try Config.load(path: "/nonexistent/loaderd.toml"); Issue.record("no error") } catch {
            #expect(error.description == "/nonexistent/loaderd.toml: cannot open the config file: No such file or directory")
        }
        do { _ = try Config.load(path: "/tmp"); Issue.record("no error") } catch {
            #expect(error.description == "/tmp: not a regular file (a FIFO, device or directory is refused); give the path of the TOML file")
        }
    }

    @Test func loadErrorsNameTheFileLineColumnAndKey() throws {
        let path = "/tmp/loaderd-config-test-\(getpid()).toml"
        let file = fopen(path, "wb")!
        fputs("# test\r\n[daemon]\r\nmax_line = \"long\"\r\n", file)
        fclose(file)
        defer { unlink(path) }
        #expect(throws: ConfigError(source: path, line: 3, column: 12, key: "daemon.max_line",
                                    message: "expected an integer from 256 to 1048576, got \"long\"")) {
            try Config.load(path: path)
        }
    }

    @Test func invalidUTF8IsRefusedAtItsPosition() throws {
        let bytes: [UInt8] = Array("a = 1\nb = \"".utf8) + [0xC3, 0x28] + Array("\"\n".utf8)
        #expect(throws: ConfigError(source: "x.toml", line: 2, column: 6, message: "byte 0xC3 is not UTF-8; the file must be UTF-8 text")) {
            try Config.decodeUTF8(bytes, source: "x.toml")
        }
    }

    // MARK: Abuse

    /// Random bytes, random TOML-ish tokens and mutations of the shipped file: every outcome is a
    /// Config or a ConfigError, never a crash or a hang.
    @Test func randomInputNeverCrashes() throws {
        var rng = SplitMix64(seed: 0x10ade4)
        let shipped = try readFile(Self.shippedPath)
        let tokens = ["[", "]", "[[", "]]", "{", "}", "=", ",", ".", "\"", "'", "\\", "\\u", "#", "\n", "\r\n", " ", "\t",
                      "a", "daemon", "loader", "display", "type", "name", "1", "-", "+", "0x", "1e", "_", "true", "nan",
                      "inf", "é", "\u{0}", "\"\"\"", "parameters", "max_clients", ":", "\r"]
        for round in 0..<3000 {
            var text: String
            switch round % 3 {
            case 0:
                let bytes = (0..<Int(rng.next() % 200)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                text = (try? Config.decodeUTF8(bytes, source: "fuzz")) ?? String(decoding: bytes, as: UTF8.self)
            case 1:
                text = (0..<Int(rng.next() % 60)).map { _ in tokens[Int(rng.next() % UInt64(tokens.count))] }.joined()
            default:
                var scalars = Array(shipped.unicodeScalars)
                for _ in 0..<(1 + Int(rng.next() % 8)) where !scalars.isEmpty {
                    let at = Int(rng.next() % UInt64(scalars.count))
                    switch rng.next() % 3 {
                    case 0: scalars.remove(at: at)
                    case 1: scalars.insert(tokens[Int(rng.next() % UInt64(tokens.count))].unicodeScalars.first ?? "x", at: at)
                    default: scalars[at] = Unicode.Scalar(UInt8(truncatingIfNeeded: rng.next() % 128))
                    }
                }
                var s = String.UnicodeScalarView()
                s.append(contentsOf: scalars)
                text = String(s)
            }
            do {
                _ = try Config.parse(text, source: "fuzz")
            } catch {
                // Every error has a position inside the text.
                #expect(error.line != nil && error.line! >= 1 && error.column! >= 1)
            }
        }
    }
}

/// A small deterministic generator, so a failing case reproduces.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func readFile(_ path: String) throws -> String {
    guard let file = fopen(path, "rb") else { throw ConfigError(source: path, message: "cannot open") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&buffer, 1, buffer.count, file)
        if n == 0 { break }
        bytes += buffer[..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}

extension String {
    /// Foundation-free replace-all (the tests link only what the daemon links).
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = "", rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
