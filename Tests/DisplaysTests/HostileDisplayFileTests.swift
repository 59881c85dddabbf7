import CLinux
import Foundation
import Raster
import Testing
@testable import Displays

/// A small tmpfs (root only): `size` bytes, unmounted when released. Full-disk tests run here.
final class SmallFileSystem {
    let path: String
    init?(size: String = "64k") {
        guard geteuid() == 0 else { return nil }
        path = FileManager.default.temporaryDirectory.appendingPathComponent("loaderd-tmpfs-\(UUID().uuidString.prefix(8))").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard mount("tmpfs", path, "tmpfs", 0, "size=\(size)") == 0 else { rmdir(path); return nil }
    }
    /// Fills what is left with a file (removed with `release()`).
    func fill() {
        let fd = open(path + "/filler", O_WRONLY | O_CREAT, 0o600)
        let block = [UInt8](repeating: 1, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        close(fd)
    }
    func release() { unlink(path + "/filler") }
    deinit { umount2(path, 2 /* MNT_DETACH */); rmdir(path) }
}

let rootOnly = "needs root to mount a 64 KiB tmpfs (mount -t tmpfs -o size=64k)"

/// Files the displays write through, when something else has put a trap there: a symlink, a FIFO,
/// a full file system, a file cut short while mapped.
@Suite struct HostileDisplayFileTests {
    func openError(_ spec: String) -> String? {
        do { _ = try openFramebuffer(spec); return nil } catch { return "\(error)" }
    }

    func canvas(_ color: Color, width: Int = 8, height: Int = 8) -> Canvas {
        var c = Canvas(width: width, height: height)
        c.clear(to: color)
        return c
    }

    @Test func aStandInReachedThroughASymlinkIsRefusedAndItsTargetUntouched() throws {
        let target = ScratchFile("target", prefill: [])
        let link = ScratchFile("link")
        #expect(symlink(target.path, link.path) == 0)
        let error = openError("fb:device=\(link.path),geometry=8x8,format=xrgb8888")
        #expect(error?.contains("symbolic link") == true, "\(error ?? "opened")")
        #expect(target.bytes.isEmpty, "the link's target was written")
    }

    @Test func aStandInThatIsAFIFOIsRefusedWithoutBlocking() throws {
        let fifo = ScratchFile("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let error = openError("fb:device=\(fifo.path),geometry=8x8,format=xrgb8888")
        #expect(error?.contains("a FIFO") == true, "\(error ?? "opened")")
    }

    /// The file shrinks under the mapping: drawing must neither fault (SIGBUS) nor leave the frame
    /// half gone. The file is grown back and the frame drawn whole.
    @Test func aStandInTruncatedWhileShownIsGrownBackAndRedrawn() throws {
        let file = ScratchFile()
        let display = try openFramebuffer("fb:device=\(file.path),geometry=8x8,format=xrgb8888,scale=1,console=keep")
        try display.show(canvas(.white))
        #expect(truncate(file.path, 0) == 0)
        try display.show(canvas(.white))  // the same picture: only a redraw puts it back
        let bytes = file.bytes
        #expect(bytes.count == 8 * 8 * 4)
        #expect(bytes.count == 256 && bytes[0] == 0xFF && bytes[254] == 0xFF, "the frame was not redrawn whole")  // first blue, last red
        try display.clear()
    }

    @Test(.enabled(if: geteuid() == 0, Comment(rawValue: rootOnly)))
    func aStandInOnAFullFileSystemIsRefusedAtOpen() throws {
        guard let fs = SmallFileSystem() else { Issue.record("mount tmpfs failed"); return }
        // 200x200 xrgb8888 is 160,000 bytes: more than the file system holds. A sparse file would
        // have been mapped and the first frame would have raised SIGBUS.
        let error = openError("fb:device=\(fs.path)/fb.raw,geometry=200x200,format=xrgb8888,console=keep")
        #expect(error?.contains("cannot reserve 160000 bytes") == true, "\(error ?? "opened")")
        #expect(error?.contains("No space left on device") == true)
    }

    @Test(.enabled(if: geteuid() == 0, Comment(rawValue: rootOnly)))
    func aStandInThatCannotBeGrownBackIsNotDrawnInto() throws {
        guard let fs = SmallFileSystem() else { Issue.record("mount tmpfs failed"); return }
        let display = try openFramebuffer("fb:device=\(fs.path)/fb.raw,geometry=64x64,format=xrgb8888,scale=1,console=keep")
        #expect(truncate(fs.path + "/fb.raw", 0) == 0)
        fs.fill()
        #expect(throws: DisplayError.self) { try display.show(canvas(.white, width: 64, height: 64)) }
        fs.release()
        try display.show(canvas(.white, width: 64, height: 64))
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: fs.path + "/fb.raw"))) ?? Data()
        #expect(bytes.count == 64 * 64 * 4 && bytes[bytes.count - 2] == 0xFF, "the frame is not on the file")  // the last pixel's red
    }

    /// One failed write (ENOSPC) must not make the display believe the file holds the frame:
    /// the same frame shown again is written once there is room.
    @Test(.enabled(if: geteuid() == 0, Comment(rawValue: rootOnly)))
    func anImageWriteThatFailedIsDoneAgainOnTheNextFrame() throws {
        guard let fs = SmallFileSystem() else { Issue.record("mount tmpfs failed"); return }
        let path = fs.path + "/frame.ppm"
        let display = try ImageDisplay.open(DisplaySpec(parsing: "image:path=\(path),size=16x16"))
        fs.fill()
        #expect(throws: DisplayError.self) { try display.show(canvas(.white, width: 16, height: 16)) }
        fs.release()
        try display.show(canvas(.white, width: 16, height: 16))
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        #expect(bytes.count > 16 * 16 * 3 && bytes.last == 0xFF, "the file does not hold the frame")
        #expect(display.writes == 1)
    }

    @Test func aFIFOAtTheImageTemporaryPathIsRefusedNotWaitedOn() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("loaderd-img-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let display = try ImageDisplay.open(DisplaySpec(parsing: "image:path=\(dir)/frame.ppm,size=8x8"))
        #expect(mkfifo(dir + "/.frame.ppm.tmp", 0o600) == 0)
        // A reader on the FIFO too, so that open(2) itself would succeed and the type check is what refuses.
        let reader = open(dir + "/.frame.ppm.tmp", O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        do { try display.show(canvas(.white)); Issue.record("written into a FIFO") } catch {
            #expect(error.message.contains("a FIFO"), "\(error)")
        }
        unlink(dir + "/.frame.ppm.tmp")
        try display.show(canvas(.white))
        #expect(FileManager.default.fileExists(atPath: dir + "/frame.ppm"))
    }
}
