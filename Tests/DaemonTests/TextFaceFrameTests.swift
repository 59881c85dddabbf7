import FixedPoint
import Foundation
import ImageCodecs
import Loaders
import Raster
import Testing

/// loaderd draws a screen's message in the FreeType face (after the first frame), exactly as the
/// renderer does in-process; a font that cannot be opened is logged and the bitmap font stays.
@Suite struct TextFaceFrameTests {
    /// The 800x480 linkedin screen as the renderer draws it in-process (MediaHelperTests too).
    static func expected(font: ScreenFont, state: FrameState) throws -> RGBImage {
        var options = SceneOptions()
        options.font = font
        var scene = Scene(loader: try Catalog.make("linkedin"), width: 800, height: 480, options: options)
        _ = scene.loadFace()
        scene.render(state)
        return RGBImage(canvas: scene.canvas, background: .black)
    }

    @Test func aScreenMessageIsDrawnInTheFace() throws {
        let daemon = try DaemonProcess(arguments: ["--freeze-time", "0.6", "--loader", "linkedin"], size: "800x480")
        #expect(try daemon.client().request("message Mounting /home") == "OK")
        let state = FrameState(elapsed: 600_000, message: "Mounting /home")
        let image = try Self.expected(font: .automatic, state: state)
        #expect(image != (try Self.expected(font: .bitmap, state: state)), "the face changes the picture")
        #expect(eventually { (try? ImageFile.read(path: daemon.imagePath)) == image })
        #expect(try daemon.terminate() == 0)
    }

    @Test func aFontThatCannotBeOpenedIsLoggedAndTheBitmapFontStays() throws {
        let daemon = try DaemonProcess(arguments: ["--freeze-time", "0.6"], size: "800x480")
        let client = try daemon.client()
        #expect(try client.request("start linkedin screen.font=/nonexistent/font.ttf") == "OK started linkedin")
        #expect(try client.request("message Mounting /home") == "OK")
        let log = "text: font /nonexistent/font.ttf cannot be opened; screens use the bitmap font"
        #expect(eventually { daemon.process.log.contains(log) }, "\(daemon.process.log)")
        let bitmap = try Self.expected(font: .bitmap, state: FrameState(elapsed: 600_000, message: "Mounting /home"))
        #expect(eventually { (try? ImageFile.read(path: daemon.imagePath)) == bitmap })
        // Started again, the same font is not tried (nor logged) again.
        #expect(try client.request("start linkedin screen.font=/nonexistent/font.ttf") == "OK running linkedin")
        #expect(try client.request("start bar screen.font=/nonexistent/font.ttf") == "OK started bar")
        #expect(try client.request("status").contains("\"loader\":\"bar\""))
        #expect(daemon.process.log.components(separatedBy: log).count == 2, "\(daemon.process.log)")
        #expect(try daemon.terminate() == 0)
    }
}
