// loaderd_freetype.h for the static build: each call asked of loaderd-media, which runs the
// dlopen shim (Sources/CFreeType/freetype_dlopen.c) against the system's FreeType. The Swift side
// (TextFace) is the same in every build. A face lives in the helper; this side keeps its handle,
// its metrics and the last glyph's bitmap (valid until the next call, as FreeType's own is).
#include "loaderd_freetype.h"
#include "loaderd_media.h"
#include "loaderd_media_client.h"
#include "loaderd_media_frame.h"

#include <stdlib.h>
#include <string.h>

struct loaderd_ft_face {
    uint32_t handle;
    int ascender, descender, line_height;
    unsigned char *bitmap;
    size_t capacity;
    int failed;  // the helper stopped while this face was open: every later call fails
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
    if (loaderd_media_call(&f, 1, &r, &owned) != 0) return NULL;
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
    face->handle = handle;
    face->ascender = ascender; face->descender = descender; face->line_height = line_height;
    return face;
}

void loaderd_ft_metrics(const loaderd_ft_face *face, int *ascender, int *descender, int *line_height) {
    *ascender = face->ascender;
    *descender = face->descender;
    *line_height = face->line_height;
}

unsigned loaderd_ft_glyph_index(loaderd_ft_face *face, uint32_t codepoint) {
    if (face->failed) return 0;
    media_frame f;
    media_frame_begin(&f);
    media_frame_u8(&f, LOADERD_MEDIA_FT_GLYPH_INDEX);
    media_frame_u32(&f, face->handle);
    media_frame_u32(&f, codepoint);
    media_reader r;
    unsigned char *owned;
    if (loaderd_media_call(&f, 0, &r, &owned) != 0) { face->failed = 1; return 0; }
    uint32_t index = media_get_u32(&r);
    if (r.failed) { face->failed = 1; index = 0; }
    free(owned);
    return index;
}

int loaderd_ft_render(loaderd_ft_face *face, unsigned index, loaderd_ft_glyph *out) {
    if (face->failed) return -1;
    media_frame f;
    media_frame_begin(&f);
    media_frame_u8(&f, LOADERD_MEDIA_FT_RENDER);
    media_frame_u32(&f, face->handle);
    media_frame_u32(&f, index);
    media_reader r;
    unsigned char *owned;
    if (loaderd_media_call(&f, 0, &r, &owned) != 0) { face->failed = 1; return -1; }
    int32_t error = media_get_i32(&r);
    if (error != 0 || r.failed) { free(owned); if (r.failed) face->failed = 1; return r.failed ? -1 : error; }
    out->width = media_get_i32(&r);
    out->rows = media_get_i32(&r);
    out->pitch = media_get_i32(&r);
    out->left = media_get_i32(&r);
    out->top = media_get_i32(&r);
    out->advance64 = (long)media_get_i64(&r);
    size_t stride = (size_t)(out->pitch < 0 ? -(long)out->pitch : out->pitch);
    size_t bytes = out->rows > 0 ? (size_t)out->rows * stride : 0;
    const unsigned char *coverage = media_get(&r, bytes);
    if (r.failed || out->rows < 0 || out->width < 0) { free(owned); face->failed = 1; return -1; }
    if (bytes > face->capacity) {
        unsigned char *grown = realloc(face->bitmap, bytes);
        if (!grown) { free(owned); return -1; }
        face->bitmap = grown;
        face->capacity = bytes;
    }
    if (bytes) memcpy(face->bitmap, coverage, bytes);
    out->buffer = face->bitmap;
    free(owned);
    return 0;
}

long loaderd_ft_kerning(loaderd_ft_face *face, unsigned left, unsigned right) {
    if (face->failed) return 0;
    media_frame f;
    media_frame_begin(&f);
    media_frame_u8(&f, LOADERD_MEDIA_FT_KERNING);
    media_frame_u32(&f, face->handle);
    media_frame_u32(&f, left);
    media_frame_u32(&f, right);
    media_reader r;
    unsigned char *owned;
    if (loaderd_media_call(&f, 0, &r, &owned) != 0) { face->failed = 1; return 0; }
    long kerning = (long)media_get_i64(&r);
    if (r.failed) kerning = 0;
    free(owned);
    return kerning;
}

void loaderd_ft_close(loaderd_ft_face *face) {
    if (!face) return;
    if (!face->failed) {
        media_frame f;
        media_frame_begin(&f);
        media_frame_u8(&f, LOADERD_MEDIA_FT_CLOSE);
        media_frame_u32(&f, face->handle);
        media_reader r;
        unsigned char *owned;
        if (loaderd_media_call(&f, 0, &r, &owned) == 0) free(owned);
    }
    free(face->bitmap);
    free(face);
}

int loaderd_ft_failed(const loaderd_ft_face *face) { return face->failed; }

const char *loaderd_ft_library_problem(void) { return loaderd_media_problem(); }
