// loaderd_freetype.h for the static build: each call asked of loaderd-media, which runs the
// dlopen shim (Sources/CFreeType/freetype_dlopen.c) against the system's FreeType. The Swift side
// (TextFace) is the same in every build. A face lives in the helper that opened it; this side
// keeps which helper that was, its handle there, its metrics and the last glyph's bitmap (valid
// until the next call, as FreeType's own is). A glyph's answer is checked before the Swift side
// reads `rows × pitch` bytes of it.
#include "loaderd_freetype.h"
#include "loaderd_media.h"
#include "loaderd_media_client.h"
#include "loaderd_media_frame.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/// The largest glyph taken (pixels a side): text is 14-40 pixels an em.
#define LARGEST_GLYPH 4096

/// One glyph of a prefetched answer; `coverage` points into the answer, kept with the face.
typedef struct {
    uint32_t codepoint, index;
    int32_t error, width, rows, pitch, left, top;
    int64_t advance64;
    const unsigned char *coverage;
} prefetched_glyph;

struct loaderd_ft_face {
    unsigned generation;  // the helper that holds it
    uint32_t handle;
    int ascender, descender, line_height;
    unsigned char *bitmap;
    size_t capacity;
    int failed;  // the helper stopped, or answered wrongly, while this face was open
    // loaderd_ft_prefetch's answer: the glyphs in the order asked, the next one expected, and
    // the one whose index loaderd_ft_glyph_index gave last (SIZE_MAX: none).
    unsigned char *prefetched;
    prefetched_glyph *glyphs;
    size_t glyph_count, cursor, last;
};

loaderd_ft_face *loaderd_ft_open(const char *library, const char *font_path, int pixel_height,
                                 int *status, int *ft_error) {
    *status = LOADERD_FT_NO_LIBRARY;
    *ft_error = 0;
    media_frame f;
    media_frame_begin(&f);
    media_frame_u8(&f, LOADERD_MEDIA_FT_OPEN);
    media_frame_i32(&f, pixel_height);
    media_frame_string(&f, library);
    media_frame_string(&f, font_path);
    media_reader r;
    unsigned char *owned;
    if (loaderd_media_call(&f, 0, &r, &owned) != 0) return NULL;
    int32_t s = media_get_i32(&r), e = media_get_i32(&r);
    uint32_t handle = media_get_u32(&r);
    int32_t ascender = media_get_i32(&r), descender = media_get_i32(&r), line_height = media_get_i32(&r);
    int short_answer = r.failed;
    free(owned);
    if (short_answer) return NULL;
    *status = s;
    *ft_error = e;
    if (s != LOADERD_FT_OK) return NULL;
    loaderd_ft_face *face = calloc(1, sizeof *face);
    if (!face) { *status = LOADERD_FT_NO_MEMORY; return NULL; }
    face->generation = loaderd_media_generation();
    face->handle = handle;
    face->ascender = ascender; face->descender = descender; face->line_height = line_height;
    face->last = SIZE_MAX;
    return face;
}

void loaderd_ft_metrics(const loaderd_ft_face *face, int *ascender, int *descender, int *line_height) {
    *ascender = face->ascender;
    *descender = face->descender;
    *line_height = face->line_height;
}

/// A question about `face` (its handle first); 0 with `r` reading the answer, else the face fails.
static int ask_about(loaderd_ft_face *face, media_frame *f, media_reader *r, unsigned char **owned) {
    if (face->failed) { media_frame_free(f); return -1; }
    if (loaderd_media_call(f, face->generation, r, owned) != 0) { face->failed = 1; return -1; }
    return 0;
}

static void begin_about(loaderd_ft_face *face, media_frame *f, uint8_t operation) {
    media_frame_begin(f);
    media_frame_u8(f, operation);
    media_frame_u32(f, face->handle);
}

static void forget_prefetched(loaderd_ft_face *face) {
    free(face->prefetched);
    free(face->glyphs);
    face->prefetched = NULL;
    face->glyphs = NULL;
    face->glyph_count = face->cursor = 0;
    face->last = SIZE_MAX;
}

int loaderd_ft_prefetch(loaderd_ft_face *face, const uint32_t *codepoints, size_t count) {
    forget_prefetched(face);
    if (count == 0 || count > LOADERD_MEDIA_MAX_PREFETCH) return -1;
    media_frame f;
    begin_about(face, &f, LOADERD_MEDIA_FT_RENDER_MANY);
    media_frame_u32(&f, (uint32_t)count);
    for (size_t i = 0; i < count; i++) media_frame_u32(&f, codepoints[i]);
    media_reader r;
    unsigned char *owned;
    if (ask_about(face, &f, &r, &owned) != 0) return -1;
    if (media_get_u32(&r) != count || r.failed) { face->failed = 1; free(owned); return -1; }
    prefetched_glyph *glyphs = calloc(count, sizeof *glyphs);
    if (!glyphs) { free(owned); return -1; }  // no memory for the table: one glyph at a time
    int bad = 0;
    for (size_t i = 0; !bad && i < count; i++) {
        prefetched_glyph *g = &glyphs[i];
        g->codepoint = media_get_u32(&r);
        g->index = media_get_u32(&r);
        if (r.failed || g->codepoint != codepoints[i]) { bad = 1; break; }
        if (g->index == 0 && g->codepoint != 0xFFFD) continue;
        g->error = media_get_i32(&r);
        if (g->error != 0) continue;
        g->width = media_get_i32(&r); g->rows = media_get_i32(&r); g->pitch = media_get_i32(&r);
        g->left = media_get_i32(&r); g->top = media_get_i32(&r);
        g->advance64 = media_get_i64(&r);
        // Checked as one glyph's answer is, before the Swift side reads rows × pitch bytes.
        int sane = !r.failed && g->width >= 0 && g->rows >= 0 && g->width <= g->pitch && g->pitch <= LARGEST_GLYPH && g->rows <= LARGEST_GLYPH;
        g->coverage = sane ? media_get(&r, (size_t)g->rows * (size_t)g->pitch) : NULL;
        if (!sane || r.failed) bad = 1;
    }
    if (bad) {
        // A short or wrong answer: the helper is not trusted with this face, as after a wrong
        // answer for one glyph.
        face->failed = 1;
        free(glyphs);
        free(owned);
        return -1;
    }
    face->prefetched = owned;
    face->glyphs = glyphs;
    face->glyph_count = count;
    return 0;
}

unsigned loaderd_ft_glyph_index(loaderd_ft_face *face, uint32_t codepoint) {
    if (face->glyph_count) {
        // Asked in the order prefetched: the next one, else a search.
        for (size_t n = 0; n < face->glyph_count; n++) {
            size_t i = (face->cursor + n) % face->glyph_count;
            if (face->glyphs[i].codepoint != codepoint) continue;
            face->cursor = i + 1;
            face->last = i;
            return face->glyphs[i].index;
        }
    }
    media_frame f;
    begin_about(face, &f, LOADERD_MEDIA_FT_GLYPH_INDEX);
    media_frame_u32(&f, codepoint);
    media_reader r;
    unsigned char *owned;
    if (ask_about(face, &f, &r, &owned) != 0) return 0;
    uint32_t index = media_get_u32(&r);
    if (r.failed) { face->failed = 1; index = 0; }
    free(owned);
    return index;
}

int loaderd_ft_render(loaderd_ft_face *face, unsigned index, loaderd_ft_glyph *out) {
    if (face->last < face->glyph_count && face->glyphs[face->last].index == index) {
        const prefetched_glyph *g = &face->glyphs[face->last];
        if (g->error != 0) return g->error;
        out->width = g->width; out->rows = g->rows; out->pitch = g->pitch;
        out->left = g->left; out->top = g->top;
        out->advance64 = (long)g->advance64;
        out->buffer = g->coverage;  // in the kept answer: valid until the face is closed
        return 0;
    }
    media_frame f;
    begin_about(face, &f, LOADERD_MEDIA_FT_RENDER);
    media_frame_u32(&f, index);
    media_reader r;
    unsigned char *owned;
    if (ask_about(face, &f, &r, &owned) != 0) return -1;
    int32_t error = media_get_i32(&r);
    if (r.failed) { free(owned); face->failed = 1; return -1; }
    if (error != 0) { free(owned); return error; }
    int32_t width = media_get_i32(&r), rows = media_get_i32(&r), pitch = media_get_i32(&r);
    out->left = media_get_i32(&r);
    out->top = media_get_i32(&r);
    out->advance64 = (long)media_get_i64(&r);
    // What the Swift side will read: rows × pitch bytes, of which `width` a row.
    int sane = !r.failed && width >= 0 && rows >= 0 && width <= pitch && pitch <= LARGEST_GLYPH && rows <= LARGEST_GLYPH;
    size_t bytes = sane ? (size_t)rows * (size_t)pitch : 0;
    const unsigned char *coverage = sane ? media_get(&r, bytes) : NULL;
    if (!sane || r.failed) { free(owned); face->failed = 1; return -1; }
    if (bytes > face->capacity) {
        unsigned char *grown = realloc(face->bitmap, bytes);
        if (!grown) { free(owned); return -1; }
        face->bitmap = grown;
        face->capacity = bytes;
    }
    if (bytes) memcpy(face->bitmap, coverage, bytes);
    out->width = width;
    out->rows = rows;
    out->pitch = pitch;
    out->buffer = face->bitmap;
    free(owned);
    return 0;
}

long loaderd_ft_kerning(loaderd_ft_face *face, unsigned left, unsigned right) {
    media_frame f;
    begin_about(face, &f, LOADERD_MEDIA_FT_KERNING);
    media_frame_u32(&f, left);
    media_frame_u32(&f, right);
    media_reader r;
    unsigned char *owned;
    if (ask_about(face, &f, &r, &owned) != 0) return 0;
    long kerning = (long)media_get_i64(&r);
    if (r.failed) kerning = 0;
    free(owned);
    return kerning;
}

void loaderd_ft_close(loaderd_ft_face *face) {
    if (!face) return;
    media_frame f;
    begin_about(face, &f, LOADERD_MEDIA_FT_CLOSE);
    media_reader r;
    unsigned char *owned;
    if (ask_about(face, &f, &r, &owned) == 0) free(owned);
    forget_prefetched(face);
    free(face->bitmap);
    free(face);
}

int loaderd_ft_failed(const loaderd_ft_face *face) { return face->failed; }

const char *loaderd_ft_library_problem(void) { return loaderd_media_problem(); }
