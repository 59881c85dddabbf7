import FixedPoint
import Foundation
import ImageCodecs
import Loaders
import Raster
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// loaderd-media beside the shipped binaries under test, if they are the static build.
let shippedMediaHelper: String? = {
    guard let dir = ProcessInfo.processInfo.environment["LOADERD_BINARIES"], !dir.isEmpty else { return nil }
    let path = dir + "/loaderd-media"
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
}()

/// The shipped binaries are static (scripts/cross-build) and reach FreeType and libpng through
/// loaderd-media, a helper they start when first needed (Sources/CMedia). What a user of the
/// package meets: the helper is used and leaves when idle; without it, or when it fails, the
/// daemon says why in a sentence, draws its text in the bitmap font and goes on serving.
///
/// The shipped build only ($LOADERD_BINARIES with a loaderd-media beside loaderd, as scripts/test
/// sets it): SwiftPM's build opens the libraries in the process.
@Suite(.enabled(if: shippedMediaHelper != nil, "the shipped static build only (LOADERD_BINARIES, set by scripts/test)"))
struct MediaHelperTests {
    static var helper: String? { shippedMediaHelper }

    /// Whether the ELF file at `path` asks for a program interpreter (PT_INTERP): a dynamic program.
    static func hasInterpreter(_ path: String) throws -> Bool {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func word(_ at: Int, _ size: Int) -> Int {
            (0..<size).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
        }
        try #require(bytes.count > 64 && bytes[0..<4] == [0x7F, 0x45, 0x4C, 0x46] && bytes[4] == 2, "a 64-bit ELF file")
        let phoff = word(0x20, 8), phentsize = word(0x36, 2), phnum = word(0x38, 2)
        return (0..<phnum).contains { word(phoff + $0 * phentsize, 4) == 3 }
    }

    /// The processes whose parent is `pid` (from /proc/*/stat).
    static func children(of pid: pid_t) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> String? in
            guard Int(entry) != nil, let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, Int32(fields[1]) == pid else { return nil }
            return String(stat[..<close])
        }
    }

    /// A copy of the shipped loaderd alone in a directory, with `helper` (a script) beside it when given.
    static func loaderdCopy(helper script: String? = nil) throws -> (directory: String, loaderd: String) {
        let dir = try Paths.temporaryDirectory()
        let copy = dir + "/loaderd"
        try Paths.installProgram(Paths.loaderd, at: copy)
        if let script {
            // The text written here, the program made by install(1).
            FileManager.default.createFile(atPath: dir + "/helper.sh", contents: Data(script.utf8))
            try Paths.installProgram(dir + "/helper.sh", at: dir + "/loaderd-media")
        }
        return (dir, copy)
    }

    @Test func theShippedProgramsAreStaticAndTheHelperIsNot() throws {
        #expect(try !Self.hasInterpreter(Paths.loaderd), "loaderd needs no dynamic loader")
        #expect(try !Self.hasInterpreter(Paths.products + "/loaderctl"), "loaderctl needs no dynamic loader")
        #expect(try Self.hasInterpreter(try #require(Self.helper)), "loaderd-media is linked against the system's C library")
    }

    @Test func theHelperDrawsTheTextAndThenLeaves() throws {
        let daemon = try DaemonProcess(arguments: ["--freeze-time", "0.6", "--loader", "linkedin"], size: "800x480")
        let state = FrameState(elapsed: 600_000, message: "Mounting /home")
        #expect(Self.children(of: daemon.process.pid).isEmpty, "no helper before any text")
        #expect(try daemon.client().request("message Mounting /home") == "OK")
        let face = try TextFaceFrameTests.expected(font: .automatic, state: state)
        #expect(eventually { (try? ImageFile.read(path: daemon.imagePath)) == face })
        // The face is kept in the daemon; the helper goes LOADERD_MEDIA_IDLE_MS (2 s) after its last answer.
        #expect(eventually(timeout: 6) { Self.children(of: daemon.process.pid).isEmpty },
                "\(Self.children(of: daemon.process.pid))")
        #expect(try daemon.client().request("message Mounting /var") == "OK")
        let again = try TextFaceFrameTests.expected(font: .automatic, state: FrameState(elapsed: 600_000, message: "Mounting /var"))
        #expect(eventually { (try? ImageFile.read(path: daemon.imagePath)) == again }, "the kept face draws new text")
        #expect(try daemon.terminate() == 0)
    }

    @Test func withoutTheHelperTheTextIsInTheBitmapFontAndTheLogSaysWhy() throws {
        let installed = ["/usr/libexec/loaderd/loaderd-media", "/usr/local/libexec/loaderd/loaderd-media"]
        try #require(!installed.contains { FileManager.default.fileExists(atPath: $0) },
                     "an installed loaderd-media would be found: this test needs a machine without one")
        let (dir, copy) = try Self.loaderdCopy()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let daemon = try DaemonProcess(arguments: ["--freeze-time", "0.6", "--loader", "linkedin"], size: "800x480", binary: copy)
        #expect(try daemon.client().request("message Mounting /home") == "OK")
        #expect(eventually { daemon.process.log.contains("libfreetype.so.6 could not be loaded: loaderd-media, which loads libpng and FreeType for this static build, was not found (looked in \(dir),") },
                "\(daemon.process.log)")
        let bitmap = try TextFaceFrameTests.expected(font: .bitmap, state: FrameState(elapsed: 600_000, message: "Mounting /home"))
        #expect(eventually { (try? ImageFile.read(path: daemon.imagePath)) == bitmap })
        #expect(try daemon.client().request("ping") == "OK pong")
        #expect(try daemon.terminate() == 0)
    }

    @Test(arguments: [
        ("#!/bin/sh\nexit 5\n", "loaderd-media ended before answering (exit status 5"),
        ("#!/bin/sh\nexit 3\n", "loaderd-media ended before answering (it is from another version of loaderd"),
        // Its end of the socket closed, itself alive: not waited for, killed.
        ("#!/bin/sh\nexec 0<&-\nexec sleep 60\n", "loaderd-media ended before answering (killed by signal 9"),
        ("#!/bin/sh\nexec sleep 60\n", "loaderd-media did not answer within 5000 ms and was stopped"),
        ("#!/bin/sh\nprintf 'nonsense from a helper that is not one' >&0\nexec sleep 60\n", "loaderd-media's answer could not be read and it was stopped"),
    ])
    func aHelperThatFailsIsNamedAndTheDaemonServesOn(script: String, reason: String) throws {
        let (dir, copy) = try Self.loaderdCopy(helper: script)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let daemon = try DaemonProcess(arguments: ["--freeze-time", "0.6", "--loader", "linkedin"], size: "800x480", binary: copy)
        #expect(try daemon.client().request("message Mounting /home") == "OK")
        #expect(eventually { daemon.process.log.contains(reason) }, "\(daemon.process.log)")
        let bitmap = try TextFaceFrameTests.expected(font: .bitmap, state: FrameState(elapsed: 600_000, message: "Mounting /home"))
        #expect(eventually { (try? ImageFile.read(path: daemon.imagePath)) == bitmap })
        #expect(try daemon.client().request("ping") == "OK pong")
        #expect(eventually { Self.children(of: daemon.process.pid).isEmpty }, "the failed helper is reaped")
        #expect(try daemon.terminate() == 0)
    }

    /// A logo of 1.9 MB (800x800 pixels of noise, which does not compress): libpng reads the file's
    /// bytes again when the image is finished, so the helper must keep them until then (it once
    /// read them after freeing them, and crashed on files this large). Shown through the helper,
    /// the frame equals the same logo read from a PPM file, which needs no helper.
    @Test func aLargePNGLogoIsShownAsItsPPMTwinIs() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var state: UInt32 = 1
        var bytes = [UInt8](repeating: 0, count: 800 * 800 * 3)
        for i in bytes.indices { state = state &* 1_103_515_245 &+ 12_345; bytes[i] = UInt8(truncatingIfNeeded: state >> 16) }
        let noise = RGBImage(width: 800, height: 800, bytes: bytes)
        try PNG.write(noise, to: dir + "/logo.png")
        try PPM.write(noise, to: dir + "/logo.ppm")
        #expect(try FileManager.default.attributesOfItem(atPath: dir + "/logo.png")[.size] as? Int ?? 0 > 1_000_000)
        var frames: [RGBImage] = []
        for logo in ["logo.png", "logo.ppm"] {
            let daemon = try DaemonProcess(arguments: ["--freeze-time", "0.6", "--loader", "linkedin"], image: "frame.ppm", size: "800x480")
            #expect(try daemon.client().request("start linkedin screen.logo=\(dir)/\(logo)") == "OK started linkedin")
            var frame: RGBImage?
            // The noise on screen, scaled down to a grey square of ~170x170 pixels (nothing else is grey).
            func greyPixels(_ image: RGBImage) -> Int {
                stride(from: 0, to: image.bytes.count, by: 3).filter { i in (i..<i + 3).allSatisfy { (90...170).contains(image.bytes[$0]) } }.count
            }
            #expect(eventually { frame = try? ImageFile.read(path: daemon.imagePath); return frame.map { greyPixels($0) > 10_000 } ?? false },
                    "the logo on screen: \(daemon.process.log)")
            frame = try? ImageFile.read(path: daemon.imagePath)
            if let frame { frames.append(frame) }
            #expect(!daemon.process.log.contains("logo"), "\(daemon.process.log)")
            #expect(try daemon.terminate() == 0)
        }
        #expect(frames.count == 2 && frames[0] == frames[1])
    }

    @Test func theHelperRunByHandSaysWhatItIs() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try Spawned(try #require(Self.helper), [], logPath: dir + "/log")
        #expect(try run.wait() == 2)
        #expect(run.log.contains("loaderd-media loads FreeType and libpng for the static loaderd and loaderctl"))
    }
}
