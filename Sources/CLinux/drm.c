// 64-bit file offsets even on 32-bit ARM: a dumb buffer's mmap offset lies above 4 GB when a
// 32-bit userland runs on a 64-bit kernel (armhf Raspberry Pi OS on a Pi 4's arm64 kernel).
#define _FILE_OFFSET_BITS 64
#include "loaderd_drm.h"
#include <sys/ioctl.h>
#include <sys/mman.h>

// The kernel's DRM ioctl numbers: DRM_IOCTL_BASE 'd', read-write structs (include/uapi/drm/drm.h).
#define LOADERD_DRM_IO(nr) _IO('d', nr)
#define LOADERD_DRM_IOWR(nr, type) _IOWR('d', nr, type)

// The layouts the kernel ABI fixes (identical on 32- and 64-bit: only fixed-width fields, 64-bit
// pointers). A mistake here would have the driver read garbage: fail the build instead.
_Static_assert(sizeof(struct loaderd_drm_card_res) == 64, "drm_mode_card_res layout");
_Static_assert(offsetof(struct loaderd_drm_card_res, count_fbs) == 32, "drm_mode_card_res.count_fbs");
_Static_assert(sizeof(struct loaderd_drm_mode_info) == 68, "drm_mode_modeinfo layout");
_Static_assert(offsetof(struct loaderd_drm_mode_info, vrefresh) == 24, "drm_mode_modeinfo.vrefresh");
_Static_assert(offsetof(struct loaderd_drm_mode_info, name) == 36, "drm_mode_modeinfo.name");
_Static_assert(sizeof(struct loaderd_drm_connector) == 80, "drm_mode_get_connector layout");
_Static_assert(offsetof(struct loaderd_drm_connector, connection) == 60, "drm_mode_get_connector.connection");
_Static_assert(sizeof(struct loaderd_drm_encoder) == 20, "drm_mode_get_encoder layout");
_Static_assert(sizeof(struct loaderd_drm_crtc) == 104, "drm_mode_crtc layout");
_Static_assert(offsetof(struct loaderd_drm_crtc, mode) == 36, "drm_mode_crtc.mode");
_Static_assert(sizeof(struct loaderd_drm_create_dumb) == 32, "drm_mode_create_dumb layout");
_Static_assert(sizeof(struct loaderd_drm_map_dumb) == 16, "drm_mode_map_dumb layout");
_Static_assert(sizeof(struct loaderd_drm_fb_cmd) == 28, "drm_mode_fb_cmd layout");
_Static_assert(sizeof(struct loaderd_drm_page_flip) == 24, "drm_mode_crtc_page_flip layout");
_Static_assert(sizeof(struct loaderd_drm_clip_rect) == 8, "drm_clip_rect layout");
_Static_assert(sizeof(struct loaderd_drm_fb_dirty) == 24, "drm_mode_fb_dirty_cmd layout");
_Static_assert(sizeof(struct loaderd_drm_get_cap) == 16, "drm_get_cap layout");
_Static_assert(sizeof(struct loaderd_drm_event_vblank) == 32, "drm_event_vblank layout");

struct loaderd_drm_destroy_dumb { uint32_t handle; };
struct loaderd_drm_close_fb { uint32_t fb_id, pad; };

int loaderd_drm_get_resources(int fd, struct loaderd_drm_card_res *res) { return ioctl(fd, LOADERD_DRM_IOWR(0xA0, struct loaderd_drm_card_res), res); }
int loaderd_drm_get_crtc(int fd, struct loaderd_drm_crtc *crtc) { return ioctl(fd, LOADERD_DRM_IOWR(0xA1, struct loaderd_drm_crtc), crtc); }
int loaderd_drm_set_crtc(int fd, struct loaderd_drm_crtc *crtc) { return ioctl(fd, LOADERD_DRM_IOWR(0xA2, struct loaderd_drm_crtc), crtc); }
int loaderd_drm_get_encoder(int fd, struct loaderd_drm_encoder *encoder) { return ioctl(fd, LOADERD_DRM_IOWR(0xA6, struct loaderd_drm_encoder), encoder); }
int loaderd_drm_get_connector(int fd, struct loaderd_drm_connector *connector) { return ioctl(fd, LOADERD_DRM_IOWR(0xA7, struct loaderd_drm_connector), connector); }
int loaderd_drm_add_fb(int fd, struct loaderd_drm_fb_cmd *fb) { return ioctl(fd, LOADERD_DRM_IOWR(0xAE, struct loaderd_drm_fb_cmd), fb); }
int loaderd_drm_remove_fb(int fd, uint32_t fb_id) {
    unsigned int id = fb_id;
    return ioctl(fd, LOADERD_DRM_IOWR(0xAF, unsigned int), &id);
}
int loaderd_drm_page_flip(int fd, struct loaderd_drm_page_flip *flip) { return ioctl(fd, LOADERD_DRM_IOWR(0xB0, struct loaderd_drm_page_flip), flip); }
int loaderd_drm_dirty_fb(int fd, struct loaderd_drm_fb_dirty *dirty) { return ioctl(fd, LOADERD_DRM_IOWR(0xB1, struct loaderd_drm_fb_dirty), dirty); }
int loaderd_drm_create_dumb(int fd, struct loaderd_drm_create_dumb *create) { return ioctl(fd, LOADERD_DRM_IOWR(0xB2, struct loaderd_drm_create_dumb), create); }
int loaderd_drm_map_dumb(int fd, struct loaderd_drm_map_dumb *map) { return ioctl(fd, LOADERD_DRM_IOWR(0xB3, struct loaderd_drm_map_dumb), map); }
int loaderd_drm_destroy_dumb(int fd, uint32_t handle) {
    struct loaderd_drm_destroy_dumb d = { handle };
    return ioctl(fd, LOADERD_DRM_IOWR(0xB4, struct loaderd_drm_destroy_dumb), &d);
}
int loaderd_drm_close_fb(int fd, uint32_t fb_id) {
    struct loaderd_drm_close_fb c = { fb_id, 0 };
    return ioctl(fd, LOADERD_DRM_IOWR(0xD0, struct loaderd_drm_close_fb), &c);
}
int loaderd_drm_get_cap(int fd, uint64_t capability, uint64_t *value) {
    struct loaderd_drm_get_cap cap = { capability, 0 };
    int r = ioctl(fd, LOADERD_DRM_IOWR(0x0C, struct loaderd_drm_get_cap), &cap);
    if (r == 0) *value = cap.value;
    return r;
}
int loaderd_drm_set_master(int fd) { return ioctl(fd, LOADERD_DRM_IO(0x1E)); }
int loaderd_drm_drop_master(int fd) { return ioctl(fd, LOADERD_DRM_IO(0x1F)); }
void *loaderd_drm_map(int fd, size_t length, uint64_t offset) {
    void *p = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset);
    return p == MAP_FAILED ? NULL : p;
}
