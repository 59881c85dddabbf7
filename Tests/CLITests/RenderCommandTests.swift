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

    @Test(arguments: [
        (["render", "nope", "--output", "/tmp/x.png"], "unknown loader 'nope'"),
        (["render", "bar", "--set", "fill=blu", "--output", "/tmp/x.png"], "invalid fill=blu"),
        (["render", "bar", "--set", "speed=3", "--output", "/tmp/x.png"], "unknown parameter"),
        (["render", "bar", "--size", "0x5", "--output", "/tmp/x.png"], "--size"),
        (["render", "bar", "--progress", "101", "--output", "/tmp/x.png"], "--progress must be a number from 0 to 100"),
        (["render", "bar", "--output", "/tmp/x.bmp"], "expected one of .ppm, .png, .gif"),
        (["render", "bar", "--fps", "60", "--output", "/tmp/x.gif"], "--fps must be from 1 to 50"),
        (["render", "bar", "--background", "nocolour", "--output", "/tmp/x.png"], "invalid colour 'nocolour'"),
    ])
    func badArgumentsExitWithUsageStatusAndAClearMessage(arguments: [String], expected: String) throws {
        let r = try Binary.run("loaderctl", arguments)
        #expect(r.status == 2)
        #expect(r.stderr.contains(expected), "stderr was: \(r.stderr)")
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
