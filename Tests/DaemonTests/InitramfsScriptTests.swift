import Foundation
import Testing

/// initramfs-tools' `init-top/loaderd`, run as the initramfs runs it: by a busybox shell, in a
/// root of its own (chroot), with the initramfs's paths. loaderd there is a stand-in that records
/// its arguments: what is checked is whether the script starts the splash, and how.
@Suite struct InitramfsScriptTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../initramfs/initramfs-tools/scripts/init-top/loaderd").standardized.path

    /// A root with /bin/sh and the applets the script uses, the kernel command line, and the
    /// stand-in loaderd; `crypttab`: cryptsetup-initramfs's table of volumes to unlock.
    func run(cmdline: String, crypttab: Bool) throws -> (started: Bool, log: String) {
        let root = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fm = FileManager.default
        for dir in ["bin", "dev", "proc", "run", "etc/loaderd", "cryptroot"] {
            try fm.createDirectory(atPath: root + "/" + dir, withIntermediateDirectories: true)
        }
        // Not copied by this process ("chroot: failed to run command '/bin/sh': Text file busy",
        // seen 1 Dec): Paths.installProgram says why.
        try Paths.installProgram("/bin/busybox", at: root + "/bin/busybox")
        for applet in ["sh", "cat", "mkdir", "echo"] {
            try fm.createSymbolicLink(atPath: root + "/bin/" + applet, withDestinationPath: "busybox")
        }
        // The shell gives a background job /dev/null as its input (major 1, minor 3).
        #expect(mknod(root + "/dev/null", S_IFCHR | 0o666, 259) == 0)
        try cmdline.write(toFile: root + "/proc/cmdline", atomically: true, encoding: .utf8)
        if crypttab { try "cryptroot UUID=0 none luks\n".write(toFile: root + "/cryptroot/crypttab", atomically: true, encoding: .utf8) }
        try "#!/bin/sh\necho \"$@\" > /run/started\n".write(toFile: root + "/loaderd.sh", atomically: true, encoding: .utf8)
        try Paths.installProgram(root + "/loaderd.sh", at: root + "/bin/loaderd")
        try fm.copyItem(atPath: Self.script, toPath: root + "/init-top-loaderd")  // read by sh, not executed
        let run = try Spawned("/usr/sbin/chroot", [root, "/bin/sh", "/init-top-loaderd"], logPath: root + "/log")
        #expect(try run.wait() == 0, "\(run.log)")
        usleep(100_000)  // the script starts loaderd in the background
        let started = (try? String(contentsOfFile: root + "/run/started", encoding: .utf8)) ?? ""
        return (!started.isEmpty, started)
    }

    static var canRun: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/busybox") && FileManager.default.fileExists(atPath: "/usr/sbin/chroot")
    }

    @Test func itStartsTheSplashWithThePidFile() throws {
        guard Self.canRun else { return }
        let r = try run(cmdline: "root=/dev/vda quiet splash\n", crypttab: false)
        #expect(r.started)
        #expect(r.log.contains("--config /etc/loaderd/loaderd.toml --pid-file /run/loaderd/initramfs.pid"), "\(r.log)")
    }

    @Test(arguments: ["nosplash", "plymouth.enable=0", "loaderd.enable=0"])
    func aKernelSwitchSkipsIt(_ word: String) throws {
        guard Self.canRun else { return }
        #expect(try !run(cmdline: "root=/dev/vda \(word)\n", crypttab: false).started)
    }

    /// The passphrase prompt is Plymouth's or the console's: loaderd would take Plymouth's socket
    /// from plymouthd and cover the console's prompt with its frames.
    @Test func encryptedVolumesToUnlockLeaveTheScreenToTheirPrompt() throws {
        guard Self.canRun else { return }
        #expect(try !run(cmdline: "root=/dev/mapper/cryptroot splash\n", crypttab: true).started)
    }
}
