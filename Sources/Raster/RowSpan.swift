import FixedPoint

/// What one pixel row of a shape (or clip) looks like, so that the pixel loop evaluates
/// `coverage(x:y:)` only near the outline: every column outside `lo ..< hi` has coverage 0, and
/// every column in `innerLo ..< innerHi` has coverage exactly `innerCoverage`.
///
/// Spans are a shortcut, never an approximation: a shape that returns one promises that
/// `coverage(x:y:)` would have returned exactly those values, so frames stay byte-identical
/// (RowSpanTests checks every shape against its coverage, pixel by pixel). When in doubt a shape
/// returns a narrower inner range or a wider outer one, which only costs time.
///
/// Invariant: `columns.lowerBound ≤ lo ≤ innerLo ≤ innerHi ≤ hi ≤ columns.upperBound` for the
/// columns it was made for; an empty inner range sits at `hi`, so `lo ..< innerLo` then covers
/// every column that may have coverage. Make spans with the initializer, which keeps it.
public struct RowSpan: Sendable, Hashable {
    public var lo: Int
    public var hi: Int
    public var innerLo: Int
    public var innerHi: Int
    /// The coverage of every column in `innerLo ..< innerHi`.
    public var innerCoverage: UInt8

    /// A span from unclamped bounds: non-zero coverage only in `lo ..< hi`, exactly `coverage` in
    /// `innerLo ..< innerHi`, both cut to `columns`.
    @inlinable public init(columns: Range<Int>, lo: Int, hi: Int, innerLo: Int, innerHi: Int, innerCoverage: UInt8) {
        let l = smaller(larger(lo, columns.lowerBound), columns.upperBound)
        let h = larger(l, smaller(hi, columns.upperBound))
        self.lo = l
        self.hi = h
        self.innerLo = larger(innerLo, l)
        self.innerHi = smaller(innerHi, h)
        self.innerCoverage = innerCoverage
        if self.innerLo >= self.innerHi { self.innerLo = h; self.innerHi = h }
    }

    /// Nothing known: any column may have any coverage.
    @inlinable public static func unknown(_ columns: Range<Int>) -> RowSpan {
        RowSpan(columns: columns, lo: columns.lowerBound, hi: columns.upperBound, innerLo: 0, innerHi: 0, innerCoverage: 0)
    }

    /// Coverage 0 in every column.
    @inlinable public static func empty(_ columns: Range<Int>) -> RowSpan {
        RowSpan(columns: columns, lo: columns.lowerBound, hi: columns.lowerBound, innerLo: 0, innerHi: 0, innerCoverage: 0)
    }

    @inlinable public var isEmpty: Bool { lo >= hi }
    @inlinable public var hasInner: Bool { innerLo < innerHi }

    /// The columns where both this span and `other` may be non-zero, and where both are uniform.
    /// `innerCoverage` is left as it is: how coverages combine (and round) is the caller's rule.
    @inlinable public mutating func formIntersection(_ other: RowSpan) {
        lo = larger(lo, other.lo)
        hi = larger(lo, smaller(hi, other.hi))
        innerLo = larger(larger(innerLo, other.innerLo), lo)
        innerHi = smaller(smaller(innerHi, other.innerHi), hi)
        if innerLo >= innerHi { innerLo = hi; innerHi = hi }
    }
}

// MARK: Exact integer helpers for span bounds

/// Coordinates (in pixels) within which span arithmetic provably matches the saturating
/// `Fixed` arithmetic of `coverage(x:y:)`: with shape coordinates this small and pixel centres on
/// a ≤ 4096-pixel canvas, no intermediate value reaches the saturation limits (±32768), so plain
/// Int64 arithmetic gives the same numbers. Shapes further out get `RowSpan.unknown`.
@inlinable @inline(__always) func isTame(_ v: Fixed) -> Bool { v.raw.magnitude <= 8192 << 16 }

/// The raw value of the centre of pixel column `x`: `(Fixed(x) + .half).raw`.
@inlinable @inline(__always) func centreRaw(_ x: Int) -> Int64 { Int64(x) << 16 + 0x8000 }

/// ⌊a / b⌋ and ⌈a / b⌉ for b > 0 (Swift's `/` truncates towards zero).
@inlinable @inline(__always) func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
@inlinable @inline(__always) func ceilDiv(_ a: Int64, _ b: Int64) -> Int64 { -floorDiv(-a, b) }

/// The columns whose centre's raw value lies in `from ... to`, as a half-open range of column
/// indices (clamped to a sane Int range; empty when to < from).
@inlinable @inline(__always) func columnRange(centreRawFrom from: Int64, to: Int64) -> (lo: Int, hi: Int) {
    // centreRaw(x) = x · 2¹⁶ + 2¹⁵ ≥ from ⇔ x ≥ ⌈(from − 2¹⁵) / 2¹⁶⌉, and ≤ to ⇔ x ≤ ⌊(to − 2¹⁵) / 2¹⁶⌋.
    let lo = (from - 0x8000 + 0xFFFF) >> 16, hi = ((to - 0x8000) >> 16) + 1
    return (Int(clamping: lo), Int(clamping: larger(lo, hi)))
}

/// The largest s ≥ 0 with s² < m, or −1 when m ≤ 0: |d| ≤ s ⇔ d² < m.
@inlinable @inline(__always) func largestBelowSquare(_ m: Int64) -> Int64 { m <= 0 ? -1 : Int64(isqrt(UInt64(m - 1))) }


/// `Swift.min` and `Swift.max`, always inlined: those are ordinary generic functions, and in a
/// caller as large as the pixel loop the optimiser may leave them as calls (round 6 found eight
/// per row and four per edge pixel). The same results: min is `b < a ? b : a`, max `b >= a ? b : a`.
@inlinable @inline(__always) func smaller<T: Comparable>(_ a: T, _ b: T) -> T { b < a ? b : a }
@inlinable @inline(__always) func larger<T: Comparable>(_ a: T, _ b: T) -> T { b >= a ? b : a }
@inlinable @inline(__always) func larger<T: Comparable>(_ a: T, _ b: T, _ c: T) -> T { larger(larger(a, b), c) }
