import CLinux

/// The `auto` display: DRM when a card has a connected output, else the first framebuffer, else
/// an error naming both. Placement keys (and `console`, `fps`) pass to whichever opens; `connector`,
/// `mode` and `format` apply to DRM only.
public enum AutoDisplay {
    public static var acceptedKeys: [String] { DRMOptions.keys.filter { $0 != "device" } }

    /// Which device `auto` would open now.
    public enum Choice: Sendable, Equatable {
        case drm(String)
        case framebuffer(String)
        /// Neither: the sentence says what was looked at.
        case none(String)
    }

    /// Looks once. The hook for boot integration: a caller that waits for the display device to
    /// appear (udev, inotify on /dev) calls this again on each new device until it is not `.none`.
    public static func find() -> Choice {
        let drm: String
        switch firstCardWithConnectedOutput() {
        case .success(let path): return .drm(path)
        case .failure(let why): drm = why.description
        }
        if let fb = (0..<8).map({ (n: Int) -> String in "/dev/fb\(n)" }).first(where: { (p: String) -> Bool in access(p, F_OK) == 0 }) {
            return .framebuffer(fb)
        }
        return .none("no display device: DRM: \(drm); fbdev: no /dev/fb* exists (is the display driver loaded?)")
    }

    public static func open(_ spec: DisplaySpec) throws(DisplayOpenError) -> any Display {
        do { try spec.checkKeys(acceptedKeys) } catch { throw .spec(error) }
        switch find() {
        case .drm(let path):
            return try DRMDisplay.open(DisplaySpec(type: "drm", options: [.init("device", path)] + spec.options), probed: true,
                                       warn: { standardErrorLine("<4>" + $0) })
        case .framebuffer(let path):
            let fbKeys = FramebufferOptions.keys
            let kept = spec.options.filter { fbKeys.contains($0.key) }
            return try FramebufferDisplay.open(DisplaySpec(type: "fb", options: [.init("device", path)] + kept))
        case .none(let why):
            throw .device(DisplayError(display: "auto", message: why))
        }
    }
}
