import Displays
import FixedPoint
import Loaders
import Raster
import CompactText

extension Daemon {
    /// The `status` reply: what is shown, each display and its state, the frame counts.
    func statusJSON(now: Int64) -> String {
        var json = "{\"loader\":"
        if let session = state.session { json += JSON.string(session.name) } else { json += "null" }
        let phase: String
        if let session = state.session, let scenePhase = slots.first?.scenePhase(state.frameState(now: now)) {
            switch scenePhase {
            case .running: phase = session.stop == nil ? "running" : "exiting"
            case .exiting: phase = "exiting"
            case .showingOutcome: phase = "outcome"
            case .finished: phase = "exiting"
            }
        } else if slots.allSatisfy({ $0.showsBlank || $0.lastError != nil }) {
            // Idle once the cleared frame is on every display that works (a failing one may
            // never take it).
            phase = "idle"
        } else {
            phase = "exiting"
        }
        json += ",\"state\":\"\(phase)\""
        let elapsed = state.session == nil ? 0 : state.elapsed(now: now)
        json += ",\"elapsed\":" + JSON.seconds(elapsed)
        json += ",\"progress\":" + (state.progressTarget?.jsonDescription ?? "null")
        json += ",\"message\":" + (state.message.map(JSON.string) ?? "null")
        json += ",\"displays\":["
        for (i, slot) in slots.enumerated() {
            if i > 0 { json += "," }
            let d = slot.display
            json += "{\"name\":\(JSON.string(d.name)),\"width\":\(d.canvasWidth),\"height\":\(d.canvasHeight),\"fps\":\(d.framesPerSecond)"
            json += ",\"state\":\"\(slot.stateName)\""
            if let error = slot.lastError { json += ",\"error\":" + JSON.string(error.message) + ",\"failed_tries\":\(slot.failures)" }
            json += "}"
        }
        json += "]"
        json += ",\"fps\":\(slots.map { $0.display.framesPerSecond }.max() ?? 0)"
        json += ",\"frames_drawn\":\(framesDrawn),\"frames_dropped\":\(framesDropped)"
        json += ",\"brightness\":\(state.brightness),\"clients\":\(connections.count)}"
        return json
    }
}

enum JSON {
    static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Microseconds as seconds with three decimals: `12.345`.
    static func seconds(_ us: Int64) -> String {
        let ms = us / 1000
        let frac = ms % 1000
        return "\(ms / 1000)." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + "\(frac)"
    }
}
