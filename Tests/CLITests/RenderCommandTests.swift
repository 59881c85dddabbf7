import FixedPoint
import Foundation
import ImageCodecs
import Loaders
import Raster
import Testing

@Suite("loaderctl render, list and help (the real binary)")
struct RenderCommandTests {
    @Test func ppmEqualsTheInProcessRenderExactly() throws {
        let dir = try Binary.temporaryDirectory()
        let path = dir.appendingPathComponent("bar.ppm").path
        let r = try Binary.run("loaderctl", ["render", "bar", "--size", "48x12", "--progress", "40", "--output", path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let image = try PPM.read(path: path)
        var scene = Scene(loader: try Catalog.make("bar"), width: 48, height: 12)
        scene.render(FrameState(elapsed: 0, progress: ProgressState(Fixed(40, over: 100))))
        #expect(image == RGBImage(canvas: scene.canvas, background: .black))
        // Something was drawn: the fill is brighter than the background.
        #expect(image.bytes.contains { $0 > 200 })
    }

    @Test func pngAndBackground() throws {
        let dir = try Binary.temporaryDirectory()
        let path = dir.appendingPathComponent("bar.png").path
        let r = try Binary.run("loaderctl", ["render", "bar", "--size", "20x10", "--background", "#102030", "--output", path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let image = try PNG.read(path: path)
        #expect(image.width == 20 && image.height == 10)
        #expect(image[0, 0] == Color(rgb: 0x102030))
    }

    @Test func gifHoldsOnePeriodByDefault() throws {
        let dir = try Binary.temporaryDirectory()
        let path = dir.appendingPathComponent("a.gif").path
        let r = try Binary.run("loaderctl", ["render", "bar", "--size", "16x8", "--fps", "10", "--output", path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let frames = try GIF.read(path: path)
        let loader = try Catalog.make("bar")
        #expect(frames.count == Int(loader.period * 10 / Time.perSecond))
        #expect(frames.allSatisfy { $0.delay == 10 })
    }

    /// Written frame by frame (with the first frame's palette, others their own where they
    /// need one), every frame is still exactly the in-process render.
    @Test func gifFramesAreExactlyTheInProcessRender() throws {
        let dir = try Binary.temporaryDirectory()
        let path = dir.appendingPathComponent("s.gif").path
        let r = try Binary.run("loaderctl", ["render", "linkedin", "--size", "96x24", "--fps", "20", "--duration", "1", "--output", path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let frames = try GIF.read(path: path)
        #expect(frames.count == 20)
        var scene = Scene(loader: try Catalog.make("linkedin"), width: 96, height: 24)
        for (i, frame) in frames.enumerated() {
            scene.render(FrameState(elapsed: Int64(i) * 50_000))
            #expect(frame.image == RGBImage(canvas: scene.canvas, background: .black), "frame \(i)")
        }
    }

    @Test(arguments: [
        (["render", "nope", "--output", "/tmp/x.png"], "unknown loader 'nope'"),
        (["render", "bar", "--set", "fill=blu", "--output", "/tmp/x.png"], "invalid fill=blu"),
        (["render", "bar", "--set", "speed=3", "--output", "/tmp/x.png"], "unknown parameter"),
        (["render", "bar", "--set", "fill=red", "--set", "fill=blue", "--output", "/tmp/x.png"], "parameter 'fill' is given twice"),
        (["render", "bar", "--message", "a\u{1B}[31m", "--output", "/tmp/x.png"], #"--message contains control character U+1B; it must be one line of printable text"#),
        (["render", "bar", "--size", "0x5", "--output", "/tmp/x.png"], "--size"),
        (["render", "bar", "--progress", "101", "--output", "/tmp/x.png"], "--progress must be a number from 0 to 100"),
        (["render", "bar", "--output", "/tmp/x.bmp"], "expected one of .ppm, .png, .gif"),
        (["render", "bar", "--fps", "60", "--output", "/tmp/x.gif"], "--fps must be from 1 to 50"),
        (["render", "bar", "--background", "nocolour", "--output", "/tmp/x.png"], "invalid colour 'nocolour'"),
        // Negative numbers reach the options' range checks (they were "Missing value").
        (["render", "linkedin", "--at", "-1", "-o", "/tmp/x.png"], "--at must be from 0 to 1000000 seconds, got -1"),
        (["render", "linkedin", "--margin", "-3", "-o", "/tmp/x.png"], "--margin must be from 0 to 1000, got -3"),
        (["render", "linkedin", "--progress", "-5", "-o", "/tmp/x.png"], "--progress must be a number from 0 to 100, got -5"),
        (["render", "linkedin", "--duration", "-2", "-o", "/tmp/x.gif"], "--duration must be more than 0 and at most 600 seconds, got -2"),
        // A margin that leaves no pixel inside the canvas: not a blank file.
        (["render", "linkedin", "--margin", "1000", "-o", "/tmp/x.png"], "--margin 1000 leaves no room on a 64x16 canvas (the margin is taken from every side): at most 7 fits"),
        (["render", "linkedin", "--size", "9x12", "--margin", "5", "-o", "/tmp/x.png"], "--margin 5 leaves no room on a 9x12 canvas (the margin is taken from every side): at most 4 fits"),
        (["render", "linkedin", "--set", "screen.margin=8", "-o", "/tmp/x.png"], "--set screen.margin=8 leaves no room on a 64x16 canvas (the margin is taken from every side): at most 7 fits"),
        (["preview", "linkedin", "--margin", "8"], "--margin 8 leaves no room on a 64x16 canvas"),
    ])
    func badArgumentsExitWithUsageStatusAndAClearMessage(arguments: [String], expected: String) throws {
        let r = try Binary.run("loaderctl", arguments)
        #expect(r.status == 2)
        #expect(r.stderr.contains(expected), "stderr was: \(r.stderr)")
    }

    /// Without --margin a screen-sized render gets the daemon's automatic margin (5 % of the
    /// shorter side), not 0; an LED-sized one none.
    @Test func marginIsAutomaticUnlessGiven() throws {
        let dir = try Binary.temporaryDirectory()
        func render(_ size: String, _ extra: [String]) throws -> RGBImage {
            let path = dir.appendingPathComponent("m\(size)\(extra.count).ppm").path
            let r = try Binary.run("loaderctl", ["render", "linkedin", "--size", size, "--at", "0.6", "--output", path] + extra)
            #expect(r.status == 0, "stderr: \(r.stderr)")
            return try PPM.read(path: path)
        }
        #expect(try render("800x480", []) == render("800x480", ["--margin", "24"]))
        #expect(try render("800x480", []) != render("800x480", ["--margin", "0"]))
        #expect(try render("64x8", []) == render("64x8", ["--margin", "0"]))
        // The largest margin that fits still draws: a 64x16 canvas with 7 on every side keeps a 50x2 strip.
        #expect(try render("64x16", ["--margin", "7"]).bytes.contains { $0 != 0 })
    }

    /// --mono draws what a MAX7219 shows: only fully lit or unlit pixels where the colour render
    /// has the loader's blue.
    @Test func monoDrawsTheLitUnlitDesign() throws {
        let dir = try Binary.temporaryDirectory()
        let colour = dir.appendingPathComponent("c.ppm").path, mono = dir.appendingPathComponent("m.ppm").path
        #expect(try Binary.run("loaderctl", ["render", "linkedin", "--size", "64x8", "--at", "0.6", "--output", colour]).status == 0)
        #expect(try Binary.run("loaderctl", ["render", "linkedin", "--size", "64x8", "--at", "0.6", "--mono", "--output", mono]).status == 0)
        let c = try PPM.read(path: colour), m = try PPM.read(path: mono)
        #expect(c != m)
        var expected = Scene(loader: try Catalog.make("linkedin"), width: 64, height: 8, options: { var o = SceneOptions(); o.monochrome = true; return o }())
        expected.render(FrameState(elapsed: 600_000))
        // Each pixel lit or unlit as the modules light it (LEDDisplayEndToEndTests compares the
        // render with the daemon's MAX7219): the grey edges of the design are gone.
        let design = RGBImage(canvas: expected.canvas, background: .black)
        #expect(m != design && design.bytes.contains { $0 != 0 && $0 != 255 })
        #expect(m.bytes.allSatisfy { $0 == 0 || $0 == 255 })
        #expect(m.bytes.contains(255), "something is lit")
        // Lit exactly where the design's luma (Rec. 709, as the MAX7219 encoder weighs it) is at least half.
        for i in stride(from: 0, to: m.bytes.count, by: 3) {
            let luma = (54 * Int(design.bytes[i]) + 183 * Int(design.bytes[i + 1]) + 19 * Int(design.bytes[i + 2]) + 128) >> 8
            #expect(m.bytes[i] == (luma >= 128 ? 255 : 0), "pixel \(i / 3)")
        }
    }

    /// --size and --zoom are each in range, but together they can ask for an image no memory
    /// holds (4096x4096 at 64 was a trap in the allocation, exit 132; at 16 the OOM killer):
    /// refused before anything is allocated, naming both, the pixels and the limit.
    @Test(arguments: [
        (["--size", "4096x4096", "--zoom", "64"], "--size 4096x4096 at --zoom 64 makes a 262144x262144 image (68719476736 pixels); at most 67108864 pixels (8192x8192) are written"),
        (["--size", "4096x4096", "--zoom", "16"], "--size 4096x4096 at --zoom 16 makes a 65536x65536 image (4294967296 pixels); at most 67108864 pixels (8192x8192) are written"),
        (["--size", "4096x4096", "--zoom", "3"], "--size 4096x4096 at --zoom 3 makes a 12288x12288 image (150994944 pixels); at most 67108864 pixels (8192x8192) are written"),
        (["--size", "200x200", "--zoom", "41"], "--size 200x200 at --zoom 41 makes a 8200x8200 image (67240000 pixels); at most 67108864 pixels (8192x8192) are written"),
    ])
    func anOutputTooLargeIsAUsageError(arguments: [String], expected: String) throws {
        let dir = try Binary.temporaryDirectory()
        for file in ["x.ppm", "x.png", "x.gif"] {
            let path = dir.appendingPathComponent(file).path
            let r = try Binary.run("loaderctl", ["render", "linkedin"] + arguments + ["-o", path])
            #expect(r.status == 2, "stderr: \(r.stderr)")
            #expect(r.stderr.hasPrefix("Error: " + expected + "\n"), "stderr: \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    /// A GIF's sides are 16-bit: a long strip zoomed past 65535 is refused before it is drawn.
    @Test func aGIFWiderThanItsFormatIsAUsageError() throws {
        let r = try Binary.run("loaderctl", ["render", "bar", "--size", "4096x1", "--zoom", "20", "-o", "/tmp/wide.gif"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("Error: --size 4096x1 at --zoom 20 makes a 81920x20 image; a GIF's sides are at most 65535\n"), "stderr: \(r.stderr)")
    }

    /// A script's fixed prefix (`loaderctl -q --socket $S`) works with the offline verbs too:
    /// the connection options are accepted before or after them, their values checked as
    /// anywhere, and they change nothing.
    @Test func connectionOptionsAreAcceptedByTheOfflineVerbs() throws {
        let dir = try Binary.temporaryDirectory()
        let plain = dir.appendingPathComponent("plain.ppm").path
        #expect(try Binary.run("loaderctl", ["render", "bar", "--size", "16x4", "-o", plain]).status == 0)
        for (i, arguments) in [
            ["-q", "--socket", "/tmp/no.sock", "render", "bar"],
            ["--quiet", "--timeout", "2", "render", "bar"],
            ["render", "bar", "-q", "--socket=/tmp/no.sock", "--timeout", "0.5"],
        ].enumerated() {
            let path = dir.appendingPathComponent("\(i).ppm").path
            let r = try Binary.run("loaderctl", arguments + ["--size", "16x4", "-o", path])
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            #expect(r.stdout == "" && r.stderr == "")
            #expect(try PPM.read(path: path) == PPM.read(path: plain))
        }
        let preview = try Binary.run("loaderctl", ["-q", "--socket", "/tmp/no.sock", "preview", "bar", "--size", "8x2", "--duration", "0.05"])
        #expect(preview.status == 0, "stderr: \(preview.stderr)")
        // Their values are still checked.
        for (arguments, expected) in [
            (["--timeout", "0", "render", "bar", "-o", "/tmp/x.ppm"], "--timeout must be more than 0 and at most 3600 seconds, got 0"),
            (["render", "bar", "-o", "/tmp/x.ppm", "--socket", ""], "--socket must not be empty"),
            (["preview", "bar", "--timeout", "soon"], "The value 'soon' is invalid for '--timeout <SECONDS>'"),
            (["render", "bar", "-o", "/tmp/x.ppm", "--socket"], "Missing value for '--socket <PATH>'"),
        ] {
            let r = try Binary.run("loaderctl", arguments)
            #expect(r.status == 2, "\(arguments)")
            #expect(r.stderr.contains(expected), "\(arguments): \(r.stderr)")
        }
        // Not listed in their help, where they would mean nothing.
        #expect(try !Binary.run("loaderctl", ["render", "--help"]).stdout.contains("--socket"))
    }

    @Test func aLogoThatCannotBeReadIsAWarningAndTheFrameIsDrawn() throws {
        let dir = try Binary.temporaryDirectory()
        let path = dir.appendingPathComponent("boot.ppm").path
        let r = try Binary.run("loaderctl", ["render", "bar", "--size", "800x480", "--set", "screen.logo=/nonexistent/logo.png", "--output", path])
        #expect(r.status == 0)
        #expect(r.stderr == "warning: screen.logo not shown: cannot read /nonexistent/logo.png: No such file or directory; the screen draws without it\n")
        #expect(try PPM.read(path: path).width == 800)
    }

    /// A small screen crowded by a large logo and loader has no room for the message: said, as
    /// loaderd logs it (it was left out without a word), and the frame is drawn.
    @Test func noRoomForTheMessageIsAWarning() throws {
        let dir = try Binary.temporaryDirectory()
        let logo = dir.appendingPathComponent("logo.ppm").path, path = dir.appendingPathComponent("f.ppm").path
        FileManager.default.createFile(atPath: logo, contents: Data("P6\n200 200\n255\n".utf8) + Data(repeating: 0x80, count: 200 * 200 * 3))
        let crowded = try Binary.run("loaderctl", ["render", "quizup", "--size", "320x240", "--set", "screen.logo=" + logo,
                                                   "--set", "screen.loaderSize=400", "--message", "Starting network", "--output", path])
        #expect(crowded.status == 0)
        #expect(crowded.stderr == "warning: no room for the message under the loader (320x240): not drawn; a smaller screen.logo, screen.loaderSize or --margin makes room\n")
        let roomy = try Binary.run("loaderctl", ["render", "quizup", "--size", "320x240", "--message", "Starting network", "--output", path])
        #expect(roomy.status == 0 && roomy.stderr.isEmpty, "\(roomy.stderr)")
    }

    @Test func unwritableOutputIsAnErrorNamingThePath() throws {
        let r = try Binary.run("loaderctl", ["render", "bar", "--output", "/nonexistent-dir/x.png"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("cannot write /nonexistent-dir/x.png"))
    }

    @Test func listNamesEveryLoaderInTheCatalog() throws {
        let r = try Binary.run("loaderctl", ["list", "--names"])
        #expect(r.status == 0)
        #expect(r.stdout.split(separator: "\n").map(String.init) == Catalog.names)
        let full = try Binary.run("loaderctl", ["list"])
        for type in Catalog.loaders {
            #expect(full.stdout.contains("\(type.name) — \(type.summary)"))
            for spec in type.parameters { #expect(full.stdout.contains(spec.key)) }
        }
    }

    /// The --help texts are part of the interface: pinned in Tests/CLITests/Help/.
    /// Regenerate with LOADERD_UPDATE_GOLDEN=1 after an intended change.
    @Test(arguments: [[], ["render"], ["preview"], ["list"], ["start"], ["stop"], ["progress"], ["message"], ["status"],
                      ["ping"], ["brightness"], ["version"]])
    func helpTextIsPinned(command: [String]) throws {
        let r = try Binary.run("loaderctl", command + ["--help"])
        #expect(r.status == 0)
        let name = (["loaderctl"] + command).joined(separator: "-") + ".txt"
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Help/\(name)")
        if ProcessInfo.processInfo.environment["LOADERD_UPDATE_GOLDEN"] == "1" {
            try r.stdout.write(to: url, atomically: true, encoding: .utf8)
        }
        let pinned = try String(contentsOf: url, encoding: .utf8)
        #expect(r.stdout == pinned)
    }
}
