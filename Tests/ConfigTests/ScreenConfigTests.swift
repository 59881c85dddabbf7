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
