import CLinux
import Foundation
import Testing
@testable import Displays

@Suite struct FramebufferErrorTests {
    func openError(_ spec: String) -> DisplayOpenError? {
        do { _ = try FramebufferDisplay.open(DisplaySpec(parsing: spec), warn: { _ in }); return nil }
        catch let e as DisplayOpenError { return e }
        catch { Issue.record("unexpected \(error)"); return nil }
    }

    @Test func missingDeviceSaysWhatToTry() {
        guard case .device(let e)? = openError("fb:device=/dev/fb-loaderd-missing") else { Issue.record("expected a device error"); return }
        #expect(e.display == "fb:/dev/fb-loaderd-missing")
        #expect(e.message.hasPrefix("cannot open /dev/fb-loaderd-missing: No such file or directory (is the display driver loaded?"))
    }

    @Test func permissionDeniedNamesTheGroup() throws {
        let file = ScratchFile(prefill: [0])
        var group = Glibc.group(), result: UnsafeMutablePointer<Glibc.group>? = nil
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getgrnam_r("video", &group, &buffer, buffer.count, &result) == 0, result != nil else { return }  // no group video here
        #expect(chown(file.path, 0, group.gr_gid) == 0)
        let message = FramebufferDisplay.openFailure(path: file.path, .permissionDenied, isFile: false)
        #expect(message.hasSuffix("Permission denied (the device belongs to group video: add the user to group video, e.g. usermod -aG video USER, and log in again)"))
    }

    @Test func notAFramebuffer() {
        guard case .device(let e)? = openError("fb:device=/dev/null") else { Issue.record("expected a device error"); return }
        #expect(e.message.contains("/dev/null is not a framebuffer"))
        #expect(e.message.contains("geometry="))
    }

    @Test func unsupportedFormatNamesTheLayout() {
        var info = fb_var_screeninfo()
        info.bits_per_pixel = 16
        info.red = fb_bitfield(offset: 10, length: 5, msb_right: 0)
        info.green = fb_bitfield(offset: 5, length: 5, msb_right: 0)
        info.blue = fb_bitfield(offset: 0, length: 5, msb_right: 0)
        info.transp = fb_bitfield(offset: 15, length: 1, msb_right: 0)
        var fix = fb_fix_screeninfo()
        fix.visual = UInt32(FB_VISUAL_TRUECOLOR)
        guard case .failure(let e) = FramebufferPixelFormat.resolve(info, fix) else { Issue.record("ARGB1555 accepted"); return }
        #expect(e.description.hasPrefix("unsupported pixel format: 16 bpp, red 10:5 green 5:5 blue 0:5 transp 15:1; supported: rgb565, bgr565"))

        info.bits_per_pixel = 8
        fix.visual = UInt32(FB_VISUAL_PSEUDOCOLOR)
        guard case .failure(let e8) = FramebufferPixelFormat.resolve(info, fix) else { Issue.record("8 bpp accepted"); return }
        #expect(e8.description.contains("8 bpp") && e8.description.contains("visual 3 (not truecolor)"))
    }

    @Test(arguments: [
        ("fb:color=red", "unknown key 'color' (accepted: device, size, scale"),
        ("fb:rotate=45", "rotate=45: expected 0, 90, 180 or 270"),
        ("fb:anchor=middle", "anchor=middle: expected one of center, top, bottom"),
        ("fb:scale=0", "scale=0: expected a whole number from 1 to 256"),
        ("fb:size=64", "size=64: expected WIDTHxHEIGHT"),
        // Sizes are two runs of digits around one x: no sign, no doubled or trailing x.
        ("fb:size=+64x32", "size=+64x32: expected WIDTHxHEIGHT"),
        ("fb:size=64xx32", "size=64xx32: expected WIDTHxHEIGHT"),
        ("fb:size=64x32x", "size=64x32x: expected WIDTHxHEIGHT"),
        ("fb:size=1234567890x2", "size=1234567890x2: expected WIDTHxHEIGHT"),
        ("fb:console=off", "console=off: expected graphics"),
        ("fb:vsync=maybe", "vsync=maybe: expected on or off"),
        ("fb:background=mauve", "background=mauve: invalid colour 'mauve'"),
        ("fb:device=/tmp/x,geometry=10x10", "geometry= needs format= too"),
        ("fb:device=/tmp/x,geometry=10x10,format=rgb555", "format=rgb555: expected one of rgb565, bgr565"),
        ("fb:format=rgb565", "format= only applies with geometry="),
        ("fb:device=/tmp/x,geometry=10x10,format=rgb565,stride=10", "stride=10 is shorter than a row of 10 pixels at 16 bpp (20 bytes)"),
    ])
    func badKeysNameTheKeyAndWhatIsAccepted(_ spec: String, _ expected: String) {
        guard case .spec(let e)? = openError(spec) else { Issue.record("expected a spec error for \(spec)"); return }
        #expect(e.message.hasPrefix(expected), "\(e.message)")
    }

    @Test func canvasThatDoesNotFitIsRefused() {
        let file = ScratchFile()
        guard case .spec(let e)? = openError("fb:device=\(file.path),geometry=100x50,format=rgb565,size=64x16,scale=2") else {
            Issue.record("expected a spec error"); return
        }
        #expect(e.message.contains("leaves the 100x50 screen"))
        guard case .spec(let big)? = openError("fb:device=\(file.path),geometry=100x50,format=rgb565,size=128x16") else {
            Issue.record("expected a spec error"); return
        }
        #expect(big.message.contains("larger than the screen"))
    }

    @Test func closeIsIdempotentAndShowAfterCloseFails() throws {
        let file = ScratchFile()
        let display = try openFramebuffer("fb:device=\(file.path),geometry=8x8,format=rgb565,size=2x2")
        display.close()
        display.close()
        #expect(throws: DisplayError.self) { try display.show(distinctCanvas(width: 2, height: 2)) }
    }
}
