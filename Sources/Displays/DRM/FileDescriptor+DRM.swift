import CLinux
import LinuxSystem

// Typed wrappers over the DRM/KMS ioctls, in swift-system's manner: one `loaderd_drm_*` shim call
// each, errno as `Errno`, EINTR (and EAGAIN, which DRM returns when a signal interrupts a
// modeset lock wait) retried.

extension FileDescriptor {
    /// The ids of the card's CRTCs, connectors and encoders.
    ///
    /// The corresponding C call is `ioctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &res)`, twice.
    func drmResources() throws(Errno) -> (crtcs: [UInt32], connectors: [UInt32], encoders: [UInt32]) {
        // Counts first, then the ids; a hotplug between the calls can grow the counts: ask again.
        while true {
            var res = loaderd_drm_card_res()
            try retryingDRM { loaderd_drm_get_resources(rawValue, &res) }
            var crtcs = [UInt32](repeating: 0, count: Int(res.count_crtcs))
            var connectors = [UInt32](repeating: 0, count: Int(res.count_connectors))
            var encoders = [UInt32](repeating: 0, count: Int(res.count_encoders))
            let counts = (res.count_crtcs, res.count_connectors, res.count_encoders)
            res.count_fbs = 0
            try crtcs.withUnsafeMutableBufferPointer { c throws(Errno) in
                try connectors.withUnsafeMutableBufferPointer { k throws(Errno) in
                    try encoders.withUnsafeMutableBufferPointer { e throws(Errno) in
                        res.crtc_id_ptr = address(c.baseAddress)
                        res.connector_id_ptr = address(k.baseAddress)
                        res.encoder_id_ptr = address(e.baseAddress)
                        try retryingDRM { loaderd_drm_get_resources(rawValue, &res) }
                    }
                }
            }
            if (res.count_crtcs, res.count_connectors, res.count_encoders) == counts {
                return (crtcs, connectors, encoders)
            }
        }
    }

    /// A connector, its modes and its encoders. With `probe` the kernel asks the output again
    /// (reads its EDID: milliseconds); without, it answers what it last knew.
    ///
    /// The corresponding C call is `ioctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, &connector)`, twice.
    func drmConnector(_ id: UInt32, probe: Bool) throws(Errno) -> (info: loaderd_drm_connector, modes: [loaderd_drm_mode_info], encoders: [UInt32]) {
        while true {
            var info = loaderd_drm_connector()
            info.connector_id = id
            // A count of 0 makes the kernel probe: without `probe`, room for one mode is passed to
            // read the cache. One call either way (for size: each call carries its retry loop).
            var cached = loaderd_drm_mode_info()
            try withUnsafeMutablePointer(to: &cached) { m throws(Errno) in
                if !probe {
                    info.count_modes = 1
                    info.modes_ptr = address(m)
                }
                try retryingDRM { loaderd_drm_get_connector(rawValue, &info) }
            }
            let counts = (info.count_modes, info.count_encoders)
            var modes = [loaderd_drm_mode_info](repeating: loaderd_drm_mode_info(), count: Int(info.count_modes))
            var encoders = [UInt32](repeating: 0, count: Int(info.count_encoders))
            var again = info
            again.count_props = 0
            try modes.withUnsafeMutableBufferPointer { m throws(Errno) in
                try encoders.withUnsafeMutableBufferPointer { e throws(Errno) in
                    again.modes_ptr = address(m.baseAddress)
                    again.encoders_ptr = address(e.baseAddress)
                    try retryingDRM { loaderd_drm_get_connector(rawValue, &again) }
                }
            }
            if (again.count_modes, again.count_encoders) == counts { return (again, modes, encoders) }
        }
    }

    /// The corresponding C call is `ioctl(fd, DRM_IOCTL_MODE_GETENCODER, &encoder)`.
    func drmEncoder(_ id: UInt32) throws(Errno) -> loaderd_drm_encoder {
        var encoder = loaderd_drm_encoder()
        encoder.encoder_id = id
        try retryingDRM { loaderd_drm_get_encoder(rawValue, &encoder) }
        return encoder
    }

    /// What a CRTC shows now (to put it back at quit).
    ///
    /// The corresponding C call is `ioctl(fd, DRM_IOCTL_MODE_GETCRTC, &crtc)`.
    func drmCRTC(_ id: UInt32) throws(Errno) -> loaderd_drm_crtc {
        var crtc = loaderd_drm_crtc()
        crtc.crtc_id = id
        try retryingDRM { loaderd_drm_get_crtc(rawValue, &crtc) }
        return crtc
    }

    /// Shows framebuffer `fb` (0: turns the CRTC off) on `connectors` in `mode`.
    ///
    /// The corresponding C call is `ioctl(fd, DRM_IOCTL_MODE_SETCRTC, &crtc)`.
    func setDRMCRTC(_ id: UInt32, framebuffer fb: UInt32, connectors: [UInt32], mode: loaderd_drm_mode_info?) throws(Errno) {
        var ids = connectors
        try ids.withUnsafeMutableBufferPointer { c throws(Errno) in
            var crtc = loaderd_drm_crtc()
            crtc.crtc_id = id
            crtc.fb_id = fb
            if let mode, fb != 0 {
                crtc.set_connectors_ptr = address(c.baseAddress)
                crtc.count_connectors = UInt32(c.count)
                crtc.mode = mode
                crtc.mode_valid = 1
            }
            try retryingDRM { loaderd_drm_set_crtc(rawValue, &crtc) }
        }
    }

    /// Asks for a flip completion event on this descriptor when `fb` is on screen.
    ///
    /// The corresponding C call is `ioctl(fd, DRM_IOCTL_MODE_PAGE_FLIP, &flip)`.
    func drmPageFlip(crtc: UInt32, framebuffer fb: UInt32, userData: UInt64) throws(Errno) {
        var flip = loaderd_drm_page_flip(crtc_id: crtc, fb_id: fb, flags: loaderd_drm_page_flip_event, reserved: 0, user_data: userData)
        try retryingDRM { loaderd_drm_page_flip(rawValue, &flip) }
    }

    /// Tells the driver which part of a front buffer changed.
    ///
    /// The corresponding C call is `ioctl(fd, DRM_IOCTL_MODE_DIRTYFB, &dirty)`.
    func drmDirty(framebuffer fb: UInt32, x: Int, y: Int, width: Int, height: Int) throws(Errno) {
        var clip = loaderd_drm_clip_rect(x1: UInt16(x), y1: UInt16(y), x2: UInt16(x + width), y2: UInt16(y + height))
        try withUnsafeMutablePointer(to: &clip) { p throws(Errno) in
            var dirty = loaderd_drm_fb_dirty(fb_id: fb, flags: 0, color: 0, num_clips: 1, clips_ptr: address(p))
            try retryingDRM { loaderd_drm_dirty_fb(rawValue, &dirty) }
        }
    }

    /// The corresponding C call is `ioctl(fd, DRM_IOCTL_GET_CAP, &cap)`.
    func drmCapability(_ capability: UInt64) throws(Errno) -> UInt64 {
        var value: UInt64 = 0
        try retryingDRM { loaderd_drm_get_cap(rawValue, capability, &value) }
        return value
    }

    /// The corresponding C call is `ioctl(fd, DRM_IOCTL_SET_MASTER)`.
    func setDRMMaster() throws(Errno) { try retryingDRM { loaderd_drm_set_master(rawValue) } }

    /// The corresponding C call is `ioctl(fd, DRM_IOCTL_DROP_MASTER)`.
    func dropDRMMaster() throws(Errno) { try retryingDRM { loaderd_drm_drop_master(rawValue) } }
}

/// A pointer as the kernel's `__u64` field.
@inline(__always)
func address<T>(_ p: UnsafeMutablePointer<T>?) -> UInt64 { UInt64(UInt(bitPattern: p)) }

/// Calls `body` until it does not fail with EINTR or EAGAIN; any other failure throws its errno.
@inline(__always)
func retryingDRM(_ body: () -> Int32) throws(Errno) {
    while true {
        if body() != -1 { return }
        let e = errno
        if e == EINTR || e == EAGAIN { continue }
        throw Errno(rawValue: e)
    }
}
