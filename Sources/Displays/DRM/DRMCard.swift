import CLinux
import LinuxSystem
import CompactText

/// What a card offers at one moment: its CRTCs, its connectors as `DRMOutput`s, and the kernel's
/// timings behind each output's modes (handed back to SETCRTC unchanged).
struct DRMProbe {
    var crtcIDs: [UInt32]
    var outputs: [DRMOutput]
    /// Each connector's timings, in the order of `outputs` (a card has a few connectors: searched).
    var timings: [(connectorID: UInt32, modes: [loaderd_drm_mode_info])]

    func timing(_ assignment: DRMOutputChoice.Assignment) -> loaderd_drm_mode_info? {
        guard let list = timings.first(where: { $0.connectorID == assignment.output.connectorID })?.modes,
              assignment.mode.index < list.count else { return nil }
        return list[assignment.mode.index]
    }
}

extension FileDescriptor {
    /// Reads the card's connectors and modes. `probe`: ask the outputs again (EDID; at open and
    /// after a failure only).
    func drmProbe(probe: Bool) throws(Errno) -> DRMProbe {
        let resources = try drmResources()
        var outputs: [DRMOutput] = []
        var timings: [(connectorID: UInt32, modes: [loaderd_drm_mode_info])] = []
        for id in resources.connectors {
            let connector = try drmConnector(id, probe: probe)
            var possible: UInt32 = 0
            for encoderID in connector.encoders {
                if let encoder = try? drmEncoder(encoderID) { possible |= encoder.possible_crtcs }
            }
            var current: Int?
            if connector.info.encoder_id != 0, let encoder = try? drmEncoder(connector.info.encoder_id), encoder.crtc_id != 0 {
                current = resources.crtcs.firstIndex(of: encoder.crtc_id)
            }
            var modes: [DRMMode] = []
            for (i, m) in connector.modes.enumerated() {
                modes.append(DRMMode(width: Int(m.hdisplay), height: Int(m.vdisplay), refresh: Int(m.vrefresh),
                                     isPreferred: m.type & loaderd_drm_mode_type_preferred != 0, index: i))
            }
            outputs.append(DRMOutput(connectorID: id,
                                     name: filled("{}-{}", drmConnectorTypeName(connector.info.connector_type), String(connector.info.connector_type_id)),
                                     connected: connector.info.connection == loaderd_drm_mode_connected,
                                     modes: modes, possibleCRTCs: possible, currentCRTC: current))
            timings.append((id, connector.modes))
        }
        return DRMProbe(crtcIDs: resources.crtcs, outputs: outputs, timings: timings)
    }
}

/// The DRM cards present, `/dev/dri/card0` first (`devices`: where `dri/` is, /dev but in tests).
func drmCardPaths(devices: String = "/dev") -> [String] {
    // A plain loop, not a map and a filter (each code of its own, for one search).
    var paths: [String] = []
    for n in 0..<16 {
        let path = filled("{}/dri/card{}", devices, String(n))
        if access(path, F_OK) == 0 { paths.append(path) }
    }
    return paths
}

/// The first card with a connected output (what `device=auto` and the `auto` display pick), or
/// a sentence on what was found instead.
func firstCardWithConnectedOutput(devices: String = "/dev") -> Result<String, DRMSearchFailure> {
    let cards = drmCardPaths(devices: devices)
    if cards.isEmpty { return .failure(DRMSearchFailure(description: filled("no DRM device ({}/dri/card* does not exist: is the display driver loaded, e.g. dtoverlay=vc4-kms-v3d on a Raspberry Pi?)", devices))) }
    // What each card is, as one text built in the loop (not an array and a join, for size).
    var notes = ""
    for (i, path) in cards.enumerated() {
        notes += i == 0 ? path + ": " : filled("; {}: ", path)
        let fd: FileDescriptor
        do { fd = try FileDescriptor.openDevice(path, .readWrite, options: [.closeOnExec]) } catch {
            notes += drmOpenHint(path: path, error)
            continue
        }
        defer { try? fd.close() }
        guard let probe = try? fd.drmProbe(probe: true) else { notes += "not a mode-setting device"; continue }
        if probe.outputs.contains(where: { $0.connected && !$0.modes.isEmpty }) { return .success(path) }
        notes += filled("no connected output ({})", DRMOutputChoice.names(probe.outputs))
    }
    return .failure(DRMSearchFailure(description: notes))
}

struct DRMSearchFailure: Error, CustomStringConvertible { let description: String }
