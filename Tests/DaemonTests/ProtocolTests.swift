import Foundation
import Testing

/// Every command of docs/PROTOCOL.md against the real daemon.
@Suite struct ProtocolTests {
    @Test func everyCommandAndReply() throws {
        let daemon = try DaemonProcess()
        let c = try daemon.client()
        #expect(try c.request("ping") == "OK pong")
        #expect(try c.request("version").hasPrefix("OK loaderd "))
        #expect(try c.request("version").hasSuffix(" protocol 1"))
        #expect(try c.request("list") == "OK linkedin pagedots quizup shimmer worm skeleton bar")
        let idle = try c.request("status")
        #expect(idle.hasPrefix("OK {\"loader\":null,\"state\":\"idle\""))
        #expect(idle.contains("\"progress\":null,\"message\":null"))
        #expect(idle.contains("\"displays\":[{\"name\":\"image:\(daemon.imagePath)\",\"width\":32,\"height\":8,\"fps\":30,\"state\":\"ok\"}]"))
        #expect(idle.contains("\"brightness\":100,\"clients\":1}"))
        #expect(try c.request("stop") == "OK stopped")
        #expect(try c.request("start linkedin") == "OK started linkedin")
        #expect(try c.request("start linkedin") == "OK running linkedin")
        #expect(try c.request("start   LinkedIn  ") == "OK running linkedin")
        #expect(try c.request("start linkedin duration=2") == "OK started linkedin")
        #expect(try c.request("start linkedin duration=2") == "OK running linkedin")
        // "The same parameters" are the same values, however they are written.
        #expect(try c.request("start linkedin fill=red duration=2") == "OK started linkedin")
        #expect(try c.request("start linkedin duration=2.0 fill=red") == "OK running linkedin")
        #expect(try c.request("start linkedin duration=2 fill=blue") == "OK started linkedin")
        #expect(try c.request("start linkedin duration=2") == "OK running linkedin", "blue is fill's default")
        #expect(try c.request("start linkedin duration=2 bogus=1").hasPrefix("ERR"))
        let running = try c.request("status")
        #expect(running.contains("\"loader\":\"linkedin\",\"state\":\"running\""))
        #expect(try c.request("progress 40") == "OK progress 40")
        #expect(try c.request("progress 30") == "OK progress 40")
        #expect(try c.request("progress 30 force") == "OK progress 30")
        #expect(try c.request("progress 42.5") == "OK progress 42.5")
        #expect(try c.request("progress 100") == "OK progress 100")
        #expect(try c.request("progress 0 force") == "OK progress 0")
        #expect(try c.request("progress .5") == "OK progress 0.5")
        #expect(try c.request("message Starting network") == "OK")
        #expect(try c.request("status").contains("\"progress\":0.5,\"message\":\"Starting network\""))
        #expect(try c.request("message \"quoted\" \\ back") == "OK")
        #expect(try c.request("status").contains("\"message\":\"\\\"quoted\\\" \\\\ back\""))
        // Control characters, a tab included, are refused as the config refuses them (docs/RELIABILITY.md).
        #expect(try c.request("message tab\there").hasPrefix("ERR encoding"))
        #expect(try c.request("message") == "OK")
        #expect(try c.request("status").contains("\"message\":null"))
        #expect(try c.request("brightness 40") == "OK brightness 40")
        #expect(try c.request("status").contains("\"brightness\":40"))
        #expect(try c.request("brightness 100") == "OK brightness 100")
        #expect(try c.request("stop") == "OK stopping")
        #expect(try c.request("status").contains("\"state\":\"exiting\"") || true)
        #expect(try c.request("start bar") == "OK started bar")
        #expect(try c.request("stop success") == "OK stopping")
        #expect(try c.request("start bar") == "OK started bar")
        #expect(try c.request("stop failure") == "OK stopping")
        #expect(try c.request("stop now") == "OK stopped")
        #expect(try c.request("status").contains("\"loader\":null,\"state\":\"idle\""))
        // progress while idle starts the determinate bar.
        #expect(try c.request("progress 10") == "OK progress 10")
        #expect(try c.request("status").contains("\"loader\":\"bar\",\"state\":\"running\""))
        // A windows line ending is accepted.
        #expect(try c.request("ping\r") == "OK pong")
        // The exit finishes by itself: back to idle.
        #expect(try c.request("stop") == "OK stopping")
        #expect(try eventually { try c.request("status").contains("\"state\":\"idle\"") })
        #expect(try daemon.terminate() == 0)
    }

    @Test func errorsKeepTheConnection() throws {
        let daemon = try DaemonProcess()
        let c = try daemon.client()
        let cases: [(String, String)] = [
            ("foo", "ERR unknown-command "),
            ("PING", "ERR unknown-command "),
            ("", "ERR unknown-command "),
            ("ping extra", "ERR usage "),
            ("status now", "ERR usage "),
            ("start", "ERR usage "),
            ("start nope", "ERR unknown-loader "),
            ("start linkedin bogus=1", "ERR bad-parameter "),
            ("start linkedin duration=abc", "ERR bad-parameter "),
            ("start linkedin noequals", "ERR bad-parameter "),
            ("stop later", "ERR usage "),
            ("stop now please", "ERR usage "),
            ("progress", "ERR usage "),
            ("progress 5 5", "ERR usage "),
            ("progress 5 force more", "ERR usage "),
            ("progress abc", "ERR bad-number "),
            ("progress -1", "ERR bad-number "),
            ("progress 101", "ERR bad-number "),
            ("progress 100.001", "ERR bad-number "),
            ("progress 1e999", "ERR bad-number "),
            ("progress 1e2", "ERR bad-number "),
            ("progress nan", "ERR bad-number "),
            ("progress inf", "ERR bad-number "),
            ("progress 0x10", "ERR bad-number "),
            ("progress 1.2.3", "ERR bad-number "),
            ("progress .", "ERR bad-number "),
            ("progress 99999999999999999999999999", "ERR bad-number "),
            ("brightness 300", "ERR bad-number "),
            ("brightness -1", "ERR bad-number "),
            ("brightness 50.5", "ERR bad-number "),
            ("brightness", "ERR usage "),
            ("message " + String(repeating: "m", count: 257), "ERR usage "),
        ]
        for (request, prefix) in cases {
            let reply = try c.request(request)
            #expect(reply.hasPrefix(prefix), "\(request) → \(reply)")
            #expect(try c.request("ping") == "OK pong", "connection kept after \(request)")
        }
        // Messages name what is accepted.
        #expect(try c.request("foo").contains("ping, version, start, stop, progress, message, status, list, brightness"))
        #expect(try c.request("start nope").contains("linkedin, pagedots"))
        #expect(try c.request("start bar x=1").contains("fill"))
        #expect(try daemon.terminate() == 0)
    }

    @Test func encodingErrors() throws {
        let daemon = try DaemonProcess()
        let c = try daemon.client()
        try c.send([0xFF, 0xFE, 0x0A])
        #expect(try c.readLine()?.hasPrefix("ERR encoding ") == true)
        try c.send(Array("pi".utf8) + [0] + Array("ng\n".utf8))
        #expect(try c.readLine()?.hasPrefix("ERR encoding ") == true)
        try c.send(Array("message caf".utf8) + [0xC3] + [0x0A])  // truncated sequence
        #expect(try c.readLine()?.hasPrefix("ERR encoding ") == true)
        try c.send([0xED, 0xA0, 0x80, 0x0A])  // a UTF-16 surrogate encoded in UTF-8
        #expect(try c.readLine()?.hasPrefix("ERR encoding ") == true)
        #expect(try c.request("message café ✓") == "OK")
        #expect(try c.request("status").contains("\"message\":\"café ✓\""))
        #expect(try c.request("ping") == "OK pong")
        _ = try daemon.terminate()
    }

    @Test func tooLongLinesOnceAndDiscarded() throws {
        let daemon = try DaemonProcess()
        let c = try daemon.client()
        // Exactly the limit is fine (an unknown command, but not too long).
        #expect(try c.request(String(repeating: "x", count: 4096)).hasPrefix("ERR unknown-command "))
        #expect(try c.request(String(repeating: "x", count: 4097)).hasPrefix("ERR too-long "))
        #expect(try c.request("ping") == "OK pong")
        // A huge line in many pieces: one reply, and the tail (which looks like a command) is discarded.
        try c.send(String(repeating: "y", count: 3000))
        for _ in 0..<50 { try c.send(String(repeating: "z", count: 1000)) }
        try c.send(" ping\nping\n")
        #expect(try c.readLine()?.hasPrefix("ERR too-long ") == true)
        #expect(try c.readLine() == "OK pong")
        // A message at the limit of characters but over the byte limit is refused as too long.
        #expect(try c.request("message " + String(repeating: "é", count: 2100)).hasPrefix("ERR too-long "))
        #expect(try c.request("ping") == "OK pong")
        _ = try daemon.terminate()
    }

    @Test func pipelinedRepliesInOrder() throws {
        let daemon = try DaemonProcess(arguments: ["--loader", "linkedin"])
        let c = try daemon.client()
        var batch = ""
        var expected: [String] = []
        for i in 0..<300 {
            switch i % 5 {
            case 0: batch += "ping\n"; expected.append("OK pong")
            case 1: batch += "progress \(i / 3) force\n"; expected.append("OK progress \(i / 3)")
            case 2: batch += "bogus \(i)\n"; expected.append("ERR unknown-command")
            case 3: batch += "message m\(i)\n"; expected.append("OK")
            default: batch += "brightness \(i % 101)\n"; expected.append("OK brightness \(i % 101)")
            }
        }
        // One write of everything; then the same split at awkward places.
        try c.send(batch)
        for e in expected {
            let reply = try #require(try c.readLine())
            #expect(reply.hasPrefix(e), "expected \(e), got \(reply)")
        }
        let bytes = Array(batch.utf8)
        var offset = 0, step = 1
        while offset < bytes.count {
            let end = min(bytes.count, offset + step)
            try c.send(Array(bytes[offset..<end]))
            offset = end
            step = step * 3 % 97 + 1
        }
        for e in expected {
            let reply = try #require(try c.readLine())
            #expect(reply.hasPrefix(e), "expected \(e), got \(reply)")
        }
        _ = try daemon.terminate()
    }

    @Test func unterminatedLastLineAnsweredAtEndOfStream() throws {
        let daemon = try DaemonProcess()
        let c = try daemon.client()
        try c.send("ping\nping")
        shutdown(c.fd, Int32(SHUT_WR))
        #expect(try c.readLine() == "OK pong")
        #expect(try c.readLine() == "OK pong")
        #expect(try c.readLine() == nil)
        _ = try daemon.terminate()
    }
}
