// FreeType for the boot screen's text, opened with dlopen (see freetype_dlopen.c). Plain C types
// only: Swift never sees FreeType's own headers, so no build needs them.
#ifndef LOADERD_FREETYPE_H
#define LOADERD_FREETYPE_H
#include <stddef.h>
#include <stdint.h>

/// An open face at one pixel size (opaque).
typedef struct loaderd_ft_face loaderd_ft_face;

/// Why `loaderd_ft_open` returned NULL.
enum {
    LOADERD_FT_OK = 0,
    /// The library could not be loaded (dlopen failed, or a function is missing).
    LOADERD_FT_NO_LIBRARY = 1,
    /// FT_Init_FreeType failed.
    LOADERD_FT_INIT_FAILED = 2,
    /// FT_New_Face failed: no such file, or not a font FreeType reads (`ft_error` says which).
    LOADERD_FT_NO_FONT = 3,
    /// FT_Set_Pixel_Sizes failed (a bitmap-only font without that size).
    LOADERD_FT_NO_SIZE = 4,
    /// Out of memory.
    LOADERD_FT_NO_MEMORY = 5,
};

/// Opens `font_path` (face 0) at `pixel_height` pixels per em with the FreeType shared library
/// `library` (e.g. "libfreetype.so.6"). NULL on failure, with `*status` one of the codes above and
/// `*ft_error` FreeType's error code (0 when not FreeType's).
loaderd_ft_face *loaderd_ft_open(const char *library, const char *font_path, int pixel_height,
                                 int *status, int *ft_error);

/// The face's line metrics at its size, in whole pixels: ascender above the baseline (> 0),
/// descender below it (> 0), and the distance between baselines.
void loaderd_ft_metrics(const loaderd_ft_face *face, int *ascender, int *descender, int *line_height);

/// A rendered glyph: an 8-bit coverage bitmap `width × rows` (`pitch` bytes a row) whose top-left
/// is `left` right of the pen and `top` above the baseline, and the pen's advance in 1/64 pixel.
/// `buffer` stays valid until the next call on the same face.
typedef struct {
    int width, rows, pitch, left, top;
    long advance64;
    const unsigned char *buffer;
} loaderd_ft_glyph;

/// The face's glyph index for `codepoint` (0: the font has none).
unsigned loaderd_ft_glyph_index(loaderd_ft_face *face, uint32_t codepoint);

/// Renders glyph `index` anti-aliased into `out`; 0 on success, else FreeType's error.
int loaderd_ft_render(loaderd_ft_face *face, unsigned index, loaderd_ft_glyph *out);

/// Asks for the glyphs of `codepoints` at once, before `loaderd_ft_glyph_index` and
/// `loaderd_ft_render` are called for them in the same order: the static build's helper answers
/// them in one exchange (one round trip for a face's whole repertoire, where each glyph took two).
/// Where FreeType runs in the process it does nothing. 0 on success; otherwise the calls that
/// follow ask one glyph at a time, as without it.
int loaderd_ft_prefetch(loaderd_ft_face *face, const uint32_t *codepoints, size_t count);

/// The kerning between glyphs `left` and `right`, in 1/64 pixel (0 without kerning).
long loaderd_ft_kerning(loaderd_ft_face *face, unsigned left, unsigned right);

/// Closes the face, the library instance and the dlopen handle.
void loaderd_ft_close(loaderd_ft_face *face);

/// Non-zero when a call on `face` failed for a reason outside FreeType (the static build's helper,
/// loaderd-media, stopped): glyphs may be missing. Always 0 where FreeType runs in the process.
int loaderd_ft_failed(const loaderd_ft_face *face);

/// Why FreeType could not be reached beyond "the library is missing", as a sentence: the static
/// build's helper was not found or did not answer (Sources/CMedia). NULL where FreeType is opened
/// in the process, or when the helper is not the reason.
const char *loaderd_ft_library_problem(void);

#endif
