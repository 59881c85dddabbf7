import Foundation
import ImageCodecs
import Raster
import Testing
@testable import Displays

/// The real loaderd on real kernel DRM drivers: scripts/qemu-drm-test boots Debian's kernel under
/// qemu with bochs-drm (card0, with fbdev emulation: /dev/fb0 exists) and virtio-gpu (card1, no
/// framebuffer), runs loaderd on each and takes QMP screendumps from outside. Here each screen is
/// compared with `loaderctl render` of the same loader at the same time, placed as the spec says
/// (worked out by hand below) — exactly: XRGB8888 loses nothing.
@Suite(.serialized) struct QemuDRMTests {
    struct Run {
        let name: String
        let canvas: (width: Int, height: Int)
        let scale: Int
        let rotate: Int
        let origin: (x: Int, y: Int)
        let background: String
    }

    // Both outputs come up at 1280x800 (their preferred mode). bochs, `auto:size=64x32,scale=4,
    // background=#102030`: 256x128 centred at (512, 336). virtio, `drm:device=/dev/dri/card1,
    // size=48x24,scale=5,rotate=90,anchor=top-left,x=10,y=20`: 24x48 rotated, 120x240 at (10, 20).
    static let runs = [
        Run(name: "bochs", canvas: (64, 32), scale: 4, rotate: 0, origin: (512, 336), background: "#102030"),
        Run(name: "virtio", canvas: (48, 24), scale: 5, rotate: 90, origin: (10, 20), background: "black"),
    ]

    @Test(.timeLimit(.minutes(5)))
    func loaderdDrawsOnDRMAndHandsTheScreenOver() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("loaderd-qemu-drm-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let script = QemuFramebufferTests.repository.appendingPathComponent("scripts/qemu-drm-test")
        let loaderd = QemuFramebufferTests.productsDirectory.appendingPathComponent("loaderd")
        let result = try QemuFramebufferTests.run(script, ["--loaderd", loaderd.path, "--out", out.path])
        if result.status == 77 {
            let reason = result.stderr.split(separator: "\n").last { $0.contains("SKIP") }.map(String.init) ?? result.stderr
            print("SKIPPED the qemu DRM test: \(reason)")
            try Test.cancel("qemu or Debian's kernel cannot be obtained: \(reason)")
        }
        try #require(result.status == 0, "scripts/qemu-drm-test failed:\n\(result.stderr)")

        for run in Self.runs {
            let info = try String(contentsOf: out.appendingPathComponent("\(run.name).info"), encoding: .utf8)
            let log = (try? String(contentsOf: out.appendingPathComponent("\(run.name).log"), encoding: .utf8)) ?? ""
            #expect(info.contains("@@@ \(run.name) loaderd exit 0"), "\(info)")
            // The bochs card also has /dev/fb0: `auto` must have chosen DRM all the same.
            #expect(log.contains("display drm:/dev/dri/card\(run.name == "bochs" ? 0 : 1) \(run.canvas.width)x\(run.canvas.height)"), "\(log)")
            #expect(!log.contains("<4>") && !log.contains("<3>"), "loaderd warned on \(run.name):\n\(log)")

            let expected = try Self.expectedScreen(run, screenWidth: 1280, screenHeight: 800, scratch: out)
            let background = try Color(parsing: run.background)
            #expect(expected.filter { $0 != background }.count > 1000, "the offline render drew almost nothing")
            // Drawn, and again after the connectors were unplugged and plugged back (sysfs).
            for shot in ["drawn", "replugged"] {
                let differences = try Self.differences(out.appendingPathComponent("\(run.name)-\(shot).ppm"), expected, width: 1280, height: 800)
                #expect(differences.isEmpty, "\(differences.count) pixels differ on \(run.name) (\(shot)): \(differences.prefix(5).joined(separator: "; "))")
            }
            #expect(info.contains("@@@ \(run.name) alive after replug"), "loaderd did not survive the replug on \(run.name):\n\(info)")

            // After quit, the splash is gone: bochs shows the console again (fbcon's framebuffer was
            // put back on the CRTC); virtio had nothing before, so its output is off.
            let after = try PPM.decode([UInt8](try Data(contentsOf: out.appendingPathComponent("\(run.name)-after.ppm"))))
            let splashLeft = stride(from: 0, to: after.bytes.count, by: 3).contains { i in
                Color(r: after.bytes[i], g: after.bytes[i + 1], b: after.bytes[i + 2]) == Color(r: 0x10, g: 0x20, b: 0x30)
            }
            if run.name == "bochs" { #expect(!splashLeft, "the splash background is still on screen after quit") }

            // Another DRM client became master and set its own mode: the whole screen magenta.
            #expect(info.contains("@@@ \(run.name) client exit 0"), "the next DRM client failed:\n\(info)")
            let client = try PPM.decode([UInt8](try Data(contentsOf: out.appendingPathComponent("\(run.name)-client.ppm"))))
            let magenta = stride(from: 0, to: client.bytes.count, by: 3).allSatisfy { i in
                client.bytes[i] == 0xff && client.bytes[i + 1] == 0 && client.bytes[i + 2] == 0xff
            }
            #expect(magenta, "the next DRM client's mode is not on screen on \(run.name)")
        }

        try checkHotplug(out)
    }

    /// The second boot (Linux 6.12, virtio-gpu, no framebuffer): the splash at 1280x800, the
    /// monitor swapped for one preferring 1024x768 (loaderd opens the card again in that mode),
    /// `plymouth quit --retain-splash` (the last frame stays after loaderd exited: CLOSEFB), then
    /// the next DRM client's mode.
    func checkHotplug(_ out: URL) throws {
        guard let info = try? String(contentsOf: out.appendingPathComponent("hotplug.info"), encoding: .utf8) else {
            print("SKIPPED the hotplug boot: trixie's kernel could not be obtained (see scripts/qemu-drm-test's output)")
            return
        }
        let log = (try? String(contentsOf: out.appendingPathComponent("hotplug.log"), encoding: .utf8)) ?? ""
        let run = Run(name: "hotplug", canvas: (64, 32), scale: 4, rotate: 0, origin: (512, 336), background: "#102030")
        let drawn = try Self.expectedScreen(run, screenWidth: 1280, screenHeight: 800, scratch: out)
        let differences = try Self.differences(out.appendingPathComponent("hotplug-drawn.ppm"), drawn, width: 1280, height: 800)
        #expect(differences.isEmpty, "\(differences.count) pixels differ before the swap: \(differences.prefix(5).joined(separator: "; "))")

        #expect(info.contains("@@@ hotplug preferred mode now 1024x768"), "the guest did not see the new monitor:\n\(info)")
        #expect(log.contains("now shows 1024x768, not 1280x800; opened again: drm:/dev/dri/card0 64x32"), "\(log)")
        let moved = Run(name: "hotplug", canvas: (64, 32), scale: 4, rotate: 0, origin: (384, 320), background: "#102030")
        let swapped = try Self.expectedScreen(moved, screenWidth: 1024, screenHeight: 768, scratch: out)
        let after = try Self.differences(out.appendingPathComponent("hotplug-swapped.ppm"), swapped, width: 1024, height: 768)
        #expect(after.isEmpty, "\(after.count) pixels differ after the swap: \(after.prefix(5).joined(separator: "; "))")

        #expect(info.contains("@@@ hotplug plymouth exit 0") && info.contains("@@@ hotplug loaderd exit 0"), "\(info)")
        #expect(log.contains("Plymouth: quit (retaining the splash)") && !log.contains("cannot keep the last frame"), "\(log)")
        // After loaderd exited: its last frame (the finished bar) still on screen at 1024x768 —
        // the background everywhere outside the splash's place, the bar inside it.
        let retained = try PPM.decode([UInt8](try Data(contentsOf: out.appendingPathComponent("hotplug-retained.ppm"))))
        try #require(retained.width == 1024 && retained.height == 768, "retained screen is \(retained.width)x\(retained.height)")
        let background = try Color(parsing: "#102030")
        var outside = 0, lit = 0
        for y in 0..<768 {
            for x in 0..<1024 {
                let i = (y * 1024 + x) * 3
                let c = Color(r: retained.bytes[i], g: retained.bytes[i + 1], b: retained.bytes[i + 2])
                let inside = x >= 384 && x < 384 + 256 && y >= 320 && y < 320 + 128
                if !inside && c != background { outside += 1 }
                if inside && c.r > 200 && c.g > 200 && c.b > 200 { lit += 1 }
            }
        }
        #expect(outside == 0 && lit > 5000, "the splash was not kept after quit --retain-splash: \(outside) pixels off the background outside it, \(lit) lit inside")

        #expect(info.contains("@@@ hotplug-client modeset 1024x768") && info.contains("@@@ hotplug client exit 0"), "\(info)")
        let client = try PPM.decode([UInt8](try Data(contentsOf: out.appendingPathComponent("hotplug-client.ppm"))))
        let magenta = stride(from: 0, to: client.bytes.count, by: 3).allSatisfy { i in
            client.bytes[i] == 0xff && client.bytes[i + 1] == 0 && client.bytes[i + 2] == 0xff
        }
        #expect(magenta, "the next DRM client's mode is not on screen after the retained splash")
    }

    /// `loaderctl render` of the bar at 40 % placed on a screen as `run` says.
    static func expectedScreen(_ run: Run, screenWidth: Int, screenHeight: Int, scratch: URL) throws -> [Color] {
        let ppm = scratch.appendingPathComponent("expected-\(run.name)-\(screenWidth).ppm")
        let render = try QemuFramebufferTests.run(QemuFramebufferTests.productsDirectory.appendingPathComponent("loaderctl"),
                                                  ["render", "bar", "--progress", "40", "--at", "0", "--size", "\(run.canvas.width)x\(run.canvas.height)",
                                                   "--background", run.background, "--output", ppm.path])
        try #require(render.status == 0, "loaderctl render failed: \(render.stderr)")
        let image = try PPM.decode([UInt8](try Data(contentsOf: ppm)))
        var canvas = Canvas(width: image.width, height: image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let i = (y * image.width + x) * 3
                canvas[x, y] = Pixel(r: image.bytes[i], g: image.bytes[i + 1], b: image.bytes[i + 2], a: 255)
            }
        }
        return DisplaysTests.expectedScreen(canvas: canvas, screenWidth: screenWidth, screenHeight: screenHeight, scale: run.scale, rotate: run.rotate,
                                            originX: run.origin.x, originY: run.origin.y, background: try Color(parsing: run.background))
    }

    /// The pixels of a screendump that differ from `expected` (each as "(x,y): expected …, got …").
    static func differences(_ file: URL, _ expected: [Color], width: Int, height: Int) throws -> [String] {
        let screen = try PPM.decode([UInt8](try Data(contentsOf: file)))
        try #require(screen.width == width && screen.height == height, "\(file.lastPathComponent) is \(screen.width)x\(screen.height), not \(width)x\(height)")
        var found: [String] = []
        for (i, want) in expected.enumerated() {
            let got = Color(r: screen.bytes[i * 3], g: screen.bytes[i * 3 + 1], b: screen.bytes[i * 3 + 2])
            if got != want { found.append("(\(i % width),\(i / width)): expected \(want), got \(got)") }
        }
        return found
    }
}
