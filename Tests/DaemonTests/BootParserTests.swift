import Foundation
import Testing
@testable import LoaderDaemon

/// The psplash command splitter, the Plymouth framing, the boot timeline and the estimator, in process.
@Suite struct BootParserTests {
    // MARK: psplash

    /// The obvious splitter over the whole stream (nil: an over-long command).
    static func referenceCommands(_ stream: [UInt8], max: Int) -> [[UInt8]?] {
        var out: [[UInt8]?] = []
        var current: [UInt8] = []
        var tooLong = false
        for b in stream {
            if b == 0x0A || b == 0 {
                if !tooLong && !current.isEmpty { out.append(current) }
                current = []; tooLong = false
            } else if !tooLong {
                current.append(b)
                if current.count > max { out.append(nil); tooLong = true; current = [] }
            }
        }
        return out
    }

    static func split(_ stream: [UInt8], chunk: Int, max: Int) -> [[UInt8]?] {
        var s = PsplashSplitter(maximumLength: max)
        var out: [[UInt8]?] = []
        var i = 0
        while i < stream.count {
            let part = Array(stream[i..<Swift.min(stream.count, i + chunk)])
            part.withUnsafeBytes { raw in s.feed(raw) { out.append($0.map { Array($0) }) } }
            #expect(s.bufferedByteCount <= max)
            i += chunk
        }
        return out
    }

    /// The end of what was written ends the command, separator or not (psplash's rule); an
    /// over-long one reported before is not reported again.
    @Test func psplashSplitterFlushesWhatWasLeftWithoutASeparator() {
        var s = PsplashSplitter(maximumLength: 8)
        var got: [[UInt8]?] = []
        let collect: (UnsafeRawBufferPointer?) -> Void = { got.append($0.map { Array($0) }) }
        Array("MSG a\0PROG".utf8).withUnsafeBytes { s.feed($0, collect) }
        #expect(got == [Array("MSG a".utf8)])
        s.flush(collect)
        #expect(got == [Array("MSG a".utf8), Array("PROG".utf8)])
        s.flush(collect)
        #expect(got.count == 2, "nothing left")
        Array("MSG abcdefgh".utf8).withUnsafeBytes { s.feed($0, collect) }
        s.flush(collect)
        #expect(got.count == 3 && got[2] == nil, "the over-long one, once")
        Array("MSG b".utf8).withUnsafeBytes { s.feed($0, collect) }
        s.flush(collect)
        #expect(got.last == Array("MSG b".utf8))
    }

    @Test func psplashSplitterMatchesTheReferenceAtEveryChunkSize() {
        let stream = Array("PROGRESS 10\0\0MSG hello world\nQUIT\0\n\nPROGRESS -5\n".utf8) + [UInt8](repeating: 65, count: 40) + Array("\0MSG x\0MSG partial".utf8)
        for max in [8, 16, 64] {
            let expected = Self.referenceCommands(stream, max: max)
            for chunk in 1...stream.count {
                #expect(Self.split(stream, chunk: chunk, max: max) == expected, "chunk \(chunk) max \(max)")
            }
        }
        // Random streams over a small alphabet.
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let stream = (0..<Int.random(in: 0..<200, using: &rng)).map { _ in [0, 0x0A, 0x41, 0x20, 0x42][Int.random(in: 0..<5, using: &rng)] as UInt8 }
            let max = Int.random(in: 1..<20, using: &rng)
            #expect(Self.split(stream, chunk: Int.random(in: 1..<30, using: &rng), max: max) == Self.referenceCommands(stream, max: max))
        }
    }

    @Test func psplashCommandsParseAsPsplashDoes() {
        func p(_ s: String) -> PsplashCommand { PsplashCommand.parse(Array(s.utf8)) }
        #expect(p("PROGRESS 40") == .progress(40))
        #expect(p("PROGRESS   -25") == .progress(-25))
        #expect(p("PROGRESS 250") == .progress(100))
        #expect(p("PROGRESS -9999999999999999999999") == .progress(-100))
        #expect(p("PROGRESS 12abc") == .progress(12))
        #expect(p("PROGRESS abc") == .progress(0))
        #expect(p("PROGRESS +7") == .progress(7))
        #expect(p("  PROGRESS 3") == .progress(3))
        #expect(p("PROGRESS") == .ignored("PROGRESS"))
        #expect(p("MSG  Starting network  ") == .message("Starting network  "))
        #expect(p("MSG") == .message(""))
        #expect(p("MSG a\u{1}b") == .message("a b"), "a control character becomes a space")
        #expect(p("QUIT") == .quit)
        #expect(p("QUIT now") == .quit)
        #expect(p("quit") == .ignored("quit"))
        #expect(p("PROGRESSX 1") == .ignored("PROGRESSX 1"))
        #expect(PsplashCommand.parse([0x4D, 0x53, 0x47, 0x20, 0xFF]) == .message("\u{FFFD}"))
    }

    // MARK: Plymouth

    static func requests(_ stream: [UInt8], chunk: Int) -> ([PlymouthRequest], PlymouthFramingError?) {
        var parser = PlymouthParser()
        var out: [PlymouthRequest] = []
        var error: PlymouthFramingError?
        var i = 0
        while i < stream.count, error == nil {
            let part = Array(stream[i..<Swift.min(stream.count, i + chunk)])
            error = part.withUnsafeBytes { parser.feed($0) { out.append($0) } }
            i += chunk
        }
        return (out, error)
    }

    @Test func plymouthPipelinedRequestsAtEveryChunkSize() {
        let sent: [PlymouthRequest] = [
            .init(command: UInt8(ascii: "P"), argument: nil),
            .init(command: UInt8(ascii: "U"), argument: Array("systemd-udevd.service".utf8)),
            .init(command: UInt8(ascii: "Q"), argument: []),
            .init(command: UInt8(ascii: "Q"), argument: [1]),
            .init(command: UInt8(ascii: "M"), argument: Array(repeating: 0x61, count: 254)),
            .init(command: UInt8(ascii: "A"), argument: nil),
        ]
        let stream = sent.flatMap(\.bytes)
        #expect(Array(stream.prefix(2)) == [0x50, 0x00])
        #expect(Array(stream[2..<5]) == [0x55, 0x02, 22])
        for chunk in 1...stream.count {
            let (got, error) = Self.requests(stream, chunk: chunk)
            #expect(got == sent && error == nil, "chunk \(chunk)")
        }
        #expect(sent[3].text == "\u{1}" && sent[2].text == "" && sent[1].text == "systemd-udevd.service")
    }

    @Test func plymouthMalformedFramesAreErrorsAfterTheGoodOnes() {
        #expect(Self.requests([0x50, 0x00, 0x50, 0x01], chunk: 4).1 == .badHeader(1))
        #expect(Self.requests([0x50, 0x00, 0x50, 0x01], chunk: 4).0.count == 1)
        #expect(Self.requests([0x55, 0x02, 0x00], chunk: 1).1 == .zeroLength)
        #expect(Self.requests([0x55, 0x02, 0x03, 0x61, 0x62, 0x63], chunk: 2).1 == .missingNUL)
        // An unfinished request is not an error (yet).
        var parser = PlymouthParser()
        let e = [UInt8]([0x55, 0x02, 0x05, 0x61]).withUnsafeBytes { parser.feed($0) { _ in } }
        #expect(e == nil && parser.isInsideRequest)
    }

    @Test func plymouthReplies() {
        #expect(PlymouthReply.ack.bytes == [0x06])
        #expect(PlymouthReply.nak.bytes == [0x15])
        #expect(PlymouthReply.noAnswer.bytes == [0x05])
        #expect(PlymouthReply.answer(Array("pw".utf8)).bytes == [0x02, 2, 0, 0, 0, 0x70, 0x77])
        #expect(PlymouthReply.multipleAnswers([[0x61], [0x62]]).bytes == [0x09, 3, 0, 0, 0, 0x61, 0, 0x62])
    }

    @Test func plymouthAddresses() {
        let (_, trimmed) = PlymouthServer.address(PlymouthWire.socketName, trimmed: true)
        #expect(Int(trimmed) == 2 + 1 + "/org/freedesktop/plymouthd".utf8.count)
        let (addr, full) = PlymouthServer.address(PlymouthWire.oldSocketName, trimmed: false)
        #expect(Int(full) == MemoryLayout<sockaddr_un>.size)
        var copy = addr
        let bytes = withUnsafeBytes(of: &copy.sun_path) { Array($0) }
        #expect(bytes[0] == 0 && Array(bytes[1...18]) == Array("/ply-boot-protocol".utf8) && bytes[19...].allSatisfy { $0 == 0 })
    }

    // MARK: Timeline

    @Test func timelineRoundTripsThroughItsFile() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let t = BootTimeline(total: 3_012_000, units: [("a.service", 51_000), ("b.mount", 1_500_000)])
        #expect(t.text == "loaderd-boot-timeline 1\ntotal 3.012\n0.051 a.service\n1.500 b.mount\n")
        let path = dir + "/sub/boot-timeline"
        try t.save(path: path)
        #expect(try BootTimeline.load(path: path).get() == t)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
        #expect(try BootTimeline.load(path: dir + "/none").get() == nil)
    }

    @Test(arguments: [
        ("", "line 1: expected 'loaderd-boot-timeline 1'"),
        ("loaderd-boot-timeline 1\ntotal 0\n", "line 2: expected 'total SECONDS' with SECONDS more than 0"),
        ("loaderd-boot-timeline 1\ntotal 2\n3.0 late.service\n", "line 3: expected 'SECONDS UNIT' with SECONDS at most the total"),
        ("loaderd-boot-timeline 1\ntotal 2\n1.0 \n", "line 3: expected a unit name without spaces"),
        ("loaderd-boot-timeline 1\ntotal 2\n-1 x\n", "line 3: expected 'SECONDS UNIT' with SECONDS at most the total"),
    ])
    func corruptTimelinesAreErrors(_ text: String, _ message: String) {
        guard case .failure(let e) = BootTimeline.parse(text) else { Issue.record("parsed"); return }
        #expect(e.description == message)
    }

    @Test func binaryGarbageIsACorruptTimeline() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data([0xFF, 0x00, 0x12]).write(to: URL(fileURLWithPath: dir + "/t"))
        guard case .failure(let e) = BootTimeline.load(path: dir + "/t") else { Issue.record("loaded"); return }
        #expect(e.description == "not UTF-8 text")
    }

    @Test func estimatorWithHistoryFollowsThePreviousBoot() {
        let previous = BootTimeline(total: 4_000_000, units: [("a", 1_000_000), ("b", 2_000_000), ("c", 3_000_000), ("d", 4_000_000)])
        var e = BootProgressEstimator(previous: previous)
        #expect(e.unitActive("b", at: 10) == 50_000)
        #expect(e.unitActive("a", at: 20) == nil)  // never backwards
        #expect(e.unitActive("new.service", at: 30) == nil)  // unknown: no move
        #expect(e.unitActive("b", at: 40) == nil)  // seen
        #expect(e.unitActive("d", at: 50) == BootProgressEstimator.ceiling)
        #expect(e.timeline(endedAt: 60).units.map(\.name) == ["b", "a", "new.service", "d"])
    }

    /// A boot that ends within its first millisecond (a quit right after the start) is saved as
    /// a file the next start reads back: the file keeps milliseconds, and a total of 0 is refused.
    @Test func aTimelineShorterThanAMillisecondIsSavedReadably() throws {
        var e = BootProgressEstimator(previous: nil)
        _ = e.unitActive("a.service", at: 300)
        let text = e.timeline(endedAt: 700).text
        guard case .success(let read) = BootTimeline.parse(text) else { Issue.record("refused: \(text)"); return }
        #expect(read.total == 1_000 && read.units.map(\.name) == ["a.service"])
    }

    @Test func aTimelineAdoptedMidBootGuidesTheRestAndNeverGoesBack() {
        var e = BootProgressEstimator(previous: nil)
        var shown = 0
        for i in 0..<30 { shown = e.unitActive("early\(i)", at: Int64(i)) ?? shown }  // the initramfs's estimate
        #expect(shown == 90_000 * 30 / 80)
        let previous = BootTimeline(total: 10_000_000, units: [("a", 2_000_000), ("b", 6_000_000), ("c", 9_000_000)])
        e.adopt(previous: previous)
        #expect(e.hasHistory)
        #expect(e.unitActive("a", at: 40) == nil)  // 20 % is below what was shown
        #expect(e.unitActive("b", at: 50) == 60_000)
        #expect(e.unitActive("other", at: 60) == nil)  // not in the timeline: no move
        e.adopt(previous: BootTimeline(total: 1_000_000, units: [("c", 1_000_000)]))  // the first one stays
        #expect(e.unitActive("c", at: 70) == 90_000)
    }

    @Test func estimatorWithoutHistoryIsMonotonicAndBelow90() {
        var e = BootProgressEstimator(previous: nil)
        var last = 0
        for i in 0..<500 {
            if let p = e.unitActive("u\(i)", at: Int64(i)) {
                #expect(p > last && p < 90_000)
                last = p
            }
        }
        #expect(last > 80_000)
    }
}
