// libpng 1.6 (Debian package libpng-dev), used to write and read PNG files.
#include <png.h>

#ifdef LOADERD_PNG_REMOTE
/// Static board build: libpng runs in loaderd-media (Sources/CMedia/png_remote.c); 0 when the
/// helper or the library cannot be had.
int loaderd_png_available(void);
/// Why not, when the helper itself is the reason (not found, not answering); NULL when the helper
/// answered that libpng16.so.16 is missing.
const char *loaderd_png_unavailable_reason(void);
#else
/// Host build: libpng is linked in.
static inline int loaderd_png_available(void) { return 1; }
static inline const char *loaderd_png_unavailable_reason(void) { return 0; }
#endif
