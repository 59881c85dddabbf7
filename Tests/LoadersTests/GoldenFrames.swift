import Foundation
import Raster
import Testing

/// Golden frames: a rendered canvas stored as ASCII art (one character per pixel, a luminance
/// ramp over black) plus an FNV-1a hash of the exact RGBA bytes. The art makes a changed frame a
/// visible diff in review; the hash catches changes too small for the ramp to show.
///
/// Regenerate after an intended change with `LOADERD_UPDATE_GOLDEN=1 swift test`, then read the
/// diff of Tests/LoadersTests/Golden/ before committing it.
enum GoldenFrames {
    static let ramp = Array(" .:-=+*#%@")

    static var directory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    }

    /// The canvas as art: each pixel over black, luminance (Rec. 601, integer) mapped to the ramp.
    static func art(_ canvas: Canvas) -> String {
        var lines: [String] = []
        for y in 0..<canvas.height {
            var line = ""
            for x in 0..<canvas.width {
                let c = canvas[x, y].over(.black)
                let luma = (299 * Int(c.r) + 587 * Int(c.g) + 114 * Int(c.b)) / 1000
                line.append(ramp[min(ramp.count - 1, luma * ramp.count / 256)])
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    static func hash(_ canvas: Canvas) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for p in canvas.pixels {
            for byte in [p.r, p.g, p.b, p.a] { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        return String(h, radix: 16)
    }

    static func document(_ canvas: Canvas) -> String {
        "size: \(canvas.width)x\(canvas.height)\nfnv1a64: \(hash(canvas))\n" + art(canvas) + "\n"
    }

    /// For screen-sized canvases: the hash pins every pixel, the art is a thumbnail (every
    /// `step`-th pixel across, every 2·`step`-th down) to read the diff by.
    static func checkLarge(_ canvas: Canvas, named name: String, step: Int = 10, sourceLocation: SourceLocation = #_sourceLocation) {
        var thumbnail = Canvas(width: (canvas.width + step - 1) / step, height: (canvas.height + 2 * step - 1) / (2 * step))
        for y in 0..<thumbnail.height { for x in 0..<thumbnail.width { thumbnail[x, y] = canvas[x * step, y * 2 * step] } }
        check(canvas, named: name, art: thumbnail, sourceLocation: sourceLocation)
    }

    /// Compares `canvas` with the golden file `name.txt`; records it when missing or when
    /// LOADERD_UPDATE_GOLDEN=1 (and then fails, so a recording never passes silently in CI).
    static func check(_ canvas: Canvas, named name: String, art thumbnail: Canvas? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = directory.appendingPathComponent(name + ".txt")
        let actual = thumbnail.map { "size: \(canvas.width)x\(canvas.height)\nfnv1a64: \(hash(canvas))\n" + art($0) + "\n" } ?? document(canvas)
        let update = ProcessInfo.processInfo.environment["LOADERD_UPDATE_GOLDEN"] == "1"
        guard !update, let expected = try? String(contentsOf: url, encoding: .utf8) else {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? actual.write(to: url, atomically: true, encoding: .utf8)
            Issue.record("golden frame \(name) recorded at \(url.path); review it and run the tests again", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "frame \(name) differs from \(url.path)", sourceLocation: sourceLocation)
    }
}
