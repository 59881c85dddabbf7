// The four functions of libpng's simplified API that ImageCodecs calls, for the static build: each
// asked of loaderd-media, which runs them against the system's libpng16.so.16
// (Sources/CPNG/embedded/png_dlopen.c). They keep libpng's documented behaviour: an image being
// read lives (in the helper) from begin_read until finish_read or free, and finish_read frees it
// whatever its result. This side's png_image keeps which helper holds it and its handle there in
// `opaque`, never dereferenced here (libpng's own control structure stays in the helper).
#include <png.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loaderd_media.h"
#include "loaderd_media_client.h"
#include "loaderd_media_frame.h"
#include "loaderd_media_png.h"

int loaderd_png_available(void);
const char *loaderd_png_unavailable_reason(void);

/// An error reported the way libpng reports its own, in the image: `reason`, or the helper's.
static int failed(png_imagep image, const char *reason) {
    image->warning_or_error = PNG_IMAGE_ERROR;
    size_t n = strlen(reason);
    if (n > sizeof image->message - 1) n = sizeof image->message - 1;
    memcpy(image->message, reason, n);
    image->message[n] = 0;
    return 0;
}

static int helper_failed(png_imagep image) {
    const char *why = loaderd_media_problem();
    return failed(image, why ? why : "loaderd-media did not answer");
}

// `opaque`: the helper's generation and the image's handle, never 0 while an image is open.
static png_controlp token(unsigned generation, uint32_t handle) {
    return (png_controlp)(uintptr_t)(((uintptr_t)generation << 8) | (handle + 1));
}
static unsigned token_generation(const png_image *image) { return (unsigned)((uintptr_t)image->opaque >> 8); }
static uint32_t token_handle(const png_image *image) { return (uint32_t)(((uintptr_t)image->opaque & 0xFF) - 1); }

int loaderd_png_available(void) {
    media_frame f;
    media_frame_begin(&f);
    media_frame_u8(&f, LOADERD_MEDIA_PNG_AVAILABLE);
    media_reader r;
    unsigned char *owned;
    if (loaderd_media_call(&f, 0, &r, &owned) != 0) return 0;
    int available = media_get_i32(&r) != 0 && !r.failed;
    free(owned);
    return available;
}

const char *loaderd_png_unavailable_reason(void) { return loaderd_media_problem(); }

int png_image_begin_read_from_memory(png_imagep image, png_const_voidp memory, size_t size) {
    image->opaque = NULL;
    media_frame f;
    media_frame_begin_sized(&f, size + 1);
    media_frame_u8(&f, LOADERD_MEDIA_PNG_BEGIN_READ);
    media_frame_put(&f, memory, size);
    media_reader r;
    unsigned char *owned;
    if (loaderd_media_call(&f, 0, &r, &owned) != 0) return helper_failed(image);
    int32_t result = media_get_i32(&r);
    uint32_t handle = media_get_u32(&r);
    media_get_png_fields(&r, image);
    int short_answer = r.failed || handle >= LOADERD_MEDIA_MAX_OPEN;
    free(owned);
    if (short_answer) return failed(image, "loaderd-media's answer was short");
    if (result) image->opaque = token(loaderd_media_generation(), handle);
    return result;
}

/// Whether the `bytes` of a buffer are one pixel of `pixel` bytes repeated (PNG.swift fills the
/// buffer with the background before a read): then one pixel crosses instead of the buffer.
static int uniform(const unsigned char *bytes, size_t count, size_t pixel) {
    if (pixel == 0 || count < pixel || count % pixel != 0) return 0;
    for (size_t at = pixel; at < count; at += pixel)
        if (memcmp(bytes, bytes + at, pixel) != 0) return 0;
    return 1;
}

int png_image_finish_read(png_imagep image, png_const_colorp background, void *buffer,
                          png_int_32 row_stride, void *colormap) {
    if (!image->opaque) return failed(image, "png_image_finish_read without a begun read");
    unsigned generation = token_generation(image);
    uint32_t handle = token_handle(image);
    // As libpng does, the image is freed whatever happens below (the helper frees its side).
    image->opaque = NULL;
    if (background || colormap) return failed(image, "background and colour maps are not passed to loaderd-media");
    size_t bytes = media_png_buffer_size(image, row_stride);
    if (bytes == SIZE_MAX) return failed(image, "the image is too large for loaderd-media");
    size_t pixel = PNG_IMAGE_PIXEL_SIZE(image->format);
    int same = row_stride == 0 && uniform(buffer, bytes, pixel);
    media_frame f;
    media_frame_begin_sized(&f, same ? 256 : bytes + 256);
    media_frame_u8(&f, LOADERD_MEDIA_PNG_FINISH_READ);
    media_frame_u32(&f, handle);
    media_frame_png_fields(&f, image);
    media_frame_i32(&f, row_stride);
    media_frame_u8(&f, (uint8_t)same);
    media_frame_put(&f, buffer, same ? (bytes ? pixel : 0) : bytes);
    media_reader r;
    unsigned char *owned;
    if (loaderd_media_call(&f, generation, &r, &owned) != 0) return helper_failed(image);
    int32_t result = media_get_i32(&r);
    media_get_png_fields(&r, image);
    const unsigned char *pixels = media_get(&r, bytes);
    if (!r.failed && bytes) memcpy(buffer, pixels, bytes);
    int short_answer = r.failed;
    free(owned);
    if (short_answer) return failed(image, "loaderd-media's answer was short");
    return result;
}

void png_image_free(png_imagep image) {
    if (!image->opaque) return;
    unsigned generation = token_generation(image);
    media_frame f;
    media_frame_begin(&f);
    media_frame_u8(&f, LOADERD_MEDIA_PNG_FREE);
    media_frame_u32(&f, token_handle(image));
    image->opaque = NULL;
    media_reader r;
    unsigned char *owned;
    if (loaderd_media_call(&f, generation, &r, &owned) == 0) free(owned);
}

int png_image_write_to_memory(png_imagep image, void *memory, png_alloc_size_t *memory_bytes,
                              int convert_to_8_bit, const void *buffer, png_int_32 row_stride,
                              const void *colormap) {
    if (colormap) { *memory_bytes = 0; return failed(image, "colour maps are not passed to loaderd-media"); }
    size_t bytes = media_png_buffer_size(image, row_stride);
    if (bytes == SIZE_MAX) { *memory_bytes = 0; return failed(image, "the image is too large for loaderd-media"); }
    uint64_t capacity = memory ? (uint64_t)*memory_bytes : 0;
    media_frame f;
    media_frame_begin_sized(&f, bytes + 256);
    media_frame_u8(&f, LOADERD_MEDIA_PNG_WRITE);
    media_frame_png_fields(&f, image);
    media_frame_i32(&f, convert_to_8_bit);
    media_frame_i32(&f, row_stride);
    media_frame_u8(&f, memory != NULL);
    media_frame_u64(&f, capacity);
    media_frame_put(&f, buffer, bytes);
    media_reader r;
    unsigned char *owned;
    if (loaderd_media_call(&f, 0, &r, &owned) != 0) { *memory_bytes = 0; return helper_failed(image); }
    int32_t result = media_get_i32(&r);
    media_get_png_fields(&r, image);
    uint64_t size = media_get_u64(&r);
    if (!r.failed && result && memory) {
        const unsigned char *png = size <= capacity ? media_get(&r, (size_t)size) : NULL;
        if (png) memcpy(memory, png, (size_t)size);
        else r.failed = 1;
    }
    int short_answer = r.failed;
    free(owned);
    if (short_answer) { *memory_bytes = 0; return failed(image, "loaderd-media's answer was short"); }
    *memory_bytes = (png_alloc_size_t)size;
    return result;
}
