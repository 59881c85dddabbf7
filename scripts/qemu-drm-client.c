// The "next DRM client" of scripts/qemu-drm-test: after loaderd quit, another program must be able
// to become DRM master and set a mode, as a compositor would. This one fills a dumb buffer with
// magenta (#ff00ff) and shows it on the first connected connector in its preferred mode, so the
// test sees from outside (QMP screendump) that the hand-over worked.
// Built statically on the host against the project's DRM shim (Sources/CLinux/drm.c).
#include "loaderd_drm.h"
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>

static int fail(const char *what) { printf("@@@ client failed: %s: %s\n", what, strerror(errno)); return 1; }

// usage: drm-client CARD [SHOT-NAME DEVICE]
int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "/dev/dri/card0";
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) return fail("open");
    if (loaderd_drm_set_master(fd) != 0) return fail("SET_MASTER");
    uint32_t crtcs[16], connectors[16], encoders[16];
    struct loaderd_drm_card_res res = {0};
    res.crtc_id_ptr = (uintptr_t)crtcs; res.count_crtcs = 16;
    res.connector_id_ptr = (uintptr_t)connectors; res.count_connectors = 16;
    res.encoder_id_ptr = (uintptr_t)encoders; res.count_encoders = 16;
    if (loaderd_drm_get_resources(fd, &res) != 0) return fail("GETRESOURCES");
    for (uint32_t i = 0; i < res.count_connectors && i < 16; i++) {
        struct loaderd_drm_mode_info modes[64];
        struct loaderd_drm_connector c = {0};
        c.connector_id = connectors[i];
        if (loaderd_drm_get_connector(fd, &c) != 0) continue;
        if (c.connection != loaderd_drm_mode_connected || c.count_modes == 0) continue;
        c.count_modes = c.count_modes > 64 ? 64 : c.count_modes;
        c.modes_ptr = (uintptr_t)modes; c.count_encoders = 0; c.count_props = 0;
        if (loaderd_drm_get_connector(fd, &c) != 0) return fail("GETCONNECTOR");
        struct loaderd_drm_mode_info *m = &modes[0];
        for (uint32_t k = 0; k < c.count_modes; k++) if (modes[k].type & loaderd_drm_mode_type_preferred) { m = &modes[k]; break; }
        struct loaderd_drm_create_dumb create = { .width = m->hdisplay, .height = m->vdisplay, .bpp = 32 };
        if (loaderd_drm_create_dumb(fd, &create) != 0) return fail("CREATE_DUMB");
        struct loaderd_drm_fb_cmd fb = { 0, m->hdisplay, m->vdisplay, create.pitch, 32, 24, create.handle };
        if (loaderd_drm_add_fb(fd, &fb) != 0) return fail("ADDFB");
        struct loaderd_drm_map_dumb map = { .handle = create.handle };
        if (loaderd_drm_map_dumb(fd, &map) != 0) return fail("MAP_DUMB");
        uint32_t *p = loaderd_drm_map(fd, create.size, map.offset);
        if (!p) return fail("mmap");
        for (uint64_t k = 0; k < create.size / 4; k++) p[k] = 0x00ff00ff;
        struct loaderd_drm_crtc set = {0};
        set.crtc_id = crtcs[0]; set.fb_id = fb.fb_id;
        set.set_connectors_ptr = (uintptr_t)&connectors[i]; set.count_connectors = 1;
        set.mode = *m; set.mode_valid = 1;
        if (loaderd_drm_set_crtc(fd, &set) != 0) return fail("SETCRTC");
        printf("@@@ %s modeset %ux%u\n", argc > 2 ? argv[2] : "client", m->hdisplay, m->vdisplay);
        // Hold the screen until told (the host takes its screendump meanwhile).
        char line[16];
        FILE *ctl = fopen("/dev/ttyS1", "r");
        printf("@@@ shoot %s %s\n", argc > 2 ? argv[2] : "client", argc > 3 ? argv[3] : "std"); fflush(stdout);
        if (ctl) { fgets(line, sizeof line, ctl); fclose(ctl); }
        return 0;
    }
    printf("@@@ client failed: no connected connector\n");
    return 1;
}
