import CLinux

/// Runs of pixels that get the same source: the inside of a shape, row by row. Done on whole
/// 32-bit pixels (and pairs of them), which the per-channel code of `BlendMode` cannot be
/// compiled into: a pixel is a struct of four bytes, stored and blended byte by byte otherwise.
///
/// The arithmetic is exactly that of the per-pixel blends (PixelRunTests compares them).

/// The in-memory bytes of a pixel as one word; channel order does not matter to the
/// operations here, which treat all four channels alike.
@inlinable func word(_ p: Pixel) -> UInt32 { withUnsafeBytes(of: p) { $0.loadUnaligned(as: UInt32.self) } }

/// Sets `count` pixels from `start` to `value`.
@inlinable func fillRun(_ start: UnsafeMutablePointer<Pixel>, count: Int, with value: Pixel) {
    let w = word(value)
    #if arch(x86_64)
    // A long run through the C library's word fill (AVX2 where there is one: a canvas's clear
    // at 480x64 in a third of the instructions of the SSE2 loop below, a 465-pixel row in half).
    // Below 64 pixels the call costs more than it saves. Elsewhere glibc's wmemset is plain C, no
    // better than `fillWords`.
    if count >= 64 {
        loaderd_fill_words(UnsafeMutableRawPointer(start).assumingMemoryBound(to: UInt32.self), w, count)
        return
    }
    #else
    if count >= 16 { fillWords(UnsafeMutableRawPointer(start), w, count: count); return }
    #endif
    let raw = UnsafeMutableRawPointer(start)
    for i in 0..<count { raw.storeBytes(of: w, toByteOffset: i * 4, as: UInt32.self) }
}

#if !arch(x86_64)
/// `count` words from `raw` set to `w`, for the board builds, which (-Osize) neither vectorise nor
/// unroll `fillRun`'s loop: a pixel a store there was three instructions a pixel. Two pixels a
/// store, four stores a turn (a 1280x960 render 12 % fewer instructions a pixel on aarch64). Out of
/// line: inlined into every fill, it made the aarch64 daemon 4.6 KB larger.
@usableFromInline @inline(never) func fillWords(_ raw: UnsafeMutableRawPointer, _ w: UInt32, count: Int) {
    let pair = UInt64(w) | UInt64(w) << 32
    var i = 0
    while i + 8 <= count {
        raw.storeBytes(of: pair, toByteOffset: i * 4, as: UInt64.self)
        raw.storeBytes(of: pair, toByteOffset: i * 4 + 8, as: UInt64.self)
        raw.storeBytes(of: pair, toByteOffset: i * 4 + 16, as: UInt64.self)
        raw.storeBytes(of: pair, toByteOffset: i * 4 + 24, as: UInt64.self)
        i += 8
    }
    while i < count { raw.storeBytes(of: w, toByteOffset: i * 4, as: UInt32.self); i += 1 }
}
#endif

/// Normal (source-over) blending of one premultiplied `source` onto `count` pixels from `start`:
/// D = S + div255(D × (255 − Sa)) per channel, truncated to 8 bits, as `NormalBlend.blend`.
///
/// Two pixels at a time in a UInt64 with each channel in a 16-bit lane (the even bytes, then the
/// odd ones): a lane holds D × (255 − Sa) ≤ 65025, and div255's (t + (t >> 8)) >> 8 with
/// t = x + 128 stays below 65536, so lanes never carry into each other.
@inlinable func blendNormalRun(_ start: UnsafeMutablePointer<Pixel>, count: Int, source: Pixel) {
    let inv = UInt64(255 - source.a)
    let lanes: UInt64 = 0x00FF_00FF_00FF_00FF
    let s = UInt64(word(source))
    let pair = s | s << 32
    let sourceEven = pair & lanes, sourceOdd = (pair >> 8) & lanes
    @inline(__always) func scale(_ x: UInt64) -> UInt64 {
        let t = x &* inv &+ 0x0080_0080_0080_0080
        return ((t &+ ((t >> 8) & lanes)) >> 8) & lanes
    }
    @inline(__always) func blend(_ d: UInt64) -> UInt64 {
        let even = (sourceEven &+ scale(d & lanes)) & lanes
        let odd = (sourceOdd &+ scale((d >> 8) & lanes)) & lanes
        return even | odd << 8
    }
    let raw = UnsafeMutableRawPointer(start)
    var i = 0
    while i + 2 <= count {
        raw.storeBytes(of: blend(raw.loadUnaligned(fromByteOffset: i * 4, as: UInt64.self)), toByteOffset: i * 4, as: UInt64.self)
        i += 2
    }
    if i < count {
        let d = UInt64(raw.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
        raw.storeBytes(of: UInt32(truncatingIfNeeded: blend(d)), toByteOffset: i * 4, as: UInt32.self)
    }
}

/// One pixel of an edge: `paint.scaled(by: coverage)` blended source-over onto `destination`, as
/// `NormalBlend.blend` does it, with the four channels in the 16-bit lanes of one UInt64 (the
/// bounds above hold: a lane never exceeds 65535 before its final shift), instead of four
/// separate multiply-and-div255 sequences for the scaling and four more for the blend.
@inlinable @inline(__always) func blendNormalPixel(_ destination: UnsafeMutablePointer<Pixel>, paint: Pixel, coverage: UInt8) {
    blendNormalLanes(destination, paint: spreadLanes(paint), coverage: coverage)
}

/// `blendNormalPixel` for a paint already spread by `spreadLanes` (once for a row of edge pixels
/// in one solid paint, rather than once a pixel).
@inlinable @inline(__always) func blendNormalLanes(_ destination: UnsafeMutablePointer<Pixel>, paint: UInt64, coverage: UInt8) {
    let lanes: UInt64 = 0x00FF_00FF_00FF_00FF
    @inline(__always) func div255(_ x: UInt64) -> UInt64 {
        let t = x &+ 0x0080_0080_0080_0080
        return ((t &+ ((t >> 8) & lanes)) >> 8) & lanes
    }
    let raw = UnsafeMutableRawPointer(destination)
    // Pixel.scaled(by:): each channel div255(channel × coverage); 255 leaves it as it is.
    let source = coverage == 255 ? paint : div255(paint &* UInt64(coverage))
    let sourceAlpha = source >> 48
    var result = source
    if sourceAlpha != 255 {
        // D = S + div255(D × (255 − Sa)), truncated to 8 bits per channel.
        let w = UInt64(raw.load(as: UInt32.self))
        let half = (w | w << 16) & 0x0000_FFFF_0000_FFFF
        let d = (half | half << 8) & lanes
        result = (source &+ div255(d &* (255 - sourceAlpha))) & lanes
    }
    let y = (result | result >> 8) & 0x0000_FFFF_0000_FFFF
    raw.storeBytes(of: UInt32(truncatingIfNeeded: y | y >> 16), as: UInt32.self)
}

/// `paint.scaled(by: coverage)` stored at `destination`, whatever was there: an edge pixel onto a
/// pixel known to be clear. The same lane arithmetic as `blendNormalPixel` without the blend.
@inlinable @inline(__always) func storeScaledPixel(_ destination: UnsafeMutablePointer<Pixel>, paint: Pixel, coverage: UInt8) {
    let raw = UnsafeMutableRawPointer(destination)
    if coverage == 255 { raw.storeBytes(of: word(paint), as: UInt32.self); return }
    let lanes: UInt64 = 0x00FF_00FF_00FF_00FF
    let x = UInt64(word(paint))
    let y = (x | x << 16) & 0x0000_FFFF_0000_FFFF
    let t = ((y | y << 8) & lanes) &* UInt64(coverage) &+ 0x0080_0080_0080_0080
    let scaled = ((t &+ ((t >> 8) & lanes)) >> 8) & lanes
    let packed = (scaled | scaled >> 8) & 0x0000_FFFF_0000_FFFF
    raw.storeBytes(of: UInt32(truncatingIfNeeded: packed | packed >> 16), as: UInt32.self)
}

/// A pixel's four channels in the 16-bit lanes of a UInt64 (as `storeScaledPixel` spreads them).
@inlinable @inline(__always) func spreadLanes(_ p: Pixel) -> UInt64 {
    let x = UInt64(word(p))
    let y = (x | x << 16) & 0x0000_FFFF_0000_FFFF
    return (y | y << 8) & 0x00FF_00FF_00FF_00FF
}

/// `storeScaledPixel` for a paint already spread by `spreadLanes`: the same arithmetic.
@inlinable @inline(__always) func storeScaledLanes(_ destination: UnsafeMutablePointer<Pixel>, lanes: UInt64, coverage: UInt8) {
    UnsafeMutableRawPointer(destination).storeBytes(of: scaledWord(lanes, coverage: coverage), as: UInt32.self)
}

/// The word of a pixel spread by `spreadLanes` scaled by `coverage`: div255(channel × coverage)
/// per lane, as `Pixel.scaled(by:)` (for coverage 255 each channel comes back unchanged).
@inlinable @inline(__always) func scaledWord(_ lanes: UInt64, coverage: UInt8) -> UInt32 {
    let laneMask: UInt64 = 0x00FF_00FF_00FF_00FF
    let t = lanes &* UInt64(coverage) &+ 0x0080_0080_0080_0080
    let scaled = ((t &+ ((t >> 8) & laneMask)) >> 8) & laneMask
    let packed = (scaled | scaled >> 8) & 0x0000_FFFF_0000_FFFF
    return UInt32(truncatingIfNeeded: packed | packed >> 16)
}

/// `Pixel.scaled(by:)` of a pixel spread by `spreadLanes`, by the lane arithmetic.
@inlinable @inline(__always) func scaledPixel(_ lanes: UInt64, coverage: UInt8) -> Pixel {
    unsafeBitCast(scaledWord(lanes, coverage: coverage), to: Pixel.self)
}

extension Array where Element == Pixel {
    /// `count` transparent pixels, written a run at a time by `fillRun` (the C library's word fill
    /// on x86_64, pairs of pixels a store elsewhere). `Array(repeating: .transparent, count:)`
    /// stored them one by one at -Osize, 8 instructions a pixel: 4.1 M for the 960x540 canvas of a
    /// 1080p screen at every start, ~10 ms on a Pi Zero.
    public init(transparentCount count: Int) {
        self.init(unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer.setTransparent()
            initialized = count
        }
    }
}

extension UnsafeMutableBufferPointer where Element == Pixel {
    /// Every pixel transparent, by `fillRun`: for pixels or for memory not yet initialised (a
    /// pixel is four bytes with nothing to release).
    public func setTransparent() {
        if let base = baseAddress, count > 0 { fillRun(base, count: count, with: .transparent) }
    }
}
