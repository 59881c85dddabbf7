import Testing
@testable import LoaderDaemon

@Suite("Config: [boot], the psplash and Plymouth front ends")
struct BootConfigTests {
    private func failure(_ text: String) -> String {
        do { _ = try Config.parse(text, source: "loaderd.toml"); return "no error" } catch { return error.description }
    }

    @Test func defaultsAreOff() throws {
        let b = Config().boot
        #expect(!b.psplashFifo && b.psplashFifoDir == "/run" && !b.plymouth)
        #expect(b.timeline == "/var/lib/loaderd/boot-timeline" && !b.statusMessages)
        #expect(b.shutdownLoader == nil && b.rebootLoader == nil)
        let s = b.settings
        #expect(s.psplashFifoDirectory == nil && !s.plymouth && s.modeLoaders.isEmpty)
        #expect(s == BootSettings())
    }

    @Test func everyBootKeyIsRead() throws {
        let b = try Config.parse("""
            [boot]
            psplash_fifo = true
            psplash_fifo_dir = "/run/splash"
            plymouth = true
            timeline = "/var/lib/x/timeline"
            status_messages = true
            shutdown_loader = "Worm"
            reboot_loader = "quizup"
            """).boot
        #expect(b.psplashFifo && b.psplashFifoDir == "/run/splash" && b.plymouth)
        #expect(b.timeline == "/var/lib/x/timeline" && b.statusMessages)
        #expect(b.shutdownLoader == "worm" && b.rebootLoader == "quizup")
        let s = b.settings
        #expect(s.psplashFifoDirectory == "/run/splash" && s.plymouth && s.timelinePath == "/var/lib/x/timeline" && s.statusMessages)
        #expect(s.modeLoaders == ["shutdown": "worm", "reboot": "quizup"])
    }

    @Test func plymouthAutoAnswersOnlyWhenTheNameIsFree() throws {
        let auto = try Config.parse("[boot]\nplymouth = \"auto\"").boot
        #expect(auto.plymouth && auto.plymouthIfFree)
        #expect(auto.settings.plymouth && auto.settings.plymouthIfFree)
        let on = try Config.parse("[boot]\nplymouth = true").boot
        #expect(on.plymouth && !on.plymouthIfFree && !on.settings.plymouthIfFree)
        let off = try Config.parse("[boot]\nplymouth = false").boot
        #expect(!off.plymouth && !off.settings.plymouth)
    }

    @Test func theDirectoryAloneDoesNotTurnTheFIFOOn() throws {
        #expect(try Config.parse("[boot]\npsplash_fifo_dir = \"/tmp\"").boot.settings.psplashFifoDirectory == nil)
    }

    @Test(arguments: [
        ("[boot]\npsplash_fifo_dir = \"run\"", #"loaderd.toml:2:20: boot.psplash_fifo_dir: expected an absolute path (starting with /), got "run""#),
        ("[boot]\ntimeline = 3", "loaderd.toml:2:12: boot.timeline: expected a string, got 3"),
        ("[boot]\nstatus_messages = \"yes\"", #"loaderd.toml:2:19: boot.status_messages: expected true or false, got "yes""#),
        ("[boot]\nshutdown_loader = \"worms\"", #"loaderd.toml:2:19: boot.shutdown_loader: unknown loader "worms" (did you mean 'worm'?); available: linkedin, pagedots, quizup, shimmer, worm, skeleton, bar"#),
        ("[boot]\nplymouth = \"yes\"", #"loaderd.toml:2:12: boot.plymouth: expected true, false or "auto" (answer only when plymouthd is not running), got "yes""#),
        ("[boot]\nplymoth = true", "loaderd.toml:2:1: unknown key 'plymoth' in [boot] (did you mean 'plymouth'?); known keys: psplash_fifo, psplash_fifo_dir, plymouth, timeline, status_messages, shutdown_loader, reboot_loader"),
    ])
    func errorsNameLineColumnAndKey(_ text: String, _ expected: String) {
        #expect(failure(text) == expected)
    }
}
