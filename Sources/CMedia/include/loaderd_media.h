// The conversation between a static loaderd or loaderctl and loaderd-media, the helper that loads
// the system's FreeType and libpng for them (a static program cannot load shared libraries:
// scripts/cross-build says why the board binaries are static).
//
// One stream socket (a socketpair: the helper's standard input). Each request is a frame
//     u32 length of what follows, u8 operation, the operation's arguments
// and each reply a frame
//     u32 length of what follows, the results
// in the machine's own byte order (both ends are built for the same machine). Strings go as a u32
// length and their bytes. The helper answers one request at a time, in order, and exits at the end
// of its input, or after LOADERD_MEDIA_IDLE_MS without a request while it holds no open face or
// image; the client starts it again when it next needs it.
#ifndef LOADERD_MEDIA_H
#define LOADERD_MEDIA_H
#include <stdint.h>

enum loaderd_media_operation {
    /// i32 pixel height, string library, string font path
    ///   -> i32 status (LOADERD_FT_*), i32 FreeType error, u32 face handle, i32 ascender,
    ///      i32 descender, i32 line height
    LOADERD_MEDIA_FT_OPEN = 1,
    /// u32 face, u32 code point -> u32 glyph index
    LOADERD_MEDIA_FT_GLYPH_INDEX = 2,
    /// u32 face, u32 glyph index -> i32 error, i32 width, rows, pitch, left, top, i64 advance
    ///   (1/64 pixel), then rows × |pitch| bytes of coverage (only when error is 0)
    LOADERD_MEDIA_FT_RENDER = 3,
    /// u32 face, u32 left glyph, u32 right glyph -> i64 kerning (1/64 pixel)
    LOADERD_MEDIA_FT_KERNING = 4,
    /// u32 face -> nothing
    LOADERD_MEDIA_FT_CLOSE = 5,
    /// nothing -> i32 1 when the helper could load libpng16.so.16, else 0
    LOADERD_MEDIA_PNG_AVAILABLE = 6,
    /// the PNG file's bytes -> i32 result, u32 image handle, the image's fields (below)
    LOADERD_MEDIA_PNG_BEGIN_READ = 7,
    /// u32 image, the image's fields, i32 row stride, then the output buffer's bytes as they are
    /// (libpng composites alpha onto them) -> i32 result, the image's fields, the buffer's bytes
    LOADERD_MEDIA_PNG_FINISH_READ = 8,
    /// u32 image -> nothing
    LOADERD_MEDIA_PNG_FREE = 9,
    /// the image's fields, i32 convert to 8 bit, i32 row stride, u64 capacity (0: size only),
    /// then the pixels -> i32 result, the image's fields, u64 size, then the PNG's bytes when the
    /// result is non-zero and it fitted in the capacity
    LOADERD_MEDIA_PNG_WRITE = 10,
};

/// A png_image's fields that cross (its `opaque` pointer stays on each side):
/// u32 version, width, height, format, flags, colormap_entries, warning_or_error, char message[64].
#define LOADERD_MEDIA_PNG_FIELDS_SIZE (7 * 4 + 64)

/// The largest frame either side accepts: a 64-megapixel RGBA image and change.
#define LOADERD_MEDIA_MAX_FRAME (256u * 1024 * 1024 + 4096)

/// The helper exits after this long without a request when it holds nothing open.
#define LOADERD_MEDIA_IDLE_MS 2000

/// The most faces and images the helper holds open at once.
#define LOADERD_MEDIA_MAX_OPEN 8

#endif
