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
        guard framebuffers else { return .none("no DRM card with a connected output: " + drm) }
        // A plain loop (a map and a `first(where:)` were each code of their own, for one search).
        for n in 0..<8 {
            let fb = filled("{}/fb{}", devices, String(n))
            if access(fb, F_OK) == 0 { return .framebuffer(fb) }
        }
        return .none(filled("no display device: DRM: {}; fbdev: no {}/fb* exists (is the display driver loaded?)", drm, devices))
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
        let isDRM: Bool, path: String
        switch choice {
        case .drm(let p): isDRM = true; path = p
        case .framebuffer(let p): isDRM = false; path = p
        case .none(let why): throw .device(DisplayError(display: spec.type, message: why))
        }
        // The device found, then the spec's other keys (for fb: only those it takes), by one
        // loop rather than a filter per display (for size).
        var options = [DisplaySpec.Option("device", path)]
        for option in spec.options where option.key != "device" && (isDRM || FramebufferOptions.keys.contains(option.key)) {
            options.append(option)
        }
        if isDRM {
            return try DRMDisplay.open(DisplaySpec(type: "drm", options: options), probed: true, warn: warnOnStandardError)
        }
        return try FramebufferDisplay.open(DisplaySpec(type: "fb", options: options))
    }
}
