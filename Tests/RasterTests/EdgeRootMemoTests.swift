import FixedPoint
import Testing

@testable import Raster

/// `EdgeRootMemo` must answer exactly what it remembers: every answer, hit or miss, equals the
/// function it stands for, also when edge bytes and span roots with the same argument, and many
/// arguments with the same slot, take turns in the table.
@Suite struct EdgeRootMemoTests {
    typealias Random = RowSpanTests.Random

    @Test func everyAnswerEqualsTheFunction() {
        var random = Random(state: 21)
        var slots = Array(repeating: EdgeRootSlot.empty, count: EdgeRootMemo.slotCount)
        // A small pool of arguments (so most lookups are repeats), more than the table holds (so
        // slots are taken over), with the same numbers used as edge arguments and as span arguments.
        var pool: [(n: UInt64, r: Int64)] = [(0, 0), (0, 0x10000), (1, 0)]
        for _ in 0..<600 {
            let r = Int64(random.next() % (1 << UInt64(random.int(0...29))))
            let d = UInt64(Swift.max(0, r + Int64(random.next() % 0x30000) - 0x18000))
            pool.append((d * d + random.next() % (2 * d + 1), r))
        }
        var hits = 0
        slots.withUnsafeMutableBufferPointer { table in
            let memo = EdgeRootMemo(slots: table.baseAddress!)
            for _ in 0..<100_000 {
                let (n, r) = pool[random.int(0...(pool.count - 1))]
                let before = table[Int(truncatingIfNeeded: ((n ^ UInt64(truncatingIfNeeded: r)) &* 0x9E37_79B9_7F4A_7C15) >> 56)]
                if random.next() % 3 == 0 {
                    let m = Int64(truncatingIfNeeded: n >> 1) - Int64(random.next() % 2)
                    #expect(memo.largestBelowSquare(m) == largestBelowSquare(m), "m \(m)")
                } else {
                    if before.n == n && before.tag >= 0 && before.tag >> 8 == r { hits += 1 }
                    let got = memo.coverage(squaredDistance: n, radius: r), want = circleEdgeCoverage(squaredDistance: n, radius: r)
                    if got != want { Issue.record("n \(n) r \(r): \(got), expected \(want)"); return }
                }
            }
        }
        // The table must actually be used, or this test checks only the misses.
        #expect(hits > 10_000)
    }
}
