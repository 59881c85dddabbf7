// libpng 1.6 (Debian package libpng-dev), used to write and read PNG files.
#include <png.h>

#ifdef LOADERD_PNG_DLOPEN
/// Board build: libpng is opened on first use (embedded/png_dlopen.c); 0 when it cannot be.
int loaderd_png_available(void);
#else
/// Host build: libpng is linked in.
static inline int loaderd_png_available(void) { return 1; }
#endif
