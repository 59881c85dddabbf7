#ifndef LOADERD_DRM_H
#define LOADERD_DRM_H
// DRM/KMS ioctls for the `drm` display: mode setting with dumb buffers, page flips, dirty
// rectangles and DRM master. Raw ioctls rather than libdrm (README, "Dependencies"): a dozen
// calls, no allocation behind our back, and nothing to link on any board.
//
// The structs are the kernel's UAPI (include/uapi/drm/drm.h, drm_mode.h), declared here under
// `loaderd_` names because Debian's amd64 linux-libc-dev does not install <drm/*.h> (libdrm-dev
// does); drm.c checks every size and offset against the kernel ABI at build time.
// Every function returns ioctl's result: 0 on success, -1 with errno set.

#include <stdint.h>
#include <stddef.h>

/// DRM_IOCTL_MODE_GETRESOURCES: the card's CRTCs, connectors and encoders (two calls: counts, then ids).
struct loaderd_drm_card_res {
    uint64_t fb_id_ptr, crtc_id_ptr, connector_id_ptr, encoder_id_ptr;
    uint32_t count_fbs, count_crtcs, count_connectors, count_encoders;
    uint32_t min_width, max_width, min_height, max_height;
};

/// struct drm_mode_modeinfo: one display timing.
struct loaderd_drm_mode_info {
    uint32_t clock;
    uint16_t hdisplay, hsync_start, hsync_end, htotal, hskew;
    uint16_t vdisplay, vsync_start, vsync_end, vtotal, vscan;
    uint32_t vrefresh;
    uint32_t flags;
    uint32_t type;
    char name[32];
};

/// DRM_IOCTL_MODE_GETCONNECTOR. With count_modes == 0 the kernel probes the output (reads EDID):
/// slow, done at open and when re-probing after a failure, never per frame.
struct loaderd_drm_connector {
    uint64_t encoders_ptr, modes_ptr, props_ptr, prop_values_ptr;
    uint32_t count_modes, count_props, count_encoders;
    uint32_t encoder_id, connector_id, connector_type, connector_type_id;
    uint32_t connection, mm_width, mm_height, subpixel;
    uint32_t pad;
};

/// DRM_IOCTL_MODE_GETENCODER: which CRTCs an encoder can feed (possible_crtcs is a bit per CRTC index).
struct loaderd_drm_encoder {
    uint32_t encoder_id, encoder_type, crtc_id, possible_crtcs, possible_clones;
};

/// DRM_IOCTL_MODE_GETCRTC / SETCRTC: what a CRTC scans out, in which mode, to which connectors.
struct loaderd_drm_crtc {
    uint64_t set_connectors_ptr;
    uint32_t count_connectors;
    uint32_t crtc_id, fb_id, x, y, gamma_size, mode_valid;
    struct loaderd_drm_mode_info mode;
};

/// DRM_IOCTL_MODE_CREATE_DUMB: a CPU-mapped scanout buffer; the kernel chooses pitch and size.
struct loaderd_drm_create_dumb {
    uint32_t height, width, bpp, flags;
    uint32_t handle, pitch;
    uint64_t size;
};

/// DRM_IOCTL_MODE_MAP_DUMB: the mmap offset of a dumb buffer on the card's descriptor.
struct loaderd_drm_map_dumb { uint32_t handle, pad; uint64_t offset; };

/// DRM_IOCTL_MODE_ADDFB: a framebuffer over a buffer, format by bpp/depth (32/24 = XRGB8888,
/// 16/16 = RGB565), which every KMS driver accepts.
struct loaderd_drm_fb_cmd { uint32_t fb_id, width, height, pitch, bpp, depth, handle; };

/// DRM_IOCTL_MODE_PAGE_FLIP: show another framebuffer at the next vertical blank.
struct loaderd_drm_page_flip { uint32_t crtc_id, fb_id, flags, reserved; uint64_t user_data; };

/// DRM_IOCTL_MODE_DIRTYFB: tell a manual-update driver (SPI panels, USB displays) what changed.
struct loaderd_drm_clip_rect { uint16_t x1, y1, x2, y2; };
struct loaderd_drm_fb_dirty { uint32_t fb_id, flags, color, num_clips; uint64_t clips_ptr; };

/// DRM_IOCTL_GET_CAP.
struct loaderd_drm_get_cap { uint64_t capability, value; };

/// The events read from the card's descriptor; a flip completion is a vblank event.
struct loaderd_drm_event { uint32_t type, length; };
struct loaderd_drm_event_vblank {
    struct loaderd_drm_event base;
    uint64_t user_data;
    uint32_t tv_sec, tv_usec, sequence, crtc_id;
};

// Why each: the request numbers are `DRM_IOWR('d', nr, struct)` macros Swift cannot import, and
// a typed argument per call keeps the Swift side type-checked.
int loaderd_drm_get_resources(int fd, struct loaderd_drm_card_res *res);
int loaderd_drm_get_connector(int fd, struct loaderd_drm_connector *connector);
int loaderd_drm_get_encoder(int fd, struct loaderd_drm_encoder *encoder);
int loaderd_drm_get_crtc(int fd, struct loaderd_drm_crtc *crtc);
int loaderd_drm_set_crtc(int fd, struct loaderd_drm_crtc *crtc);
int loaderd_drm_create_dumb(int fd, struct loaderd_drm_create_dumb *create);
int loaderd_drm_map_dumb(int fd, struct loaderd_drm_map_dumb *map);
int loaderd_drm_destroy_dumb(int fd, uint32_t handle);
int loaderd_drm_add_fb(int fd, struct loaderd_drm_fb_cmd *fb);
int loaderd_drm_remove_fb(int fd, uint32_t fb_id);
// Why: DRM_IOCTL_MODE_CLOSEFB (Linux 6.8) drops our handle on a framebuffer without turning the
// screen off, so a retained splash stays up after exit; older kernels answer EINVAL/ENOTTY.
int loaderd_drm_close_fb(int fd, uint32_t fb_id);
int loaderd_drm_page_flip(int fd, struct loaderd_drm_page_flip *flip);
int loaderd_drm_dirty_fb(int fd, struct loaderd_drm_fb_dirty *dirty);
int loaderd_drm_get_cap(int fd, uint64_t capability, uint64_t *value);
// Why: DRM master is what mode setting needs; taken while drawing, dropped at quit so a
// compositor can take the screen. Both are argument-less `DRM_IO` requests.
int loaderd_drm_set_master(int fd);
int loaderd_drm_drop_master(int fd);

// Why: maps a dumb buffer at the offset DRM_IOCTL_MODE_MAP_DUMB gave, with a 64-bit offset on
// every architecture (Swift's `off_t` is 32-bit on armhf). Returns NULL with errno set on failure.
void *loaderd_drm_map(int fd, size_t length, uint64_t offset);

// Constants from drm.h / drm_mode.h, named here since the headers are not included.
static const uint64_t loaderd_drm_cap_dumb_buffer = 0x1;
static const uint64_t loaderd_drm_cap_dumb_preferred_depth = 0x3;
static const uint32_t loaderd_drm_mode_connected = 1;
static const uint32_t loaderd_drm_mode_type_preferred = 1 << 3;
static const uint32_t loaderd_drm_page_flip_event = 0x01;
static const uint32_t loaderd_drm_event_flip_complete = 0x02;

#endif
