// The conversation between a static loaderd or loaderctl and loaderd-media, the helper that loads
// the system's FreeType and libpng for them (a static program cannot load shared libraries:
// scripts/cross-build says why the board binaries are static).
//
// The program starts the helper with one argument, the protocol version below (a daemon that
// followed PID 1 from the initramfs into the real root may meet another version's helper there;
// the helper refuses a version it does not speak, with LOADERD_MEDIA_EXIT_VERSION). Then one
// stream socket (a socketpair: the helper's standard input). Each request is a frame
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

/// The protocol's version, the helper's one argument. Changed with any change below.
#define LOADERD_MEDIA_PROTOCOL "3"

/// The helper's exit status when it does not speak the version it was started with.
#define LOADERD_MEDIA_EXIT_VERSION 3

enum loaderd_media_operation {
    /// i32 pixel height, string library, string font path
    ///   -> i32 status (LOADERD_FT_*), i32 FreeType error, u32 face handle, i32 ascender,
    ///      i32 descender, i32 line height
    LOADERD_MEDIA_FT_OPEN = 1,
    /// u32 face, u32 code point -> u32 glyph index
    LOADERD_MEDIA_FT_GLYPH_INDEX = 2,
    /// u32 face, u32 glyph index -> i32 error, i32 width, rows, pitch, left, top, i64 advance
    ///   (1/64 pixel), then rows × pitch bytes of coverage (only when error is 0; a rendered
    ///   glyph's pitch is at least its width and never negative)
    LOADERD_MEDIA_FT_RENDER = 3,
    /// u32 face, u32 left glyph, u32 right glyph -> i64 kerning (1/64 pixel)
    LOADERD_MEDIA_FT_KERNING = 4,
    /// u32 face -> nothing
    LOADERD_MEDIA_FT_CLOSE = 5,
    /// nothing -> i32 1 when the helper could load libpng16.so.16, else 0
    LOADERD_MEDIA_PNG_AVAILABLE = 6,
    /// the PNG file's bytes (the helper keeps a copy until the image is finished or freed)
    ///   -> i32 result, u32 image handle, the image's fields (below)
    LOADERD_MEDIA_PNG_BEGIN_READ = 7,
    /// u32 image, the image's fields, i32 row stride, u8 uniform, then either (uniform) one pixel,
    /// which the whole output buffer starts as, or the buffer's bytes as they are (libpng
    /// composites alpha onto them) -> i32 result, the image's fields, the buffer's bytes. As in
    /// libpng, the image is freed whatever the result.
    LOADERD_MEDIA_PNG_FINISH_READ = 8,
    /// u32 image -> nothing
    LOADERD_MEDIA_PNG_FREE = 9,
    /// the image's fields, i32 convert to 8 bit, i32 row stride, u8 with memory (0: the size
    /// only), u64 capacity, then the pixels -> i32 result, the image's fields, u64 size, then the
    /// PNG's bytes when the result is non-zero and memory was given
    LOADERD_MEDIA_PNG_WRITE = 10,
    /// u32 face, u32 count (at most LOADERD_MEDIA_MAX_PREFETCH), count × u32 code point ->
    ///   u32 count, then for each code point: u32 code point, u32 glyph index, and unless the index
    ///   is 0 (and the code point not U+FFFD, whose .notdef glyph is drawn) what
    ///   LOADERD_MEDIA_FT_RENDER answers for that index
    LOADERD_MEDIA_FT_RENDER_MANY = 11,
};

/// The most code points one LOADERD_MEDIA_FT_RENDER_MANY asks for.
#define LOADERD_MEDIA_MAX_PREFETCH 65536u

/// A png_image's fields that cross (its `opaque` pointer stays on each side):
/// u32 version, width, height, format, flags, colormap_entries, warning_or_error, char message[64].
#define LOADERD_MEDIA_PNG_FIELDS_SIZE (7 * 4 + 64)

/// The largest frame either side sends or accepts: a 64-megapixel RGB image and change.
#define LOADERD_MEDIA_MAX_FRAME (200u * 1024 * 1024)

/// The helper exits after this long without a request when it holds nothing open.
#define LOADERD_MEDIA_IDLE_MS 2000

/// The most faces and images the helper holds open at once.
#define LOADERD_MEDIA_MAX_OPEN 8

#endif
