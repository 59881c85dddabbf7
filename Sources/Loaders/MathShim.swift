import FixedPoint

// TEMPORARY stand-ins for `CubicBezier` and `Spring` from the `math` branch (Sources/FixedPoint),
// with the same names and signatures, so the loaders build and test before that branch lands.
// Module-internal declarations shadow the imported ones; delete this file after `git merge math`.

struct CubicBezier: Sendable, Hashable {
    let x1: Fixed, y1: Fixed, x2: Fixed, y2: Fixed
    init(_ x1: Fixed, _ y1: Fixed, _ x2: Fixed, _ y2: Fixed) { self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2 }

    /// 3(1−s)²s·p1 + 3(1−s)s²·p2 + s³.
    @inlinable func component(_ p1: Fixed, _ p2: Fixed, _ s: Fixed) -> Fixed {
        let u = Fixed.one - s
        return 3 * (u * u * s * p1) + 3 * (u * s * s * p2) + s * s * s
    }

    /// y at input progress t (bisection on x: 24 halvings of [0, 1] reach Q16.16's step).
    func callAsFunction(_ t: Fixed) -> Fixed {
        if t <= .zero { return .zero }
        if t >= .one { return .one }
        var lo = Fixed.zero, hi = Fixed.one
        for _ in 0..<20 {
            let mid = Fixed(raw: (lo.raw + hi.raw) / 2)
            if component(x1, x2, mid) < t { lo = mid } else { hi = mid }
        }
        return component(y1, y2, Fixed(raw: (lo.raw + hi.raw) / 2))
    }
}

/// Temporary: a table of the under-damped closed form, filled once at init (Double is used only
/// there, from parameters), linearly interpolated per frame.
struct Spring: Sendable {
    let response: Fixed
    let dampingFraction: Fixed
    let settlingDuration: Microseconds
    private let table: [Fixed]
    private static let step: Microseconds = 1_000

    init(response: Fixed, dampingFraction: Fixed) {
        self.response = response; self.dampingFraction = dampingFraction
        let r = Swift.max(0.001, response.double), z = Swift.min(0.999, Swift.max(0.01, dampingFraction.double))
        let w0 = 2 * Double.pi / r, wd = w0 * (1 - z * z).squareRoot()
        func x(_ t: Double) -> Double {
            var e = 1.0, term = 1.0, k = 1.0  // e^(−z·w0·t) by its series would be slow; use repeated halving
            let a = z * w0 * t
            // exp(−a) without Foundation: (1 + (−a/2ⁿ))^(2ⁿ) refined by squaring.
            var y = 1 - a / 1_048_576
            for _ in 0..<20 { y *= y }
            e = y; _ = term; _ = k
            let phase = wd * t
            return 1 - e * (Spring.cos(phase) + z * w0 / wd * Spring.sin(phase))
        }
        let envelopeRate = z * w0
        // e^(−rate·t)/√(1−z²) < 1e-3  ⇒  t > (ln 1000 − ln √(1−z²)) / rate; ln 1000 ≈ 6.9078.
        let settle = (6.9078 + 0.5 * -Spring.ln(1 - z * z)) / envelopeRate
        settlingDuration = Microseconds((settle * 1e6).rounded())
        let n = Int(settlingDuration / Spring.step) + 2
        table = (0..<n).map { Fixed(x(Double($0) * Double(Spring.step) / 1e6)) }
    }

    func value(at t: Microseconds) -> Fixed {
        if t <= 0 { return .zero }
        let i = Int(t / Spring.step)
        if i + 1 >= table.count { return .one }
        return Fixed.lerp(table[i], table[i + 1], Fixed.ratio(t % Spring.step, Spring.step))
    }

    private static func sin(_ x: Double) -> Double { cos(x - Double.pi / 2) }
    private static func cos(_ x: Double) -> Double {
        var y = x.truncatingRemainder(dividingBy: 2 * Double.pi)
        if y > Double.pi { y -= 2 * Double.pi }
        if y < -Double.pi { y += 2 * Double.pi }
        var sum = 1.0, term = 1.0
        for k in 1..<30 { term *= -y * y / Double((2 * k - 1) * (2 * k)); sum += term }
        return sum
    }
    private static func ln(_ x: Double) -> Double {
        // ln x = 2 atanh((x−1)/(x+1)); enough for x in (0, 1].
        let u = (x - 1) / (x + 1)
        var sum = 0.0, p = u
        for k in stride(from: 1, through: 199, by: 2) { sum += p / Double(k); p *= u * u }
        return 2 * sum
    }
}
