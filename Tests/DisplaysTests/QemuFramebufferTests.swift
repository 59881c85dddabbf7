import Foundation
import ImageCodecs
import Raster
import Testing
@testable import Displays

/// The real loaderd on a real kernel framebuffer: scripts/qemu-fb-test boots Debian's kernel
/// under qemu, loads vfb at 16 and 32 bpp, runs `loaderd --display fb:device=/dev/fb0,...` and
/// reads /dev/fb0 back. Here the pixels are compared with `loaderctl render` of the same loader at
/// the same time, placed as the spec says (placements worked out by hand below) and packed the
/// way vfb lays pixels out (drivers/video/fbdev/vfb.c: red at bit 0 in both depths).
@Suite(.serialized) struct QemuFramebufferTests {
    struct Run {
        let bpp: Int
        let format: FramebufferPixelFormat
        let canvas: (width: Int, height: Int)
        let origin: (x: Int, y: Int)
        let scale: Int
        let background: String
    }

    // 320x240 screen. 16 bpp, `scale=3,vsync=on`: canvas 320/3 × 240/3 = 106x80, 318x240 on screen, centred
    // at x = 1. 32 bpp, `size=64x32,scale=4`: 256x128 centred at (32, 56), background #102030,
    // double-buffered (buffers=2).
    static let runs = [
        Run(bpp: 16, format: .bgr565, canvas: (106, 80), origin: (1, 0), scale: 3, background: "black"),
        Run(bpp: 32, format: .abgr8888, canvas: (64, 32), origin: (32, 56), scale: 4, background: "#102030"),
    ]

    static var repository: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }

    /// $LOADERD_BINARIES (the shipped Embedded build, set by scripts/test), else SwiftPM's products.
    static var productsDirectory: URL {
        if let dir = ProcessInfo.processInfo.environment["LOADERD_BINARIES"], !dir.isEmpty { return URL(fileURLWithPath: dir) }
        let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        var dir = exe.deletingLastPathComponent()
        while dir.pathExtension == "xctest" { dir = dir.deletingLastPathComponent() }
        return dir
    }

    @discardableResult
    static func run(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(.timeLimit(.minutes(3)))
    func loaderdDrawsTheOfflineRenderOnARealFramebuffer() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("loaderd-qemu-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let script = Self.repository.appendingPathComponent("scripts/qemu-fb-test")
        let loaderd = Self.productsDirectory.appendingPathComponent("loaderd")
        let result = try Self.run(script, ["--loaderd", loaderd.path, "--out", out.path])
        if result.status == 77 {
            let reason = result.stderr.split(separator: "\n").last { $0.contains("SKIP") }.map(String.init) ?? result.stderr
            print("SKIPPED the qemu framebuffer test: \(reason)")
            try Test.cancel("qemu or Debian's kernel cannot be obtained: \(reason)")
        }
        try #require(result.status == 0, "scripts/qemu-fb-test failed:\n\(result.stderr)")

        for run in Self.runs {
            let info = try String(contentsOf: out.appendingPathComponent("fb\(run.bpp).info"), encoding: .utf8)
            func field(_ key: String) -> [Int] {
                info.split(separator: "\n").first { $0.hasPrefix(key + "=") }?
                    .dropFirst(key.count + 1).split(separator: ",").compactMap { Int($0) } ?? []
            }
            #expect(field("bits_per_pixel") == [run.bpp])
            let stride = try #require(field("stride").first)
            let pan = field("pan")
            let panY = pan.count == 2 ? pan[1] : 0
            let raw = [UInt8](try Data(contentsOf: out.appendingPathComponent("fb\(run.bpp).raw")))
            try #require(raw.count >= (panY + 240) * stride)
            let log = (try? String(contentsOf: out.appendingPathComponent("fb\(run.bpp).log"), encoding: .utf8)) ?? ""
            // vsync=on at 16 bpp: vfb has no vertical blank, so one warning, then frames as usual.
            let warnings = log.split(separator: "\n").filter { $0.hasPrefix("<4>") }
            if run.bpp == 16 {
                #expect(warnings == ["<4>fb:/dev/fb0: the driver does not support FBIO_WAITFORVSYNC (Inappropriate ioctl for device); vsync off"], "\(log)")
            } else {
                #expect(warnings.isEmpty, "loaderd warned at \(run.bpp) bpp:\n\(log)")
            }

            // The offline render of the same loader at the same time.
            let ppm = out.appendingPathComponent("expected\(run.bpp).ppm")
            let render = try Self.run(Self.productsDirectory.appendingPathComponent("loaderctl"),
                                      ["render", "bar", "--progress", "40", "--at", "0", "--size", "\(run.canvas.width)x\(run.canvas.height)",
                                       "--background", run.background, "--output", ppm.path])
            try #require(render.status == 0, "loaderctl render failed: \(render.stderr)")
            let image = try PPM.decode([UInt8](try Data(contentsOf: ppm)))
            let background = try Color(parsing: run.background)

            let encoder = PixelEncoder(run.format)
            let bpp = run.bpp / 8
            var mismatches: [String] = []
            var mismatchCount = 0
            var drawn = 0
            for y in 0..<240 {
                for x in 0..<320 {
                    var color = background
                    let u = x - run.origin.x, v = y - run.origin.y
                    if u >= 0, v >= 0, u < run.canvas.width * run.scale, v < run.canvas.height * run.scale {
                        let i = ((v / run.scale) * image.width + u / run.scale) * 3
                        color = Color(r: image.bytes[i], g: image.bytes[i + 1], b: image.bytes[i + 2])
                    }
                    if color != background { drawn += 1 }
                    let expected = encoder.encode(color)
                    var actual: UInt32 = 0
                    let offset = (panY + y) * stride + x * bpp
                    for k in 0..<bpp { actual |= UInt32(raw[offset + k]) << (8 * UInt32(k)) }
                    if actual != expected {
                        mismatchCount += 1
                        if mismatches.count < 5 { mismatches.append("(\(x),\(y)): expected 0x\(String(expected, radix: 16)), read 0x\(String(actual, radix: 16))") }
                    }
                }
            }
            #expect(drawn > 1000, "the offline render of bar at 40 % drew almost nothing at \(run.bpp) bpp")

            // After loaderd exited (SIGTERM → clear → close): the original mode is back and the
            // console is in text mode again, so fbcon has repainted the screen over the
            // background loaderd left (#102030 in the 32 bpp run; the 16 bpp run's black is fbcon's too).
            let after = try String(contentsOf: out.appendingPathComponent("after\(run.bpp).info"), encoding: .utf8)
            #expect(after.contains("virtual_size=320,240"), "mode not restored at \(run.bpp) bpp:\n\(after)")
            #expect(after.contains("pan=0,0"))
            if run.bpp == 32 {
                let words = after.split(separator: "\n").filter { $0.hasPrefix("histogram=") }.compactMap { $0.split(separator: " ").last }
                #expect(!words.isEmpty && !words.contains("ff302010"), "the splash background is still on screen after exit: the console did not go back to text mode:\n\(after)")
            }
            #expect(mismatchCount == 0, "\(mismatchCount) pixels differ at \(run.bpp) bpp: \(mismatches.joined(separator: "; "))")
        }

        // A loaderd killed with SIGKILL cleans nothing up: the console stays in graphics mode and
        // the splash (its background, #102030) on screen. `loaderd --restore-console`, which
        // loaderd.service's ExecStopPost= runs after such an end, gives the console back: fbcon
        // repaints the visible screen.
        func histogram(_ name: String) throws -> [Substring] {
            let info = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
            return info.split(separator: "\n").filter { $0.hasPrefix("histogram=") }.compactMap { $0.split(separator: " ").last }
        }
        let killed = try histogram("killed.info"), restored = try histogram("restored.info")
        #expect(killed.first == "ff302010", "after SIGKILL the splash should still be on screen (the console in graphics mode): \(killed)")
        #expect(!restored.isEmpty && !restored.contains("ff302010"), "after --restore-console the splash is still on screen: \(restored)")
        let restore = (try? String(contentsOf: out.appendingPathComponent("restore.txt"), encoding: .utf8)) ?? ""
        #expect(restore.contains("exit 0: loaderd: the console is back in text mode"), "\(restore)")
    }

    /// A passphrase asked on the console while the splash is up (a question file in
    /// /run/systemd/ask-password, its asker alive): loaderd closes the framebuffer display, the
    /// kernel console repaints its text (the prompt) over the splash, and once the file is gone the
    /// splash is drawn again. scripts/qemu-password-test reads the screen back at each step; it
    /// uses the kernel the test above caches, so it comes after it in this serialized suite.
    @Test(.timeLimit(.minutes(3)))
    func aPasswordQuestionGivesTheConsoleBackOnARealFramebuffer() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("loaderd-qemu-pw-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let script = Self.repository.appendingPathComponent("scripts/qemu-password-test")
        let result = try Self.run(script, ["--loaderd", Self.productsDirectory.appendingPathComponent("loaderd").path, "--out", out.path])
        if result.status == 77 {
            try Test.cancel("no cached kernel: \(result.stderr.split(separator: "\n").last ?? "")")
        }
        #expect(result.status == 0, "scripts/qemu-password-test failed:\n\(result.stderr)")
    }
}
