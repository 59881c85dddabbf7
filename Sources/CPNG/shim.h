// libpng 1.6 (Debian package libpng-dev), used to write PNG files.
#include <png.h>
