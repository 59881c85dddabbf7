// Building and reading the frames of loaderd_media.h, for both ends. A frame under construction
// grows on the heap and refuses to grow past LOADERD_MEDIA_MAX_FRAME; a frame being read is a
// cursor that refuses to run past its end (a short or malformed frame reads as a failure, never as
// memory beyond it). Every size is checked before it is added, so nothing wraps on 32-bit ARM.
#ifndef LOADERD_MEDIA_FRAME_H
#define LOADERD_MEDIA_FRAME_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loaderd_media.h"

/// A frame being built. `bytes` starts with the 4-byte length, filled in by media_frame_finish.
typedef struct {
    unsigned char *bytes;
    size_t count, capacity;
    int failed;  // out of memory or too long: every later put is ignored, and finish reports it
} media_frame;

/// A new frame with room for `expected` bytes after the length (more is grown into).
static inline void media_frame_begin_sized(media_frame *f, size_t expected) {
    f->count = 0; f->failed = 0;
    f->capacity = expected > LOADERD_MEDIA_MAX_FRAME ? 256 : expected + 4;
    if (f->capacity < 256) f->capacity = 256;
    f->bytes = (unsigned char *)calloc(1, f->capacity);
    if (!f->bytes) { f->failed = 1; f->capacity = 0; return; }
    f->count = 4;  // the length's place, written by media_frame_finish
}

static inline void media_frame_begin(media_frame *f) { media_frame_begin_sized(f, 0); }

static inline void media_frame_put(media_frame *f, const void *data, size_t count) {
    if (f->failed || count == 0) return;
    if (count > (size_t)LOADERD_MEDIA_MAX_FRAME + 4 - f->count) { f->failed = 1; return; }
    if (f->count + count > f->capacity) {
        size_t want = f->capacity;
        while (want < f->count + count) want = want > ((size_t)LOADERD_MEDIA_MAX_FRAME + 4) / 2 ? (size_t)LOADERD_MEDIA_MAX_FRAME + 4 : want * 2;
        unsigned char *grown = (unsigned char *)realloc(f->bytes, want);
        if (!grown) { f->failed = 1; return; }
        f->bytes = grown; f->capacity = want;
    }
    memcpy(f->bytes + f->count, data, count);
    f->count += count;
}

static inline void media_frame_u8(media_frame *f, uint8_t v) { media_frame_put(f, &v, 1); }
static inline void media_frame_u32(media_frame *f, uint32_t v) { media_frame_put(f, &v, 4); }
static inline void media_frame_i32(media_frame *f, int32_t v) { media_frame_put(f, &v, 4); }
static inline void media_frame_i64(media_frame *f, int64_t v) { media_frame_put(f, &v, 8); }
static inline void media_frame_u64(media_frame *f, uint64_t v) { media_frame_put(f, &v, 8); }
static inline void media_frame_string(media_frame *f, const char *s) {
    size_t n = s ? strlen(s) : 0;
    if (n > UINT32_MAX) { f->failed = 1; return; }
    media_frame_u32(f, (uint32_t)n);
    media_frame_put(f, s, n);
}

/// Writes the length; 0, or -1 when the frame could not be built (out of memory, too long).
static inline int media_frame_finish(media_frame *f) {
    if (f->failed || !f->bytes) return -1;
    uint32_t length = (uint32_t)(f->count - 4);
    memcpy(f->bytes, &length, 4);
    return 0;
}

static inline void media_frame_free(media_frame *f) { free(f->bytes); f->bytes = NULL; }

/// A received frame (without its length), read front to back.
typedef struct {
    const unsigned char *bytes;
    size_t count, at;
    int failed;  // read past the end: every later get returns 0 and the reader is failed
} media_reader;

static inline const unsigned char *media_get(media_reader *r, size_t count) {
    if (r->failed || count > r->count - r->at) { r->failed = 1; return NULL; }
    const unsigned char *p = r->bytes + r->at;
    r->at += count;
    return p;
}

static inline uint32_t media_get_u32(media_reader *r) { uint32_t v = 0; const unsigned char *p = media_get(r, 4); if (p) memcpy(&v, p, 4); return v; }
static inline int32_t media_get_i32(media_reader *r) { int32_t v = 0; const unsigned char *p = media_get(r, 4); if (p) memcpy(&v, p, 4); return v; }
static inline int64_t media_get_i64(media_reader *r) { int64_t v = 0; const unsigned char *p = media_get(r, 8); if (p) memcpy(&v, p, 8); return v; }
static inline uint64_t media_get_u64(media_reader *r) { uint64_t v = 0; const unsigned char *p = media_get(r, 8); if (p) memcpy(&v, p, 8); return v; }
static inline uint8_t media_get_u8(media_reader *r) { const unsigned char *p = media_get(r, 1); return p ? *p : 0; }

/// A string into a new NUL-terminated copy (free it), or NULL when the frame is short or memory is.
static inline char *media_get_string(media_reader *r) {
    uint32_t n = media_get_u32(r);
    const unsigned char *p = media_get(r, n);
    if (!p) return NULL;
    char *s = (char *)malloc((size_t)n + 1);
    if (!s) { r->failed = 1; return NULL; }
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}

#endif
