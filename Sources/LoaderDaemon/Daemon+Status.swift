import Displays
import FixedPoint
import Loaders
import Raster
import CompactText

extension Daemon {
    /// The `status` reply: what is shown, each display and its state, the frame counts.
    func statusJSON(now: Int64) -> String {
        var json = ""
        JSON.append("{\"loader\":", quoting: state.session?.name, to: &json)
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
        // Each piece appended to `json` in turn, a field's name and its number or string by one
        // `JSON.append`: an interpolation costs its own buffer, a call per segment and a final
        // append (for size).
        json += ",\"state\":\""
        json += phase
        // The elapsed microseconds as seconds with three decimals (`12.345`): the whole seconds
        // and the milliseconds appended as numbers, each with what comes before it (for size).
        let ms = (state.session == nil ? 0 : state.elapsed(now: now)) / 1000
        let frac = ms % 1000
        JSON.append("\",\"elapsed\":", ms / 1000, to: &json)
        JSON.append(frac < 10 ? ".00" : frac < 100 ? ".0" : ".", frac, to: &json)
        json += ",\"progress\":"
        json += state.progressTarget?.jsonDescription ?? "null"
        JSON.append(",\"message\":", quoting: state.message, to: &json)
        json += ",\"displays\":["
        var fastest = 0  // the highest fps of any display (a loop, not a map into an array)
        for (i, slot) in slots.enumerated() {
            if i > 0 { json += "," }
            let d = slot.display
            let fps = d.framesPerSecond
            fastest = Swift.max(fastest, fps)
            JSON.append("{\"name\":", quoting: d.name, to: &json)
            JSON.append(",\"width\":", Int64(d.canvasWidth), to: &json)
            JSON.append(",\"height\":", Int64(d.canvasHeight), to: &json)
            JSON.append(",\"fps\":", Int64(fps), to: &json)
            json += ",\"state\":\""
            json += slot.stateName
            json += "\""
            if let error = slot.lastError {
                JSON.append(",\"error\":", quoting: error.message, to: &json)
                JSON.append(",\"failed_tries\":", Int64(slot.failures), to: &json)
            }
            json += "}"
        }
        JSON.append("],\"fps\":", Int64(fastest), to: &json)
        JSON.append(",\"frames_drawn\":", framesDrawn, to: &json)
        JSON.append(",\"frames_dropped\":", framesDropped, to: &json)
        JSON.append(",\"brightness\":", Int64(state.brightness), to: &json)
        JSON.append(",\"clients\":", Int64(connections.count), to: &json)
        json += "}"
        return json
    }
}

enum JSON {
    /// `s` quoted, with `"`, `\`, the control characters and U+2028/U+2029 (JavaScript's line
    /// ends) escaped. Read as UTF-8 bytes in one pass, not scalar by scalar (for size).
    static func string(_ s: String) -> String {
        let bytes = RequestParser.bytes(s)
        var out: [UInt8] = [0x22]
        out.reserveCapacity(bytes.count + 2)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            var short: UInt8 = 0  // the letter of a two-character escape
            switch b {
            case 0x22, 0x5C: short = b
            case 0x0A: short = UInt8(ascii: "n")
            case 0x0D: short = UInt8(ascii: "r")
            case 0x09: short = UInt8(ascii: "t")
            default: break
            }
            if short != 0 {
                RequestParser.append(0x5C, to: &out); RequestParser.append(short, to: &out)
            } else if b < 0x20 || b == 0x7F {
                appendEscape(0x00, b, to: &out)
            } else if b == 0xE2 && i + 1 < bytes.count && bytes[i] == 0x80 && (bytes[i + 1] == 0xA8 || bytes[i + 1] == 0xA9) {
                appendEscape(0x20, bytes[i + 1] - 0x80, to: &out)  // U+2028 or U+2029
                i += 2
            } else {
                RequestParser.append(b, to: &out)
            }
        }
        RequestParser.append(0x22, to: &out)
        return RequestParser.text(out[...])
    }

    /// `\uHHLL`, in lowercase hex.
    private static func appendEscape(_ high: UInt8, _ low: UInt8, to out: inout [UInt8]) {
        RequestParser.append(0x5C, to: &out); RequestParser.append(UInt8(ascii: "u"), to: &out)
        let value = UInt16(high) << 8 | UInt16(low)
        var shift: UInt16 = 16
        while shift > 0 {
            shift -= 4
            let nibble = UInt8((value >> shift) & 15)
            RequestParser.append(nibble < 10 ? 0x30 + nibble : 0x57 + nibble, to: &out)
        }
    }

    /// A field's name (with what comes before it), then `n` in decimal, appended: one
    /// out-of-line copy for the status's numbers (for size).
    @inline(never)
    static func append(_ field: String, _ n: Int64, to json: inout String) {
        json += field
        json += String(n)
    }

    /// A field's name (with what comes before it), then `s` quoted, or `null`, appended: one
    /// out-of-line copy for the status's strings (for size).
    @inline(never)
    static func append(_ field: String, quoting s: String?, to json: inout String) {
        json += field
        json += s.map(string) ?? "null"
    }

}
