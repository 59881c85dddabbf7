/// Time inside the renderer is an integer count of microseconds since the loader started.
///
/// 64 bits of microseconds last 292,000 years; Q16.16 seconds would last 9 hours, too short for a
/// daemon that may show a loader for a whole day, so time stays integral until it has been reduced
/// to a fraction of a period (`Fixed.ratio(elapsed % period, period)`).
public typealias Microseconds = Int64

public enum Time {
    public static let perSecond: Microseconds = 1_000_000

    /// Input-boundary conversion from seconds (config, command line). Rounds to nearest;
    /// NaN and negative values become 0; huge values saturate.
    public static func microseconds(seconds: Double) -> Microseconds {
        guard seconds.isFinite, seconds > 0 else { return seconds == .infinity ? .max : 0 }
        let us = (seconds * 1_000_000).rounded()
        return us >= 9.2e18 ? .max : Microseconds(us)
    }

    /// Seconds as a fixed-point value (saturates after 9 hours): for curves whose parameters are in seconds.
    @inlinable public static func seconds(_ us: Microseconds) -> Fixed { Fixed.ratio(us, perSecond) }
}
