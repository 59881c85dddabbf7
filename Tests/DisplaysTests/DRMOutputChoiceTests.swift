import Raster
import Testing
@testable import Displays

/// Which outputs and mode a DRM display drives, decided from probed connectors (no device).
struct DRMOutputChoiceTests {
    static func hdmi(_ n: Int, connected: Bool = true, crtcs: UInt32 = 0b11, _ modes: [DRMMode]) -> DRMOutput {
        DRMOutput(connectorID: UInt32(30 + n), name: "HDMI-A-\(n)", connected: connected, modes: modes, possibleCRTCs: crtcs)
    }
    static let tv = [DRMMode(width: 1920, height: 1080, refresh: 60, isPreferred: true, index: 0),
                     DRMMode(width: 1920, height: 1080, refresh: 50, index: 1),
                     DRMMode(width: 1280, height: 720, refresh: 60, index: 2),
                     DRMMode(width: 3840, height: 2160, refresh: 30, index: 3)]
    static let panel = [DRMMode(width: 1280, height: 720, refresh: 60, isPreferred: true, index: 0),
                        DRMMode(width: 1280, height: 720, refresh: 50, index: 1)]

    @Test func thePreferredModeOfTheFirstConnectedOutputWins() throws {
        let choice = try DRMOutputChoice.choose([Self.hdmi(1, connected: false, Self.panel), Self.hdmi(2, Self.tv)], crtcCount: 2).get()
        #expect(choice.width == 1920 && choice.height == 1080)
        #expect(choice.assignments.map { $0.output.name } == ["HDMI-A-2"])
        #expect(choice.assignments[0].mode.refresh == 60 && choice.assignments[0].mode.index == 0)
    }

    @Test func withoutAPreferredModeTheLargestIsTaken() throws {
        let modes = Self.tv.map { m -> DRMMode in var m = m; m.isPreferred = false; return m }
        let choice = try DRMOutputChoice.choose([Self.hdmi(1, modes)], crtcCount: 1).get()
        #expect(choice.width == 3840 && choice.height == 2160)
    }

    @Test func aConfiguredModeIsFoundWithOrWithoutItsRefresh() throws {
        let any = try DRMOutputChoice.choose([Self.hdmi(1, Self.tv)], crtcCount: 1, mode: DRMModeRequest(width: 1920, height: 1080)).get()
        #expect(any.assignments[0].mode.index == 0)   // the preferred one of that size
        let fifty = try DRMOutputChoice.choose([Self.hdmi(1, Self.tv)], crtcCount: 1, mode: DRMModeRequest(width: 1920, height: 1080, refresh: 50)).get()
        #expect(fifty.assignments[0].mode.index == 1)
        let missing = DRMOutputChoice.choose([Self.hdmi(1, Self.tv)], crtcCount: 1, mode: DRMModeRequest(width: 800, height: 600))
        #expect(missing == .failure(.noSuchMode("HDMI-A-1 has no mode 800x600; its modes: 1920x1080@60, 1920x1080@50, 1280x720@60, 3840x2160@30")))
    }

    @Test func outputsWithAModeOfTheSameSizeMirrorOnTheirOwnCRTC() throws {
        let choice = try DRMOutputChoice.choose([Self.hdmi(1, Self.panel), Self.hdmi(2, Self.tv)], crtcCount: 2).get()
        #expect(choice.width == 1280 && choice.height == 720)
        #expect(choice.assignments.map { $0.output.name } == ["HDMI-A-1", "HDMI-A-2"])
        #expect(choice.assignments.map { $0.crtcIndex } == [0, 1])
        #expect(choice.assignments[1].mode.index == 2)
        #expect(choice.skipped.isEmpty)
    }

    @Test func anOutputWithoutTheSizeOrAFreeCRTCIsLeftDarkWithTheReason() throws {
        let small = [DRMMode(width: 800, height: 480, refresh: 60, isPreferred: true, index: 0)]
        let noSize = try DRMOutputChoice.choose([Self.hdmi(1, Self.tv), Self.hdmi(2, small)], crtcCount: 2).get()
        #expect(noSize.assignments.count == 1)
        #expect(noSize.skipped == ["HDMI-A-2 left dark: it has no 1920x1080 mode to mirror HDMI-A-1 (its preferred: 800x480@60; give mode= a size both show)"])
        let oneCRTC = try DRMOutputChoice.choose([Self.hdmi(1, crtcs: 0b1, Self.tv), Self.hdmi(2, crtcs: 0b1, Self.tv)], crtcCount: 1).get()
        #expect(oneCRTC.skipped == ["HDMI-A-2 left dark: no free display controller (CRTC) can drive it"])
    }

    @Test func theCRTCAnOutputAlreadyUsesIsKept() throws {
        var output = Self.hdmi(1, Self.tv)
        output.currentCRTC = 1
        let choice = try DRMOutputChoice.choose([output], crtcCount: 2).get()
        #expect(choice.assignments[0].crtcIndex == 1)
    }

    @Test func aNamedConnectorIsTheOnlyOneDriven() throws {
        let choice = try DRMOutputChoice.choose([Self.hdmi(1, Self.tv), Self.hdmi(2, Self.tv)], crtcCount: 2, connector: "hdmi-a-2").get()
        #expect(choice.assignments.map { $0.output.name } == ["HDMI-A-2"])
        let unplugged = DRMOutputChoice.choose([Self.hdmi(1, Self.tv), Self.hdmi(2, connected: false, [])], crtcCount: 2, connector: "HDMI-A-2")
        #expect(unplugged == .failure(.noConnectedOutput("connector HDMI-A-2 has no display attached (connectors: HDMI-A-1 connected, HDMI-A-2 disconnected)")))
    }

    @Test func noConnectedOutputNamesEveryConnector() {
        let none = DRMOutputChoice.choose([Self.hdmi(1, connected: false, []), Self.hdmi(2, connected: false, [])], crtcCount: 2)
        #expect(none == .failure(.noConnectedOutput("no connected output (connectors: HDMI-A-1 disconnected, HDMI-A-2 disconnected)")))
    }

    @Test func connectorNamesFollowTheKernel() {
        #expect(drmConnectorTypeName(11) == "HDMI-A")
        #expect(drmConnectorTypeName(15) == "Virtual")
        #expect(drmConnectorTypeName(16) == "DSI")
        #expect(drmConnectorTypeName(99) == "Type99")
    }
}

/// The `drm:` spec: every key checked, errors naming what is accepted.
struct DRMOptionsTests {
    @Test func modesParse() {
        #expect(DRMOptions.parseMode("1920x1080") == DRMModeRequest(width: 1920, height: 1080))
        #expect(DRMOptions.parseMode("1280x720@50") == DRMModeRequest(width: 1280, height: 720, refresh: 50))
        #expect(DRMOptions.parseMode("1280x720@") == nil)
        #expect(DRMOptions.parseMode("1280") == nil)
    }

    @Test func aFullSpecParses() throws {
        let o = try DRMOptions(DisplaySpec(parsing: "drm:device=/dev/dri/card1,connector=DSI-1,mode=800x480@60,format=rgb565,size=64x32,scale=5,rotate=270,anchor=bottom,background=#102030,buffers=1,fps=20"))
        #expect(o.device == "/dev/dri/card1" && o.connector == "DSI-1" && o.mode == DRMModeRequest(width: 800, height: 480, refresh: 60))
        #expect(o.format == .rgb565 && o.screen.scale == 5 && o.screen.rotation == .threeQuarters && o.screen.anchor == .bottom && o.buffering == .one && o.screen.framesPerSecond == 20)
    }

    @Test(arguments: [
        ("drm:device=card0", "invalid display 'drm:device=card0': device=card0: expected auto or a path such as /dev/dri/card0"),
        ("drm:mode=big", "invalid display 'drm:mode=big': mode=big: expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. mode=1280x720 or mode=1920x1080@60"),
        ("drm:format=rgb888", "invalid display 'drm:format=rgb888': format=rgb888: expected xrgb8888 or rgb565"),
        ("drm:size=64x", "invalid display 'drm:size=64x': size=64x: expected WIDTHxHEIGHT with sides from 1 to 4096, e.g. size=64x32"),
        ("drm:mode=1280x720x2@60", "invalid display 'drm:mode=1280x720x2@60': mode=1280x720x2@60: expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. mode=1280x720 or mode=1920x1080@60"),
        // The keys fb: shares (ScreenKeys), read for drm: with fb:'s messages.
        ("drm:scale=0", "invalid display 'drm:scale=0': scale=0: expected a whole number from 1 to 256"),
        ("drm:rotate=45", "invalid display 'drm:rotate=45': rotate=45: expected 0, 90, 180 or 270 (degrees clockwise)"),
        ("drm:vsync=on", "invalid display 'drm:vsync=on': unknown key 'vsync' (accepted: device, connector, mode, format, size, scale, anchor, x, y, rotate, background, console, buffers, fps)"),
    ])
    func badValuesNameWhatIsAccepted(spec: String, message: String) throws {
        #expect(throws: DisplaySpecError.self) { try DRMOptions(DisplaySpec(parsing: spec)) }
        do { _ = try DRMOptions(DisplaySpec(parsing: spec)) } catch { #expect(error.description == message) }
    }

    @Test func autoAcceptsTheDRMKeysButDevice() {
        #expect(AutoDisplay.acceptedKeys.contains("connector") && !AutoDisplay.acceptedKeys.contains("device"))
    }
}
