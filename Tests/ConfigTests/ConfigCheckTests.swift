import Foundation
import Testing
@testable import LoaderDaemon

/// A file is checked whole: every error is reported at once, in the file's order, each at its
/// line and column (`loaderd --check-config`, and a refused start).
@Suite("Config: every error at once")
struct ConfigCheckTests {
    private func errors(_ text: String) -> [String] {
        do { _ = try Config.parse(text, source: "loaderd.toml"); return [] } catch { return error.all.map { $0.description } }
    }

    @Test func everyErrorInTheFileIsReportedInItsOrder() {
        let text = """
            [loader]
            name = "linkedinx"
            foo = 1
            [daemon]
            idle_timeout = -1
            max_clients = 0
            [[display]]
            type = "fb"
            rotate = 45
            [[display]]
            type = "image"
            bogus = 1
            [screen]
            margin = "wide"
            [boot]
            plymouth = "yes"
            """
        #expect(errors(text) == [
            #"loaderd.toml:2:8: loader.name: unknown loader "linkedinx" (did you mean 'linkedin'?); available: linkedin, pagedots, quizup, shimmer, worm, skeleton, bar"#,
            "loaderd.toml:3:1: unknown key 'foo' in [loader]; known keys: name, parameters, message, message_style, progress",
            "loaderd.toml:5:16: daemon.idle_timeout: expected a number of seconds from 0 (never) to 86400, got -1",
            "loaderd.toml:6:15: daemon.max_clients: expected an integer from 1 to 4096, got 0",
            "loaderd.toml:9:10: display.rotate: rotate=45: expected 0, 90, 180 or 270 (degrees clockwise)",
            "loaderd.toml:12:1: unknown key 'bogus' in [[display]] of type image; image accepts type, path, size, background, fps",
            #"loaderd.toml:14:10: screen.margin: expected a whole number from 0 to 1000, got "wide""#,
            #"loaderd.toml:16:12: boot.plymouth: expected true, false or "auto" (answer only when plymouthd is not running), got "yes""#,
        ])
    }

    /// The catalog stops at a loader's first bad parameter; the file check names every one.
    @Test func everyBadLoaderParameterIsReported() {
        let text = """
            [loader]
            name = "linkedin"
            parameters = { duration = "abc", fill = "notacolor", cornerRadius = -3, fil = 2, track = "gray" }
            """
        #expect(errors(text) == [
            #"loaderd.toml:3:27: loader.parameters.duration: expected seconds from 0.05 to 60, got "abc""#,
            #"loaderd.toml:3:41: loader.parameters.fill: expected a colour: #RRGGBB, #RRGGBBAA or a name (blue, purple, pink, gray, grey, white, black, red, green, orange, yellow, clear), optionally @opacity, got "notacolor""#,
            "loaderd.toml:3:69: loader.parameters.cornerRadius: expected a number from 0 to 50, got -3",
            "loaderd.toml:3:73: unknown parameter 'fil' for linkedin (did you mean 'fill'?); linkedin accepts cornerRadius, fill, track, duration, curve",
        ])
    }

    /// A display's option parser stops at its first problem; the table is still reported whole,
    /// each bad key at its value, and not blamed for what leaving a bad key out caused.
    @Test func everyBadKeyOfADisplayTableIsReported() {
        let fb = errors("""
            [[display]]
            type = "fb"
            device = "/dev/fb0"
            scale = 0
            rotate = 45
            anchor = "middle"
            """)
        #expect(fb.count == 3, "\(fb)")
        #expect(fb.first == "loaderd.toml:4:9: display.scale: scale=0: expected a whole number from 1 to 256")
        #expect(fb.dropFirst().first == "loaderd.toml:5:10: display.rotate: rotate=45: expected 0, 90, 180 or 270 (degrees clockwise)")
        #expect(fb.last?.hasPrefix("loaderd.toml:6:10: display.anchor: anchor=middle: expected one of center,") == true)
        let image = errors("""
            [[display]]
            type = "image"
            path = "/tmp/r.png"
            size = "64x32"
            fps = 0
            background = "nope"
            """)
        #expect(image.count == 2 && image[0].hasPrefix("loaderd.toml:5:7: display.fps: fps='0' must be a whole number from 1 to 240")
                && image[1].hasPrefix("loaderd.toml:6:14: display.background: background='nope': "), "\(image)")
        // A bad required key is its own error: no "missing path=" or "'size' is required" after it.
        #expect(errors("[[display]]\ntype = \"image\"\npath = \"/tmp/r.gif\"\nsize = \"0x5\"\n") == [
            "loaderd.toml:3:8: display.path: path='/tmp/r.gif': the image display writes .ppm or .png, not .gif",
            "loaderd.toml:4:8: display.size: size='0x5' is not WxH with sides from 1 to 4096 (e.g. 64x32)",
        ])
        #expect(errors("[[display]]\ntype = \"apa102\"\nsize = \"0x0\"\nbrightness = 101\ndry-run = true\n").count == 2)
        // One about the whole display is still reported, at the table.
        #expect(errors("[[display]]\ntype = \"image\"\nsize = \"8x8\"\n") == ["loaderd.toml:1:1: display: missing path=FILE (.ppm or .png)"])
    }

    @Test func aFileOfThousandsOfErrorsIsReportedInPart() {
        let text = "[daemon]\n" + (0..<5000).map { "k\($0) = 1\n" }.joined()
        let all = errors(text)
        #expect(all.count == ConfigDecoder.reportedLimit + 1)
        #expect(all.first == "loaderd.toml:2:1: unknown key 'k0' in [daemon]; known keys: socket, socket_group, max_clients, idle_timeout, display_timeout, max_line, log_level")
        #expect(all.last == "loaderd.toml: and \(5000 - ConfigDecoder.reportedLimit) more errors not shown; fix the ones above first")
    }

    @Test func aRefusedLoaderNameIsNotAlsoBlamedOnItsParameters() {
        // Only the name is wrong: "set loader.name too" would send the reader the wrong way.
        #expect(errors("[loader]\nname = \"nope\"\nparameters = { fill = \"red\" }").count == 1)
        #expect(errors("[loader]\nparameters = { fill = \"red\" }") == ["loaderd.toml:2:1: loader.parameters: parameters need a loader: set loader.name too"])
    }

    @Test func theFirstErrorAloneIsWhatDescriptionSays() {
        do {
            _ = try Config.parse("[daemon]\nmax_line = 1\nmax_clients = 0", source: "loaderd.toml")
            Issue.record("accepted")
        } catch {
            #expect(error.description == "loaderd.toml:2:12: daemon.max_line: expected an integer from 256 to 1048576, got 1")
            #expect(error.all.count == 2 && error.more.count == 1)
        }
    }

    @Test func checkAddsAGroupThisMachineDoesNotHave() throws {
        let path = NSTemporaryDirectory() + "loaderd-check-\(getpid()).toml"
        defer { try? FileManager.default.removeItem(atPath: path) }
        func write(_ text: String) throws { try text.write(toFile: path, atomically: true, encoding: .utf8) }
        let text = "[daemon]\nsocket_group = \"no-such-group-here\"\nmax_clients = 0\n"
        try write(text)
        #expect(Config.check(path: path).map { $0.description } == [
            "\(path):2:16: daemon.socket_group: no group \"no-such-group-here\" on this machine (getent group lists them; the package and README's install make 'loaderd')",
            "\(path):3:15: daemon.max_clients: expected an integer from 1 to 4096, got 0",
        ])
        // A group that exists (root, 0, is in every /etc/group), and a number, are fine.
        try write("[daemon]\nsocket_group = \"root\"\n")
        #expect(Config.check(path: path).isEmpty)
        try write("[daemon]\nsocket_group = \"4321\"\n")
        #expect(Config.check(path: path).isEmpty)
        // A syntax error stops the reading there: it is the one error.
        try write("[daemon\nmax_clients = 0\n")
        #expect(Config.check(path: path).count == 1)
    }
}
