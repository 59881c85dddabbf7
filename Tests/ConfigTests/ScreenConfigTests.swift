import Loaders
@testable import LoaderDaemon
import Raster
import Testing

/// `[screen]`: the boot screen around every loader.
@Suite struct ScreenConfigTests {
    @Test func screenTableSetsTheBootScreen() throws {
        let config = try Config.parse("[screen]\nbackground = \"#101418\"\nlogo = \"/etc/loaderd/logo.png\"\nmargin = 12\nloader_size = 150\nmono = true\n")
        #expect(config.screen.background == Color(r: 0x10, g: 0x14, b: 0x18))
        #expect(config.screen.logo == "/etc/loaderd/logo.png")
        #expect(config.screen.margin == 12 && config.screen.loaderSize == 150 && config.screen.monochrome == true)
        let options = SceneOptions().applying(DaemonConfiguration(config, path: "x").screen)
        #expect(options.logoPath == "/etc/loaderd/logo.png" && options.margin == 12 && options.monochrome)
    }

    @Test func screenFontChoosesTheFace() throws {
        func font(_ line: String) throws -> ScreenFont {
            SceneOptions().applying(DaemonConfiguration(try Config.parse("[screen]\n" + line + "\n"), path: "x").screen).font
        }
        #expect(try font("font = \"/usr/share/fonts/x.ttf\"") == .file("/usr/share/fonts/x.ttf"))
        #expect(try font("font = \"auto\"") == .automatic)
        #expect(try font("font = \"\"") == .bitmap)
        // Unset, the table leaves the options' own choice (loaderd starts from .automatic).
        var automatic = SceneOptions()
        automatic.font = .automatic
        #expect(automatic.applying(DaemonConfiguration(try Config.parse("[screen]\nmargin = 3\n"), path: "x").screen).font == .automatic)
    }

    @Test func badScreenValuesNameTheKeyAndWhatIsAccepted() {
        #expect(throws: ConfigError.self) { try Config.parse("[screen]\nmargin = -3\n") }
        #expect(throws: ConfigError.self) { try Config.parse("[screen]\nbackground = \"nope\"\n") }
        do {
            _ = try Config.parse("[screen]\nlogos = \"x\"\n")
            Issue.record("an unknown key was accepted")
        } catch {
            #expect(error.description.contains("logos") && error.description.contains("logo"))
        }
    }
}
