import CLinux
import LinuxSystem
import CompactText

extension FramebufferDisplay {
    /// The message for a failed open(2) of the device or stand-in: what to do about it.
    static func openFailure(path: String, _ error: Errno, isFile: Bool) -> String {
        var message = filled("cannot open {}: {}", path, error.description)
        switch error {
        case .tooManySymbolicLinkLevels where isFile:
            message = filled("cannot open {}: it is a symbolic link; a stand-in file is never reached through one (give the file's own path)", path)
        case .noSuchFileOrDirectory:
            if isFile {
                message += " (does the directory exist?)"
            } else {
                // The first other /dev/fbN that exists, by a plain loop (a map and a filter were
                // each a specialisation of their own, for this one message).
                var other: String?
                for n in 0..<8 where other == nil {
                    let p = filled("/dev/fb{}", String(n))
                    if p != path && access(p, F_OK) == 0 { other = p }
                }
                if let other {
                    message += filled(" (is the display driver loaded? try device={})", other)
                } else {
                    message += " (is the display driver loaded? no /dev/fb* exists; for a file give geometry= and format=)"
                }
            }
        case .permissionDenied, .notPermitted:
            var st = stat()
            if stat(path, &st) == 0, let group = GroupFile.name(of: st.st_gid), st.st_gid != 0 {
                message += filled(" (the device belongs to group {}: add the user to group {}, e.g. usermod -aG {} USER, and log in again)", group, group, group)
            } else {
                message += filled(" (run as root, or give the user read-write access to {}; on most systems: add the user to group video)", path)
            }
        default: break
        }
        return message
    }
}
