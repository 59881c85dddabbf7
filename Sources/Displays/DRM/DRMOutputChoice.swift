import CompactText
import Raster

/// A display timing as a person names it: `1920x1080@60`.
public struct DRMMode: Sendable, Equatable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// Vertical refresh in Hz (0 when the driver reports none, e.g. virtual outputs).
    public var refresh: Int
    public var isPreferred: Bool
    /// Index in the connector's mode list (the kernel's timing is looked up by it).
    public var index: Int

    public init(width: Int, height: Int, refresh: Int, isPreferred: Bool = false, index: Int = 0) {
        self.width = width; self.height = height; self.refresh = refresh; self.isPreferred = isPreferred; self.index = index
    }

    public var description: String { filled("{}x{}{}", String(width), String(height), refresh > 0 ? filled("@{}", String(refresh)) : "") }
}

/// A mode as configured (`mode=1280x720` or `mode=1280x720@50`).
public struct DRMModeRequest: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var refresh: Int?
    public init(width: Int, height: Int, refresh: Int? = nil) { self.width = width; self.height = height; self.refresh = refresh }
}

/// One connector as probed: its kernel name (`HDMI-A-1`), whether a display is attached, its
/// modes and the CRTCs its encoders can feed (bit i = the card's i-th CRTC).
public struct DRMOutput: Sendable, Equatable {
    public var connectorID: UInt32
    public var name: String
    public var connected: Bool
    public var modes: [DRMMode]
    public var possibleCRTCs: UInt32
    /// The CRTC index the connector's current encoder feeds, if any (kept to avoid a needless modeset).
    public var currentCRTC: Int?

    public init(connectorID: UInt32, name: String, connected: Bool, modes: [DRMMode], possibleCRTCs: UInt32, currentCRTC: Int? = nil) {
        self.connectorID = connectorID; self.name = name; self.connected = connected; self.modes = modes
        self.possibleCRTCs = possibleCRTCs; self.currentCRTC = currentCRTC
    }
}

/// The outputs the display drives: one buffer size for all of them (mirrored), each output in a
/// mode of exactly that size on its own CRTC.
public struct DRMOutputChoice: Sendable, Equatable {
    public struct Assignment: Sendable, Equatable {
        public var output: DRMOutput
        public var mode: DRMMode
        public var crtcIndex: Int
    }
    public var width: Int
    public var height: Int
    public var assignments: [Assignment]
    /// Connected outputs left dark, each with the reason (for the log).
    public var skipped: [String]

    /// Chooses from `outputs` (in the card's order): the first connected one (or the one named
    /// `connector`) decides the size — the configured `mode` or its preferred mode (else its
    /// largest) — and every other connected output showing a mode of that size mirrors it.
    /// `crtcCount` CRTCs exist; each output needs one its encoders can reach.
    public static func choose(_ outputs: [DRMOutput], crtcCount: Int, connector: String? = nil,
                              mode request: DRMModeRequest? = nil) -> Result<DRMOutputChoice, DRMChoiceError> {
        let primary: DRMOutput
        if let connector {
            guard let named = outputs.first(where: { $0.name.asciiLowercased() == connector.asciiLowercased() }) else {
                return .failure(.noConnectedOutput(filled("no connector named {} (connectors: {})", connector, listing(outputs))))
            }
            guard named.connected, !named.modes.isEmpty else {
                return .failure(.noConnectedOutput(filled("connector {} has no display attached (connectors: {})", named.name, listing(outputs))))
            }
            primary = named
        } else {
            guard let first = outputs.first(where: { $0.connected && !$0.modes.isEmpty }) else {
                return .failure(.noConnectedOutput(filled("no connected output (connectors: {})", outputs.isEmpty ? "none" : listing(outputs))))
            }
            primary = first
        }
        let mode: DRMMode
        if let request {
            guard let found = bestMode(primary.modes, width: request.width, height: request.height, refresh: request.refresh) else {
                // `WxH[@HZ]` as a DRMMode names it (a requested refresh is 1...1000): one
                // description rather than interpolations and a closure here (for size).
                let wanted = DRMMode(width: request.width, height: request.height, refresh: request.refresh ?? 0)
                return .failure(.noSuchMode(filled("{} has no mode {}; its modes: {}", primary.name, wanted.description, distinctModes(primary.modes))))
            }
            mode = found
        } else {
            mode = primary.modes.first { $0.isPreferred } ?? primary.modes.max { $0.width * $0.height < $1.width * $1.height }!
        }

        var used: UInt32 = 0
        var assignments: [Assignment] = []
        var skipped: [String] = []
        func crtc(for output: DRMOutput) -> Int? {
            let free = output.possibleCRTCs & ~used
            if let current = output.currentCRTC, current < crtcCount, free & (1 << UInt32(current)) != 0 { return current }
            for i in 0..<min(crtcCount, 32) where free & (1 << UInt32(i)) != 0 { return i }
            return nil
        }
        guard let primaryCRTC = crtc(for: primary) else {
            return .failure(.noCRTC("no display controller (CRTC) can drive " + primary.name))
        }
        used |= 1 << UInt32(primaryCRTC)
        assignments.append(Assignment(output: primary, mode: mode, crtcIndex: primaryCRTC))
        // Mirrors: only when one output was not named.
        if connector == nil {
            for output in outputs where output.connected && !output.modes.isEmpty && output.connectorID != primary.connectorID {
                guard let m = bestMode(output.modes, width: mode.width, height: mode.height, refresh: nil) else {
                    // The size as a refresh-less DRMMode names it (for size: no interpolations).
                    let size = DRMMode(width: mode.width, height: mode.height, refresh: 0).description
                    let preferred = (output.modes.first { $0.isPreferred } ?? output.modes[0]).description
                    skipped.append(filled("{} left dark: it has no {} mode to mirror {} (its preferred: {}; give mode= a size both show)", output.name, size, primary.name, preferred))
                    continue
                }
                guard let c = crtc(for: output) else {
                    skipped.append(output.name + " left dark: no free display controller (CRTC) can drive it")
                    continue
                }
                used |= 1 << UInt32(c)
                assignments.append(Assignment(output: output, mode: m, crtcIndex: c))
            }
        }
        return .success(DRMOutputChoice(width: mode.width, height: mode.height, assignments: assignments, skipped: skipped))
    }

    /// `NAME connected, NAME disconnected, …`: the outputs, for the errors (built only for one,
    /// by a loop rather than a map and a join, for size).
    @inline(never) static func listing(_ outputs: [DRMOutput]) -> String {
        var text = ""
        for output in outputs {
            if !text.isEmpty { text += ", " }
            text += output.name + (output.connected ? (output.modes.isEmpty ? " connected, no modes" : " connected") : " disconnected")
        }
        return text
    }

    /// The outputs' names, `HDMI-A-1, DP-1` (a loop, not a map and a join: for size).
    static func names(_ outputs: [DRMOutput]) -> String {
        var text = ""
        for i in outputs.indices { text += i == 0 ? outputs[i].name : ", " + outputs[i].name }
        return text
    }

    /// The mode of that size: the preferred one if it is, else the highest refresh (or exactly
    /// `refresh` when given).
    /// Out of line: `choose` calls it twice.
    @inline(never) static func bestMode(_ modes: [DRMMode], width: Int, height: Int, refresh: Int?) -> DRMMode? {
        // One pass, no filtered copy: the first preferred one, else the first of the highest refresh.
        var best: DRMMode? = nil
        for m in modes where m.width == width && m.height == height && (refresh == nil || m.refresh == refresh) {
            if m.isPreferred { return m }
            if best.map({ m.refresh > $0.refresh }) ?? true { best = m }
        }
        return best
    }

    static func distinctModes(_ modes: [DRMMode]) -> String {
        // The text built as the modes are seen, not a prefix of them joined (for size).
        var seen: [String] = []
        var text = ""
        for m in modes {
            let name = m.description
            if seen.contains(name) { continue }
            seen.append(name)
            if seen.count <= 12 { text += seen.count == 1 ? name : ", " + name }
        }
        return seen.count > 12 ? text + ", …" : text
    }
}

public enum DRMChoiceError: Error, Sendable, Equatable, CustomStringConvertible {
    case noConnectedOutput(String)
    case noSuchMode(String)
    case noCRTC(String)

    public var description: String {
        switch self {
        case .noConnectedOutput(let s), .noSuchMode(let s), .noCRTC(let s): s
        }
    }
}

/// The kernel's connector type names (drivers/gpu/drm/drm_connector.c), for `HDMI-A-1`-style names.
func drmConnectorTypeName(_ type: UInt32) -> String {
    Int(type) < drmConnectorTypeNames.count ? drmConnectorTypeNames[Int(type)] : filled("Type{}", String(type))
}

/// One table, made once (an array literal in the function was built at each call, for size too).
private let drmConnectorTypeNames = ["Unknown", "VGA", "DVI-I", "DVI-D", "DVI-A", "Composite", "SVIDEO", "LVDS", "Component", "DIN",
                                     "DP", "HDMI-A", "HDMI-B", "TV", "eDP", "Virtual", "DSI", "DPI", "Writeback", "SPI", "USB"]
