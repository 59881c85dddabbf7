import Foundation
import Testing
@testable import Displays

/// Errors a person can act on when the DRM device is not there. They depend on what the machine
/// has, so each test says which machine it speaks about and is skipped elsewhere.
struct DRMErrorTests {
    static var hasDRM: Bool { FileManager.default.fileExists(atPath: "/dev/dri/card0") }
    static var hasFramebuffer: Bool { (0..<8).contains { FileManager.default.fileExists(atPath: "/dev/fb\($0)") } }

    @Test(.enabled(if: !hasDRM, "this machine has /dev/dri/card0"))
    func aMissingCardSaysNoneExistsAndWhatToLoad() {
        do {
            _ = try DRMDisplay.open(DisplaySpec(parsing: "drm:device=/dev/dri/card9"), warn: { _ in })
            Issue.record("opened a missing card")
        } catch {
            #expect("\(error)" == "drm:/dev/dri/card9: cannot open /dev/dri/card9: No such file or directory "
                + "(no /dev/dri/card* exists: is the display driver loaded? on a Raspberry Pi: dtoverlay=vc4-kms-v3d; else try --display fb:)")
        }
    }

    @Test(.enabled(if: !hasDRM && !hasFramebuffer, "this machine has a display device"))
    func autoWithoutAnyDeviceNamesBoth() {
        #expect(AutoDisplay.find() == .none("no display device: DRM: no DRM device (/dev/dri/card* does not exist: is the display driver "
            + "loaded, e.g. dtoverlay=vc4-kms-v3d on a Raspberry Pi?); fbdev: no /dev/fb* exists (is the display driver loaded?)"))
        do {
            _ = try AutoDisplay.open(DisplaySpec(parsing: "auto:scale=4"))
            Issue.record("auto opened something")
        } catch {
            #expect("\(error)".hasPrefix("auto: no display device: DRM: "))
        }
    }

    @Test func autoRefusesKeysOfNeitherDisplay() {
        do {
            _ = try AutoDisplay.open(DisplaySpec(parsing: "auto:device=/dev/fb0"))
            Issue.record("auto accepted device=")
        } catch {
            #expect("\(error)".contains("unknown key 'device'"))
        }
    }

    @Test func theMasterHintNamesWhatToDo() {
        let busy = drmMasterHint(path: "/dev/dri/card0", .resourceBusy)
        #expect(busy.hasPrefix("cannot become DRM master on /dev/dri/card0 (Device or resource busy): "))
        #expect(busy.hasSuffix("; stop it (e.g. systemctl stop display-manager plymouth-quit-wait), or use --display fb: on its framebuffer"))
        #expect(drmMasterHint(path: "/dev/dri/card0", .permissionDenied).contains("run loaderd as root (CAP_SYS_ADMIN)"))
    }
}
