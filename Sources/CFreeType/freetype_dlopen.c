// FreeType, opened with dlopen when a boot screen first draws text: in the host build's programs,
// and in loaderd-media, which runs it for the static board binaries (Sources/CMedia).
//
// Why dlopen: FreeType (~800 KB with its dependencies) is for framebuffer screens only; LED
// boards never draw anti-aliased text, and a daemon that needed libfreetype6 to start would fail
// on systems without it. Why our own declarations rather than <ft2build.h>: the headers live in
// /usr/include/freetype2, which a SwiftPM C target cannot add to its search path without unsafe
// flags, and the boards' sysroots would need libfreetype-dev. We declare only the leading fields
// we read of four structs of FreeType's public API, whose layout has been fixed since FreeType
// 2.0 (the ABI of libfreetype.so.6); compiled with -DLOADERD_FT_CHECK_LAYOUT and FreeType's
// headers on the include path (scripts/cross-build does), every offset is checked against them.
#include "loaderd_freetype.h"
#ifdef LOADERD_MEDIA_LINKED
// The static loaderd-media of the ARMv6 build has FreeType linked in: opening the library looks
// its functions up in a table of them instead (Sources/loaderd-media/linked.c). Not through
// <dlfcn.h>, whose 32-bit musl renames dlsym to __dlsym_time64 with an asm label.
void *loaderd_linked_dlopen(const char *file, int mode);
void *loaderd_linked_dlsym(void *library, const char *name);
int loaderd_linked_dlclose(void *library);
#define dlopen loaderd_linked_dlopen
#define dlsym loaderd_linked_dlsym
#define dlclose loaderd_linked_dlclose
#define RTLD_NOW 0
#define RTLD_LOCAL 0
#else
#include <dlfcn.h>
#endif
#include <stddef.h>
#include <stdlib.h>

typedef int ft_error_t;
typedef struct { signed long x, y; } ft_vector;
typedef struct { void *data; void (*finalizer)(void *); } ft_generic;
typedef struct { signed long x_min, y_min, x_max, y_max; } ft_bbox;

typedef struct {
    unsigned int rows, width;
    int pitch;
    unsigned char *buffer;
    unsigned short num_grays;
    unsigned char pixel_mode, palette_mode;
    void *palette;
} ft_bitmap;

typedef struct {
    void *library, *face, *next;
    unsigned int glyph_index;
    ft_generic generic;
    signed long metrics[8];                        // FT_Glyph_Metrics: eight FT_Pos
    signed long linear_hori_advance, linear_vert_advance;
    ft_vector advance;
    int format;                                    // FT_Glyph_Format, an enum
    ft_bitmap bitmap;
    int bitmap_left, bitmap_top;
} ft_glyph_slot;

typedef struct {
    unsigned short x_ppem, y_ppem;
    signed long x_scale, y_scale;
    signed long ascender, descender, height, max_advance;
} ft_size_metrics;

typedef struct {
    void *face;
    ft_generic generic;
    ft_size_metrics metrics;
} ft_size;

typedef struct {
    signed long num_faces, face_index, face_flags, style_flags, num_glyphs;
    char *family_name, *style_name;
    int num_fixed_sizes;
    void *available_sizes;
    int num_charmaps;
    void *charmaps;
    ft_generic generic;
    ft_bbox bbox;
    unsigned short units_per_em;
    short ascender, descender, height, max_advance_width, max_advance_height;
    short underline_position, underline_thickness;
    ft_glyph_slot *glyph;
    ft_size *size;
} ft_face;

#ifdef LOADERD_FT_CHECK_LAYOUT
#include <ft2build.h>
#include FT_FREETYPE_H
#define SAME(ours, theirs, field_ours, field_theirs) \
    _Static_assert(offsetof(ours, field_ours) == offsetof(theirs, field_theirs), #theirs "." #field_theirs)
SAME(ft_face, FT_FaceRec, face_flags, face_flags);
SAME(ft_face, FT_FaceRec, glyph, glyph);
SAME(ft_face, FT_FaceRec, size, size);
SAME(ft_size, FT_SizeRec, metrics, metrics);
SAME(ft_size_metrics, FT_Size_Metrics, ascender, ascender);
SAME(ft_size_metrics, FT_Size_Metrics, descender, descender);
SAME(ft_size_metrics, FT_Size_Metrics, height, height);
SAME(ft_glyph_slot, FT_GlyphSlotRec, advance, advance);
SAME(ft_glyph_slot, FT_GlyphSlotRec, bitmap, bitmap);
SAME(ft_glyph_slot, FT_GlyphSlotRec, bitmap_left, bitmap_left);
SAME(ft_glyph_slot, FT_GlyphSlotRec, bitmap_top, bitmap_top);
SAME(ft_bitmap, FT_Bitmap, rows, rows);
SAME(ft_bitmap, FT_Bitmap, width, width);
SAME(ft_bitmap, FT_Bitmap, pitch, pitch);
SAME(ft_bitmap, FT_Bitmap, buffer, buffer);
SAME(ft_bitmap, FT_Bitmap, pixel_mode, pixel_mode);
_Static_assert(FT_LOAD_RENDER == (1 << 2), "FT_LOAD_RENDER");
_Static_assert(FT_LOAD_TARGET_LIGHT == (1 << 16), "FT_LOAD_TARGET_LIGHT");
_Static_assert(FT_FACE_FLAG_KERNING == (1 << 6), "FT_FACE_FLAG_KERNING");
_Static_assert(FT_PIXEL_MODE_GRAY == 2, "FT_PIXEL_MODE_GRAY");
#endif

enum { LOAD_RENDER = 1 << 2, LOAD_TARGET_LIGHT = 1 << 16, FACE_FLAG_KERNING = 1 << 6, PIXEL_MODE_GRAY = 2 };

struct loaderd_ft_face {
    void *dl;
    void *library;
    ft_face *face;
    ft_error_t (*done_face)(ft_face *);
    ft_error_t (*done_library)(void *);
    unsigned (*char_index)(ft_face *, unsigned long);
    ft_error_t (*load_glyph)(ft_face *, unsigned, int);
    ft_error_t (*kerning)(ft_face *, unsigned, unsigned, unsigned, ft_vector *);
};

loaderd_ft_face *loaderd_ft_open(const char *library, const char *font_path, int pixel_height,
                                 int *status, int *ft_error) {
    *status = LOADERD_FT_OK;
    *ft_error = 0;
    void *dl = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!dl) { *status = LOADERD_FT_NO_LIBRARY; return NULL; }
    ft_error_t (*init)(void **) = (ft_error_t (*)(void **))dlsym(dl, "FT_Init_FreeType");
    ft_error_t (*new_face)(void *, const char *, signed long, ft_face **) =
        (ft_error_t (*)(void *, const char *, signed long, ft_face **))dlsym(dl, "FT_New_Face");
    ft_error_t (*set_pixel_sizes)(ft_face *, unsigned, unsigned) =
        (ft_error_t (*)(ft_face *, unsigned, unsigned))dlsym(dl, "FT_Set_Pixel_Sizes");
    loaderd_ft_face *f = calloc(1, sizeof *f);
    if (!f) { dlclose(dl); *status = LOADERD_FT_NO_MEMORY; return NULL; }
    f->dl = dl;
    f->done_face = (ft_error_t (*)(ft_face *))dlsym(dl, "FT_Done_Face");
    f->done_library = (ft_error_t (*)(void *))dlsym(dl, "FT_Done_FreeType");
    f->char_index = (unsigned (*)(ft_face *, unsigned long))dlsym(dl, "FT_Get_Char_Index");
    f->load_glyph = (ft_error_t (*)(ft_face *, unsigned, int))dlsym(dl, "FT_Load_Glyph");
    f->kerning = (ft_error_t (*)(ft_face *, unsigned, unsigned, unsigned, ft_vector *))dlsym(dl, "FT_Get_Kerning");
    if (!init || !new_face || !set_pixel_sizes || !f->done_face || !f->done_library || !f->char_index ||
        !f->load_glyph || !f->kerning) {
        *status = LOADERD_FT_NO_LIBRARY;
        loaderd_ft_close(f);
        return NULL;
    }
    ft_error_t e = init(&f->library);
    if (e) { *status = LOADERD_FT_INIT_FAILED; *ft_error = e; f->library = NULL; loaderd_ft_close(f); return NULL; }
    e = new_face(f->library, font_path, 0, &f->face);
    if (e) { *status = LOADERD_FT_NO_FONT; *ft_error = e; f->face = NULL; loaderd_ft_close(f); return NULL; }
    e = set_pixel_sizes(f->face, 0, (unsigned)pixel_height);
    if (e) { *status = LOADERD_FT_NO_SIZE; *ft_error = e; loaderd_ft_close(f); return NULL; }
    return f;
}

// 26.6 to whole pixels, rounding up (ascender/descender: nothing may be cut) or to nearest.
static int ceil64(signed long v) { return (int)((v + 63) >> 6); }

void loaderd_ft_metrics(const loaderd_ft_face *f, int *ascender, int *descender, int *line_height) {
    const ft_size_metrics *m = &f->face->size->metrics;
    *ascender = ceil64(m->ascender);
    *descender = ceil64(-m->descender);
    *line_height = (int)((m->height + 32) >> 6);
}

unsigned loaderd_ft_glyph_index(loaderd_ft_face *f, uint32_t codepoint) {
    return f->char_index(f->face, codepoint);
}

int loaderd_ft_render(loaderd_ft_face *f, unsigned index, loaderd_ft_glyph *out) {
    // Light hinting: snapped to the pixel grid vertically only, so the advances stay proportional
    // and the stems stay crisp at 14-40 pixels.
    ft_error_t e = f->load_glyph(f->face, index, LOAD_RENDER | LOAD_TARGET_LIGHT);
    if (e) return e;
    const ft_glyph_slot *g = f->face->glyph;
    if (g->bitmap.pixel_mode != PIXEL_MODE_GRAY && g->bitmap.rows > 0) return -1;
    out->width = (int)g->bitmap.width;
    out->rows = (int)g->bitmap.rows;
    out->pitch = g->bitmap.pitch;
    out->left = g->bitmap_left;
    out->top = g->bitmap_top;
    out->advance64 = g->advance.x;
    out->buffer = g->bitmap.buffer;
    return 0;
}

long loaderd_ft_kerning(loaderd_ft_face *f, unsigned left, unsigned right) {
    if (!(f->face->face_flags & FACE_FLAG_KERNING)) return 0;
    ft_vector v = {0, 0};
    if (f->kerning(f->face, left, right, 0, &v)) return 0;  // FT_KERNING_DEFAULT: grid-fitted
    return v.x;
}

void loaderd_ft_close(loaderd_ft_face *f) {
    if (!f) return;
    if (f->face && f->done_face) f->done_face(f->face);
    if (f->library && f->done_library) f->done_library(f->library);
    dlclose(f->dl);
    free(f);
}

int loaderd_ft_failed(const loaderd_ft_face *f) { (void)f; return 0; }

int loaderd_ft_prefetch(loaderd_ft_face *f, const uint32_t *codepoints, size_t count) {
    (void)f; (void)codepoints; (void)count;
    return 0;  // in the process, each glyph is a function call already
}

const char *loaderd_ft_library_problem(void) { return NULL; }
