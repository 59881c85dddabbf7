// A png_image as it crosses between the static programs and loaderd-media (loaderd_media.h), for
// both ends: its fields but the `opaque` pointer, which each side keeps for itself.
#ifndef LOADERD_MEDIA_PNG_H
#define LOADERD_MEDIA_PNG_H
#include <png.h>
#include <stdint.h>
#include <string.h>

#include "loaderd_media_frame.h"

static inline void media_frame_png_fields(media_frame *f, const png_image *image) {
    media_frame_u32(f, image->version);
    media_frame_u32(f, image->width);
    media_frame_u32(f, image->height);
    media_frame_u32(f, image->format);
    media_frame_u32(f, image->flags);
    media_frame_u32(f, image->colormap_entries);
    media_frame_u32(f, image->warning_or_error);
    media_frame_put(f, image->message, sizeof image->message);
}

/// Reads the fields into `image`, keeping its `opaque`; leaves it as it was on a short frame.
static inline void media_get_png_fields(media_reader *r, png_image *image) {
    png_image got = *image;
    got.version = media_get_u32(r);
    got.width = media_get_u32(r);
    got.height = media_get_u32(r);
    got.format = media_get_u32(r);
    got.flags = media_get_u32(r);
    got.colormap_entries = media_get_u32(r);
    got.warning_or_error = media_get_u32(r);
    const unsigned char *message = media_get(r, sizeof got.message);
    if (r->failed) return;
    memcpy(got.message, message, sizeof got.message);
    got.message[sizeof got.message - 1] = 0;
    *image = got;
}

/// The bytes of `image`'s pixel buffer with `row_stride` (0: rows packed), as libpng counts them;
/// SIZE_MAX when that is more than a frame can carry (or than size_t holds, on 32-bit ARM).
static inline size_t media_png_buffer_size(const png_image *image, png_int_32 row_stride) {
    uint64_t stride = row_stride == 0 ? (uint64_t)PNG_IMAGE_PIXEL_CHANNELS(image->format) * image->width
                                      : (uint64_t)(row_stride < 0 ? -(int64_t)row_stride : row_stride);
    uint64_t bytes = (uint64_t)PNG_IMAGE_PIXEL_COMPONENT_SIZE(image->format) * stride;
    if (image->height != 0 && bytes > (uint64_t)LOADERD_MEDIA_MAX_FRAME / image->height) return SIZE_MAX;
    bytes *= image->height;
    return bytes > LOADERD_MEDIA_MAX_FRAME ? SIZE_MAX : (size_t)bytes;
}

#endif
