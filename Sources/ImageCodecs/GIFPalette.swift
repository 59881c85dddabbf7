import Raster
import CompactText

// A frame's colours as GIF stores them: an exact palette of at most 256 colours when the frame
// (or the animation) has no more, else our median cut (see `GIF`'s comment for why not giflib's).

/// A palette of at most 256 exact colours and the lookup from colour to index.
struct GIFExactPalette {
    private(set) var colors: [UInt32] = []
    private var index: [UInt32: UInt8] = [:]

    /// Nil when the images use more than 256 distinct colours. Colours are numbered in the order
    /// they first appear.
    init?<S: Sequence<RGBImage>>(_ images: S) {
        for image in images {
            let bytes = image.bytes
            var last: UInt32 = .max
            var i = 0
            while i < bytes.count {
                let key = Self.key(bytes, i)
                i += 3
                if key == last { continue }
                last = key
                if index[key] == nil {
                    if colors.count == 256 { return nil }
                    index[key] = UInt8(colors.count)
                    colors.append(key)
                }
            }
        }
    }

    /// The palette of exactly these colours (0xRRGGBB, at most 256, each once).
    init(colors: [UInt32]) {
        precondition(colors.count <= 256, filled("a GIF palette holds at most 256 colours, got {}", String(colors.count)))
        for (i, c) in colors.enumerated() { index[c] = UInt8(i) }
        self.colors = colors
    }

    @inline(__always) static func key(_ bytes: [UInt8], _ i: Int) -> UInt32 {
        UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
    }

    /// The image's pixels as indices into this palette, or nil when it uses a colour not in it.
    func indices(of image: RGBImage) -> [UInt8]? {
        let bytes = image.bytes
        var out = [UInt8](repeating: 0, count: bytes.count / 3)
        var last: UInt32 = .max, lastIndex: UInt8 = 0
        for p in out.indices {
            let key = Self.key(bytes, 3 * p)
            if key != last {
                guard let i = index[key] else { return nil }
                last = key
                lastIndex = i
            }
            out[p] = lastIndex
        }
        return out
    }
}

extension GIF {
    /// A 256-colour palette and index buffer for a frame with more than 256 colours (see the
    /// type's comment). Deterministic: the same image always gives the same bytes.
    static func quantize(_ image: RGBImage) -> ([UInt32], [UInt8]) {
        let bytes = image.bytes
        let n = image.width * image.height
        @inline(__always) func key(_ p: Int) -> UInt32 {
            UInt32(bytes[3 * p]) << 16 | UInt32(bytes[3 * p + 1]) << 8 | UInt32(bytes[3 * p + 2])
        }
        // Histogram of distinct colours, sorted so the result does not depend on hash order.
        var counts: [UInt32: Int] = [:]
        for p in 0..<n { counts[key(p), default: 0] += 1 }
        var entries = counts.map { (color: $0.key, count: $0.value) }
        entries.sort { $0.color < $1.color }

        @inline(__always) func channel(_ c: UInt32, _ k: Int) -> Int { Int((c >> UInt32(16 - 8 * k)) & 0xFF) }
        struct Box { var start: Int; var end: Int; var extent: Int; var axis: Int }
        func box(_ start: Int, _ end: Int) -> Box {
            var lo = [255, 255, 255], hi = [0, 0, 0]
            for e in entries[start..<end] {
                for k in 0..<3 { let v = channel(e.color, k); lo[k] = min(lo[k], v); hi[k] = max(hi[k], v) }
            }
            var axis = 0
            for k in 1..<3 where hi[k] - lo[k] > hi[axis] - lo[axis] { axis = k }
            return Box(start: start, end: end, extent: hi[axis] - lo[axis], axis: axis)
        }

        // Median cut: split the box with the widest channel range at its weighted median.
        var boxes = [box(0, entries.count)]
        while boxes.count < 256 {
            var pick = -1
            for (i, b) in boxes.enumerated() where b.end - b.start >= 2 && b.extent > 0 {
                if pick < 0 || b.extent > boxes[pick].extent { pick = i }
            }
            if pick < 0 { break }
            let b = boxes[pick]
            entries[b.start..<b.end].sort {
                let x = channel($0.color, b.axis), y = channel($1.color, b.axis)
                return x != y ? x < y : $0.color < $1.color
            }
            let total = entries[b.start..<b.end].reduce(0) { $0 + $1.count }
            var split = b.start + 1, running = 0
            for i in b.start..<(b.end - 1) {
                running += entries[i].count
                split = i + 1
                if 2 * running >= total { break }
            }
            boxes[pick] = box(b.start, split)
            boxes.append(box(split, b.end))
        }

        // Palette = weighted mean of each box; then two Lloyd (k-means) steps: map every
        // colour to its nearest entry and re-average.
        var assignment = [Int](repeating: 0, count: entries.count)
        for (k, b) in boxes.enumerated() { for i in b.start..<b.end { assignment[i] = k } }
        var palette = [UInt32](repeating: 0, count: boxes.count)
        func average() {
            var sums = [(r: Int, g: Int, b: Int, n: Int)](repeating: (0, 0, 0, 0), count: palette.count)
            for (i, e) in entries.enumerated() {
                let k = assignment[i]
                sums[k].r += channel(e.color, 0) * e.count; sums[k].g += channel(e.color, 1) * e.count
                sums[k].b += channel(e.color, 2) * e.count; sums[k].n += e.count
            }
            for k in palette.indices where sums[k].n > 0 {
                let s = sums[k], h = s.n / 2
                palette[k] = UInt32((s.r + h) / s.n) << 16 | UInt32((s.g + h) / s.n) << 8 | UInt32((s.b + h) / s.n)
            }
        }
        func assignNearest() {
            for (i, e) in entries.enumerated() {
                let r = channel(e.color, 0), g = channel(e.color, 1), b = channel(e.color, 2)
                var best = assignment[i], bestDistance = Int.max
                for (k, c) in palette.enumerated() {
                    let dr = r - channel(c, 0), dg = g - channel(c, 1), db = b - channel(c, 2)
                    let d = dr * dr + dg * dg + db * db
                    if d < bestDistance { bestDistance = d; best = k }
                }
                assignment[i] = best
            }
        }
        average()
        for _ in 0..<2 { assignNearest(); average() }
        assignNearest()

        var indexOf: [UInt32: UInt8] = [:]
        indexOf.reserveCapacity(entries.count)
        for (i, e) in entries.enumerated() { indexOf[e.color] = UInt8(assignment[i]) }
        var indices = [UInt8](repeating: 0, count: n)
        for p in 0..<n { indices[p] = indexOf[key(p)]! }
        return (palette, indices)
    }
}
