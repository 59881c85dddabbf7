// giflib 5 (Debian package libgif-dev), used to write animated GIF files.
#include <gif_lib.h>
