import CLinux
import CompactText
import ScreenEncoding

/// The `auto` display: DRM when a card has a connected output, else the first framebuffer, else
/// an error naming both. Placement keys (and `console`, `fps`) pass to whichever opens; `connector`,
/// `mode` and `format` apply to DRM only.
public enum AutoDisplay {
    public static var acceptedKeys: [String] { DRMOptions.keys.filter { $0 != "device" } }

    /// Where the devices `auto` looks for live: `fb*` in it, `card*` in its `dri/`.
    public static let deviceDirectory = "/dev"

    /// Which device `auto` would open now.
    public enum Choice: Sendable, Equatable {
        case drm(String)
        case framebuffer(String)
        /// Neither: the sentence says what was looked at.
        case none(String)
    }

    /// Looks once. A caller that waits for the display device to appear (the daemon, with inotify
    /// on /dev and /dev/dri) calls this again on each new device until it is not `.none`.
    /// `framebuffers`: false for `drm:device=auto`, which takes a DRM card only. `devices`: the
    /// directory searched, /dev but in tests.
    public static func find(devices: String = deviceDirectory, framebuffers: Bool = true) -> Choice {
        let drm: String
        switch firstCardWithConnectedOutput(devices: devices) {
        case .success(let path): return .drm(path)
        case .failure(let why): drm = why.description
        }
        guard framebuffers else { return .none("no DRM card with a connected output: \(drm)") }
        if let fb = (0..<8).map({ (n: Int) -> String in devices + "/fb\(n)" }).first(where: { (p: String) -> Bool in access(p, F_OK) == 0 }) {
            return .framebuffer(fb)
        }
        return .none("no display device: DRM: \(drm); fbdev: no \(devices)/fb* exists (is the display driver loaded?)")
    }

    /// Whether a name created or removed in /dev (`inDRI` false) or /dev/dri (true) can change
    /// what `find` picks: the waiting daemon looks again only then, not for every tty and disk
    /// udev makes during the boot.
    public static func concerns(name: String, inDRI: Bool) -> Bool {
        inDRI ? name.hasPrefix("card") : name.hasPrefix("fb") || name == "dri"
    }

    public static func open(_ spec: DisplaySpec) throws(DisplayOpenError) -> any Display {
        do { try spec.checkKeys(acceptedKeys) } catch { throw .spec(error) }
        return try open(spec, at: find())
    }

    /// Opens what `find` chose for `spec` (an `auto` spec, or a `drm` one whose device is `auto`).
    public static func open(_ spec: DisplaySpec, at choice: Choice) throws(DisplayOpenError) -> any Display {
        if spec.type == "auto" {
            do { try spec.checkKeys(acceptedKeys) } catch { throw .spec(error) }
        }
        let keys = spec.options.filter { $0.key != "device" }
        switch choice {
        case .drm(let path):
            return try DRMDisplay.open(DisplaySpec(type: "drm", options: [.init("device", path)] + keys), probed: true,
                                       warn: warnOnStandardError)
        case .framebuffer(let path):
            let fbKeys = FramebufferOptions.keys
            let kept = keys.filter { fbKeys.contains($0.key) }
            return try FramebufferDisplay.open(DisplaySpec(type: "fb", options: [.init("device", path)] + kept))
        case .none(let why):
            throw .device(DisplayError(display: spec.type, message: why))
        }
    }
}
