import CLinux
import LinuxSystem
import CompactText

/// Why a card could not be opened, with what to do about it.
func drmOpenHint(path: String, _ error: Errno) -> String {
    var message = filled("cannot open {}: {}", path, error.description)
    switch error {
    case .noSuchFileOrDirectory:
        if let other = drmCardPaths().first(where: { $0 != path }) {
            message += filled(" (try device={} or device=auto)", other)
        } else {
            message += " (no /dev/dri/card* exists: is the display driver loaded? on a Raspberry Pi: dtoverlay=vc4-kms-v3d; else try --display fb:)"
        }
    case .permissionDenied, .notPermitted:
        var st = stat()
        if stat(path, &st) == 0, st.st_gid != 0, let group = GroupFile.name(of: st.st_gid) {
            message += filled(" (the device belongs to group {}: add the user to it, e.g. usermod -aG {} USER, and log in again; mode setting also needs DRM master, which a non-root user only gets when no one else holds it)", group, group)
        } else {
            message += " (run as root, or add the user to group video; /dev/dri/renderD* needs group render but cannot set modes)"
        }
    default: break
    }
    return message
}

/// Why DRM master could not be taken: names the holder when debugfs shows it (root, debugfs
/// mounted), else the usual suspects.
func drmMasterHint(path: String, _ error: Errno) -> String {
    var message = filled("cannot become DRM master on {} ({}): ", path, error.description)
    if error == .permissionDenied || error == .notPermitted {
        return message + "loaderd is not root and did not open the card first (a non-root program only becomes master as the first to open it); run loaderd as root (CAP_SYS_ADMIN), or start it before the display server"
    }
    if let holder = drmMasterHolder(path: path) {
        message += holder + " holds it"
    } else {
        message += "another program holds it (a display server, a Wayland compositor, plymouthd or a getty on a DRM console)"
    }
    return message + "; stop it (e.g. systemctl stop display-manager plymouth-quit-wait), or use --display fb: on its framebuffer"
}

/// `command (pid N)` of the master client listed in /sys/kernel/debug/dri/N/clients.
func drmMasterHolder(path: String) -> String? {
    guard let file = path.split(separator: "/").last, file.hasPrefix("card"), let minor = Int(file[file.utf8.index(file.startIndex, offsetBy: 4)...]) else { return nil }
    guard let text = readSmallFile(filled("/sys/kernel/debug/dri/{}/clients", String(minor))) else { return nil }
    return masterClient(text)
}

/// The master client's `command (pid N)` in the text of a debugfs `clients` file. Columns:
/// command tgid dev master a uid magic; master is "y" for the master client. Read on the bytes
/// in one pass, as a split into lines and then into columns would read them: the first line (the
/// header) skipped, empty lines and runs of spaces counting for nothing (for size: no arrays of
/// substrings).
func masterClient(_ text: ArraySlice<UInt8>) -> String? {
    var lines = 0, columns = 0, start = -1, lineHasBytes = false, isMaster = false
    var command = 0..<0, pid = 0..<0
    for i in text.startIndex...text.endIndex {
        let byte = i < text.endIndex ? text[i] : UInt8(ascii: "\n")
        if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\n") {
            if start < 0 { start = i }
        } else if start >= 0 {
            if columns == 0 { command = start..<i } else if columns == 1 { pid = start..<i }
            if columns == 3 { isMaster = i - start == 1 && text[start] == UInt8(ascii: "y") }
            columns += 1
            start = -1
        }
        if byte != UInt8(ascii: "\n") {
            lineHasBytes = true
        } else if lineHasBytes {
            if lines > 0 && isMaster {
                return filled("{} (pid {})", String(decoding: text[command], as: UTF8.self), String(decoding: text[pid], as: UTF8.self))
            }
            lines += 1
            columns = 0; isMaster = false; lineHasBytes = false
        }
    }
    return nil
}

/// The first 8 KB of a small file (sysfs, debugfs), or nil.
func readSmallFile(_ path: String) -> ArraySlice<UInt8>? {
    guard let fd = try? FileDescriptor.openDevice(path, .readOnly, options: [.closeOnExec]) else { return nil }
    defer { try? fd.close() }
    var bytes = [UInt8](repeating: 0, count: 8192)
    let n = bytes.withUnsafeMutableBytes { (b: UnsafeMutableRawBufferPointer) -> Int in (try? fd.read(into: b)) ?? 0 }
    guard n > 0 else { return nil }
    return bytes[0..<n]
}
