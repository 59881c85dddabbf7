#ifndef LOADERD_FB_H
#define LOADERD_FB_H
// Framebuffer (fbdev) and virtual-terminal ioctls. Swift cannot call the variadic `ioctl`, and
// several request numbers are built by macros (`_IOW`) that Swift does not import; each wrapper
// below passes one typed argument so the Swift side stays type-checked.
// Every function returns ioctl's result: 0 (or the value) on success, -1 with errno set.

#include <linux/fb.h>
#include <linux/kd.h>
#include <linux/vt.h>

// Why: FBIOGET_VSCREENINFO fills struct fb_var_screeninfo (resolution, virtual size, bpp and the
// red/green/blue/transp bitfields that decide the pixel encoding).
int loaderd_fb_get_var(int fd, struct fb_var_screeninfo *var);
// Why: FBIOGET_FSCREENINFO fills struct fb_fix_screeninfo (smem_len for mmap, line_length = the
// stride, which drivers pad).
int loaderd_fb_get_fix(int fd, struct fb_fix_screeninfo *fix);
// Why: FBIOPUT_VSCREENINFO changes the mode (bpp, virtual size); used to ask for a double-height
// virtual screen and by tests to switch a virtual framebuffer between 16 and 32 bpp.
int loaderd_fb_put_var(int fd, struct fb_var_screeninfo *var);
// Why: FBIOPAN_DISPLAY shows another part of the virtual screen (double buffering: draw into the
// hidden half, then pan to it); the driver reads xoffset/yoffset from `var`.
int loaderd_fb_pan(int fd, struct fb_var_screeninfo *var);
// Why: FBIO_WAITFORVSYNC is `_IOW('F', 0x20, __u32)`, a macro Swift cannot import; the argument
// is the CRTC index (0).
int loaderd_fb_wait_for_vsync(int fd);
// Why: KDGETMODE stores the console mode (KD_TEXT or KD_GRAPHICS) into an int.
int loaderd_kd_get_mode(int fd, int *mode);
// Why: KDSETMODE takes the mode by value; KD_GRAPHICS stops the kernel console (text, cursor
// blink) drawing over the splash, KD_TEXT gives the screen back.
int loaderd_kd_set_mode(int fd, int mode);

// The console modes, as plain ints (the macros are tab-indented defines Swift imports, but a
// named constant documents intent at the call site).
static const int loaderd_kd_text = KD_TEXT;
static const int loaderd_kd_graphics = KD_GRAPHICS;

#endif
