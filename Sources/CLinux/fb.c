#include "loaderd_fb.h"
#include <stddef.h>
#include <sys/ioctl.h>

// The Swift side mirrors these layouts through the imported structs; if a kernel header ever
// changed them, fail the build here rather than read garbage from the driver.
_Static_assert(sizeof(struct fb_bitfield) == 12, "fb_bitfield layout");
_Static_assert(sizeof(struct fb_var_screeninfo) == 160, "fb_var_screeninfo layout");
_Static_assert(offsetof(struct fb_var_screeninfo, bits_per_pixel) == 24, "fb_var_screeninfo.bits_per_pixel offset");
_Static_assert(offsetof(struct fb_var_screeninfo, red) == 32, "fb_var_screeninfo.red offset");
_Static_assert(offsetof(struct fb_fix_screeninfo, smem_len) == 16 + sizeof(unsigned long), "fb_fix_screeninfo.smem_len offset");
_Static_assert(offsetof(struct fb_fix_screeninfo, line_length) == 40 + sizeof(unsigned long), "fb_fix_screeninfo.line_length offset");
_Static_assert(sizeof(((struct vt_stat *)0)->v_active) == 2, "vt_stat.v_active is a short");

int loaderd_fb_get_var(int fd, struct fb_var_screeninfo *var) { return ioctl(fd, FBIOGET_VSCREENINFO, var); }
int loaderd_fb_get_fix(int fd, struct fb_fix_screeninfo *fix) { return ioctl(fd, FBIOGET_FSCREENINFO, fix); }
int loaderd_fb_put_var(int fd, struct fb_var_screeninfo *var) { return ioctl(fd, FBIOPUT_VSCREENINFO, var); }
int loaderd_fb_pan(int fd, struct fb_var_screeninfo *var) { return ioctl(fd, FBIOPAN_DISPLAY, var); }
int loaderd_fb_wait_for_vsync(int fd) {
    __u32 crtc = 0;
    return ioctl(fd, FBIO_WAITFORVSYNC, &crtc);
}
int loaderd_kd_get_mode(int fd, int *mode) { return ioctl(fd, KDGETMODE, mode); }
int loaderd_kd_set_mode(int fd, int mode) { return ioctl(fd, KDSETMODE, (unsigned long)mode); }
