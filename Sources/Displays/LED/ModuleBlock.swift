/// Where one 8x8 module's LEDs lie on the canvas, and its eight digit bytes gathered from a frame's
/// lit flags (one byte, 0 or 1, a canvas pixel) eight at a time.
///
/// Every setting (block orientation, rotation, flip, chain order, rows) maps a module's digits and
/// bits onto an 8x8 block of the canvas by turns and mirrors, so canvas pixel of digit d, bit b is
/// `base + d × digitStep + b × bitStep`, one of the two steps ±1 and the other ±(canvas width).
/// Eight flags along a canvas row are eight consecutive bytes: one unaligned load and one multiply
/// make them a byte, instead of eight loads, shifts and ors (~44 instructions a byte).
struct ModuleBlock: Sendable {
    let base: Int
    let digitStep: Int
    let bitStep: Int

    /// The block of `index(digit, bit)`, or nil if that is not an 8x8 block of a canvas `width`
    /// pixels wide walked along rows and columns.
    init?(width: Int, _ index: (Int, Int) -> Int) {
        base = index(0, 0)
        digitStep = index(1, 0) - base
        bitStep = index(0, 1) - base
        let digitStride = abs(digitStep), bitStride = abs(bitStep)
        guard (digitStride == 1 && bitStride == width) || (digitStride == width && bitStride == 1) else { return nil }
        // One loop over the 64 (digit, bit) pairs: the inner loop of a nested pair was unrolled
        // into eight calls (for size).
        for k in 0..<64 {
            let d = k >> 3, b = k & 7
            if index(d, b) != base + d * digitStep + b * bitStep { return nil }
        }
    }

    /// The module's eight digit bytes (bit b of byte d: the flag of digit d, bit b) in one word,
    /// byte d at bits 8d.
    @inline(__always) func digits(_ lit: UnsafePointer<UInt8>) -> UInt64 {
        // Eight rows of the block, each eight flags along the canvas: where a digit's bits run
        // along a row, row k is digit k; where they run down a column, row k is bit k (bit d of
        // it digit d), and the 8x8 bits are transposed at the end.
        let alongRows = bitStep == 1 || bitStep == -1
        let step = alongRows ? bitStep : digitStep, across = alongRows ? digitStep : bitStep
        // Flag j of the eight lands at bit 56 + j (step 1: the multiplier's bit 56 − 7j) or, when
        // the flags run right to left and are loaded from the left end, at bit 63 − j.
        let spread: UInt64 = step == 1 ? 0x0102_0408_1020_4080 : 0x8040_2010_0804_0201
        var row = UnsafeRawPointer(lit + (step == 1 ? base : base &- 7))
        var word: UInt64 = 0
        for k in 0..<8 {
            let flags = UInt64(littleEndian: row.loadUnaligned(as: UInt64.self))
            word |= ((flags &* spread) >> 56) << UInt64(8 &* k)
            row += across
        }
        return alongRows ? word : ModuleBlock.transposed(word)
    }

    /// The 8x8 bit matrix with rows as bytes (row i at bits 8i, column j at bit j) transposed:
    /// three exchanges of ever larger squares across the diagonal.
    @inline(__always) static func transposed(_ m: UInt64) -> UInt64 {
        var x = m
        var t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA
        x ^= t ^ (t << 7)
        t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC
        x ^= t ^ (t << 14)
        t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0
        x ^= t ^ (t << 28)
        return x
    }
}
