import Foundation
import Testing
@testable import Displays

/// `loaderd --restore-console` where there is nothing to put back: a machine without virtual
/// terminals (an LED-only board) is not an error, a path that cannot be a terminal is reported.
/// (On a real console: QemuFramebufferTests, after a loaderd killed with SIGKILL.)
@Suite struct ConsoleRestoreTests {
    @Test func noTerminalIsNothingToDo() throws {
        let dir = NSTemporaryDirectory() + "console-restore-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(ConsoleRestore.toText(path: dir + "/tty0") == .noTerminal, "a missing /dev/tty0")
        FileManager.default.createFile(atPath: dir + "/file", contents: Data([0]))
        #expect(ConsoleRestore.toText(path: dir + "/file") == .noTerminal, "not a terminal (ENOTTY)")
        guard case .failed(let why) = ConsoleRestore.toText(path: dir) else {
            Issue.record("a directory is not a terminal that could not be opened")
            return
        }
        #expect(why.hasPrefix("cannot open \(dir): "), "\(why)")
    }
}
