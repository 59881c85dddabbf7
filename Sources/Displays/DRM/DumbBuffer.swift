import CLinux
import LinuxSystem
import CompactText
import ScreenEncoding

/// A dumb buffer: CPU-mapped memory the display engine can scan out, with a framebuffer object
/// over it. Created and mapped once at open; deinit unmaps, removes the framebuffer and frees
/// the buffer. The card's descriptor is borrowed, not owned. (A class rather than a `~Copyable`
/// struct: the display holds one or two, optionally, and drops them in a chosen order.)
final class DumbBuffer {
    let card: FileDescriptor
    let handle: UInt32
    let framebuffer: UInt32
    let pitch: Int
    let size: Int
    let base: UnsafeMutableRawPointer
    /// Whether deinit leaves the framebuffer up (DRM_IOCTL_MODE_CLOSEFB) rather than removing it.
    private var keepsFramebuffer = false

    /// Creates a `width × height` buffer in `format` (32 bpp: XRGB8888, 16 bpp: RGB565).
    init(card: FileDescriptor, width: Int, height: Int, format: FramebufferPixelFormat) throws(DumbBufferError) {
        var create = loaderd_drm_create_dumb()
        create.width = UInt32(width); create.height = UInt32(height); create.bpp = UInt32(format.bitsPerPixel)
        do { try retryingDRM { loaderd_drm_create_dumb(card.rawValue, &create) } } catch {
            throw DumbBufferError(filled("cannot create a {}x{} {} bpp dumb buffer (DRM_IOCTL_MODE_CREATE_DUMB: {})", String(width), String(height), String(format.bitsPerPixel), error.description))
        }
        var fb = loaderd_drm_fb_cmd(fb_id: 0, width: UInt32(width), height: UInt32(height), pitch: create.pitch,
                                    bpp: UInt32(format.bitsPerPixel), depth: format.bitsPerPixel == 32 ? 24 : 16, handle: create.handle)
        do { try retryingDRM { loaderd_drm_add_fb(card.rawValue, &fb) } } catch {
            _ = loaderd_drm_destroy_dumb(card.rawValue, create.handle)
            throw DumbBufferError(filled("the driver refused a {} framebuffer at {} bpp (DRM_IOCTL_MODE_ADDFB: {}); try format={}", filled("{}x{}", String(width), String(height)), String(format.bitsPerPixel), error.description, format.bitsPerPixel == 32 ? "rgb565" : "xrgb8888"))
        }
        var map = loaderd_drm_map_dumb()
        map.handle = create.handle
        let mapped: UnsafeMutableRawPointer?
        do {
            try retryingDRM { loaderd_drm_map_dumb(card.rawValue, &map) }
            mapped = loaderd_drm_map(card.rawValue, Int(create.size), map.offset)
        } catch {
            mapped = nil
        }
        guard let mapped else {
            let e = Errno.current
            _ = loaderd_drm_remove_fb(card.rawValue, fb.fb_id)
            _ = loaderd_drm_destroy_dumb(card.rawValue, create.handle)
            throw DumbBufferError(filled("cannot map the dumb buffer ({})", e.description))
        }
        self.card = card
        handle = create.handle
        framebuffer = fb.fb_id
        pitch = Int(create.pitch)
        size = Int(create.size)
        base = mapped
    }

    /// Leaves this buffer's picture on screen after exit (Linux 6.8+: DRM_IOCTL_MODE_CLOSEFB).
    /// Returns false when the kernel cannot: then the picture goes when the card is closed.
    func keepOnScreen() -> Bool {
        keepsFramebuffer = loaderd_drm_close_fb(card.rawValue, framebuffer) == 0
        return keepsFramebuffer
    }

    deinit {
        munmap(base, size)
        if !keepsFramebuffer { _ = loaderd_drm_remove_fb(card.rawValue, framebuffer) }
        _ = loaderd_drm_destroy_dumb(card.rawValue, handle)
    }
}

struct DumbBufferError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
