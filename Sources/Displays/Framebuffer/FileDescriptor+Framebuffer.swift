import CLinux
import LinuxSystem

// Typed wrappers over the fbdev and console ioctls, in swift-system's manner: a public throwing
// method over one `loaderd_*` shim call, errno turned into `Errno`, EINTR retried explicitly.

extension FileDescriptor {
    /// `FileDescriptor.open` of a display's device, a card's or a terminal's path, out of line:
    /// inlined, its C-string conversion was code of its own at each of the displays' opens (for size).
    @inline(never) static func openDevice(_ path: String, _ mode: AccessMode, options: OpenOptions,
                                          permissions: FilePermissions? = nil) throws(Errno) -> FileDescriptor {
        try open(FilePath(path), mode, options: options, permissions: permissions)
    }

    /// The variable screen information: resolution, virtual size, bits per pixel, bitfields.
    ///
    /// The corresponding C call is `ioctl(fd, FBIOGET_VSCREENINFO, &var)`.
    func framebufferVariableInfo() throws(Errno) -> fb_var_screeninfo {
        var info = fb_var_screeninfo()
        try retryingInterrupts { loaderd_fb_get_var(rawValue, &info) }
        return info
    }

    /// The fixed screen information: memory length and the stride (`line_length`).
    ///
    /// The corresponding C call is `ioctl(fd, FBIOGET_FSCREENINFO, &fix)`.
    func framebufferFixedInfo() throws(Errno) -> fb_fix_screeninfo {
        var info = fb_fix_screeninfo()
        try retryingInterrupts { loaderd_fb_get_fix(rawValue, &info) }
        return info
    }

    /// Sets the mode; the driver may adjust `info` to what it can do (read back the result).
    ///
    /// The corresponding C call is `ioctl(fd, FBIOPUT_VSCREENINFO, &var)`.
    func setFramebufferVariableInfo(_ info: inout fb_var_screeninfo) throws(Errno) {
        try retryingInterrupts { loaderd_fb_put_var(rawValue, &info) }
    }

    /// Shows the part of the virtual screen at `info.xoffset`, `info.yoffset`.
    ///
    /// The corresponding C call is `ioctl(fd, FBIOPAN_DISPLAY, &var)`.
    func panFramebuffer(_ info: inout fb_var_screeninfo) throws(Errno) {
        try retryingInterrupts { loaderd_fb_pan(rawValue, &info) }
    }

    /// Waits for the next vertical blank of CRTC 0.
    ///
    /// The corresponding C call is `ioctl(fd, FBIO_WAITFORVSYNC, &crtc)`.
    func waitForVerticalSync() throws(Errno) {
        try retryingInterrupts { loaderd_fb_wait_for_vsync(rawValue) }
    }

    /// The console mode, `KD_TEXT` or `KD_GRAPHICS`.
    ///
    /// The corresponding C call is `ioctl(fd, KDGETMODE, &mode)`.
    func consoleMode() throws(Errno) -> Int32 {
        var mode: Int32 = 0
        try retryingInterrupts { loaderd_kd_get_mode(rawValue, &mode) }
        return mode
    }

    /// Sets the console mode.
    ///
    /// The corresponding C call is `ioctl(fd, KDSETMODE, mode)`.
    func setConsoleMode(_ mode: Int32) throws(Errno) {
        try retryingInterrupts { loaderd_kd_set_mode(rawValue, mode) }
    }
}

/// Calls `body` until it does not fail with EINTR; any other failure throws its errno.
@inline(__always)
private func retryingInterrupts(_ body: () -> Int32) throws(Errno) {
    while true {
        if body() != -1 { return }
        let e = errno
        if e == EINTR { continue }
        throw Errno(rawValue: e)
    }
}
