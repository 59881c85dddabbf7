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

    /// A number where a path, a font or a colour is expected is a slip, not a name: refused as the
    /// rest of the file refuses a value of the wrong type, at its line and column; and the other
    /// way round, a number or a boolean in quotes.
    @Test func screenValuesOfTheWrongTypeAreRefused() {
        func errors(_ text: String) -> [String] {
            do { _ = try Config.parse(text, source: "loaderd.toml"); return [] } catch { return error.all.map { $0.description } }
        }
        #expect(errors("[screen]\nlogo = 5\nfont = 3\n") == [
            "loaderd.toml:2:8: screen.logo: expected a string, got 5",
            "loaderd.toml:3:8: screen.font: expected a string, got 3",
        ])
        #expect(errors("[screen]\nmargin = \"12\"\nmono = \"true\"\nloader_size = 1.5\n") == [
            #"loaderd.toml:2:10: screen.margin: expected a whole number from 0 to 1000, written without quotes, got "12""#,
            #"loaderd.toml:3:8: screen.mono: expected true or false, written without quotes, got "true""#,
            "loaderd.toml:4:15: screen.loader_size: expected a whole number from 10 to 400, got 1.5",
        ])
        // [loader.parameters] takes the words of `loaderctl start` (quoted numbers too), but
        // text is still a string.
        #expect(errors("[loader]\nname = \"shimmer\"\nparameters = { text = 5, duration = \"1.2\" }\n") == [
            "loaderd.toml:3:23: loader.parameters.text: expected a string, got 5",
        ])
        #expect(errors("[loader]\nname = \"linkedin\"\nparameters = { duration = 1.2, fill = \"red\" }\n").isEmpty)
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
