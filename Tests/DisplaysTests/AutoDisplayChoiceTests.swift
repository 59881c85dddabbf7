import Foundation
import Testing
@testable import Displays

/// What `auto` picks from a device directory, and which names in it make a waiting daemon look
/// again. A temporary directory stands in for /dev (files cannot be DRM cards or framebuffers, so
/// the search's "not a mode-setting device" path is the one taken for a card).
struct AutoDisplayChoiceTests {
    func devices(_ names: [String]) throws -> String {
        let dir = "/tmp/ldt-auto-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for name in names {
            if name.hasSuffix("/") {
                try FileManager.default.createDirectory(atPath: dir + "/" + name, withIntermediateDirectories: true)
            } else {
                #expect(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data()))
            }
        }
        return dir
    }

    @Test func nothingThereNamesWhatWasLookedAt() throws {
        let dir = try devices([])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(AutoDisplay.find(devices: dir) == .none("no display device: DRM: no DRM device (\(dir)/dri/card* does not exist: is the display driver "
            + "loaded, e.g. dtoverlay=vc4-kms-v3d on a Raspberry Pi?); fbdev: no \(dir)/fb* exists (is the display driver loaded?)"))
    }

    @Test func theFirstFramebufferIsTakenWhenNoCardHasAnOutput() throws {
        let dir = try devices(["fb1", "fb3", "dri/", "dri/card0"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(AutoDisplay.find(devices: dir) == .framebuffer(dir + "/fb1"))
    }

    @Test func drmAutoTakesNoFramebuffer() throws {
        let dir = try devices(["fb0", "dri/", "dri/card0"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(AutoDisplay.find(devices: dir, framebuffers: false) == .none("no DRM card with a connected output: \(dir)/dri/card0: not a mode-setting device"))
    }

    @Test func onlyDisplayNodesMakeTheDaemonLookAgain() {
        for name in ["fb0", "fb12", "dri"] { #expect(AutoDisplay.concerns(name: name, inDRI: false), "\(name)") }
        for name in ["tty1", "sda", "card0", "null"] { #expect(!AutoDisplay.concerns(name: name, inDRI: false), "\(name)") }
        for name in ["card0", "card1"] { #expect(AutoDisplay.concerns(name: name, inDRI: true), "\(name)") }
        for name in ["renderD128", "by-path", "fb0"] { #expect(!AutoDisplay.concerns(name: name, inDRI: true), "\(name)") }
    }
}
