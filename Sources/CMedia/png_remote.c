// The four functions of libpng's simplified API that ImageCodecs calls, for the static build: each
// asked of loaderd-media, which runs them against the system's libpng16.so.16
// (Sources/CPNG/embedded/png_dlopen.c). An image being read lives in the helper between
// begin_read and free; this side's png_image keeps its handle in `opaque` (never dereferenced
// here: libpng's own control structure stays in the helper).
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

/// An error reported the way libpng reports its own: in the image, with the helper's reason.
static int failed(png_imagep image, const char *fallback) {
    const char *why = loaderd_media_problem();
    image->warning_or_error = PNG_IMAGE_ERROR;
    const char *text = why ? why : fallback;
    size_t n = strlen(text);
    if (n > sizeof image->message - 1) n = sizeof image->message - 1;
    memcpy(image->message, text, n);
    image->message[n] = 0;
    return 0;
}


int loaderd_png_available(void) {
    media_frame f;
    media_frame_begin(&f);
    media_frame_u8(&f, LOADERD_MEDIA_PNG_AVAILABLE);
    media_reader r;
    unsigned char *owned;
    if (loaderd_media_call(&f, 1, &r, &owned) != 0) return 0;
    int available = media_get_i32(&r) != 0 && !r.failed;
    free(owned);
    return available;
}

const char *loaderd_png_unavailable_reason(void) { return loaderd_media_problem(); }

int png_image_begin_read_from_memory(png_imagep image, png_const_voidp memory, size_t size) {
    image->opaque = NULL;
    media_frame f;
    media_frame_begin(&f);
    media_frame_u8(&f, LOADERD_MEDIA_PNG_BEGIN_READ);
    media_frame_put(&f, memory, size);
    media_reader r;
    unsigned char *owned;
    if (loaderd_media_call(&f, 1, &r, &owned) != 0) return failed(image, "loaderd-media did not answer");
    int32_t result = media_get_i32(&r);
    uint32_t handle = media_get_u32(&r);
    media_get_png_fields(&r, image);
    int short_answer = r.failed;
    free(owned);
    if (short_answer) return failed(image, "loaderd-media's answer was short");
    if (result) image->opaque = (png_controlp)(uintptr_t)(handle + 1);
    return result;
}

int png_image_finish_read(png_imagep image, png_const_colorp background, void *buffer,
                          png_int_32 row_stride, void *colormap) {
    if (!image->opaque) return failed(image, "png_image_finish_read without a begun read");
    if (background || colormap) return failed(image, "background and colour maps are not passed to loaderd-media");
    size_t bytes = media_png_buffer_size(image, row_stride);
    media_frame f;
    media_frame_begin(&f);
    media_frame_u8(&f, LOADERD_MEDIA_PNG_FINISH_READ);
    media_frame_u32(&f, (uint32_t)((uintptr_t)image->opaque - 1));
    media_frame_png_fields(&f, image);
    media_frame_i32(&f, row_stride);
    media_frame_put(&f, buffer, bytes);
    media_reader r;
    unsigned char *owned;
    if (loaderd_media_call(&f, 0, &r, &owned) != 0) return failed(image, "loaderd-media did not answer");
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
    media_frame f;
    media_frame_begin(&f);
    media_frame_u8(&f, LOADERD_MEDIA_PNG_FREE);
    media_frame_u32(&f, (uint32_t)((uintptr_t)image->opaque - 1));
    image->opaque = NULL;
    media_reader r;
    unsigned char *owned;
    if (loaderd_media_call(&f, 0, &r, &owned) == 0) free(owned);
}

int png_image_write_to_memory(png_imagep image, void *memory, png_alloc_size_t *memory_bytes,
                              int convert_to_8_bit, const void *buffer, png_int_32 row_stride,
                              const void *colormap) {
    if (colormap) return failed(image, "colour maps are not passed to loaderd-media");
    size_t bytes = media_png_buffer_size(image, row_stride);
    uint64_t capacity = memory ? (uint64_t)*memory_bytes : 0;
    media_frame f;
    media_frame_begin(&f);
    media_frame_u8(&f, LOADERD_MEDIA_PNG_WRITE);
    media_frame_png_fields(&f, image);
    media_frame_i32(&f, convert_to_8_bit);
    media_frame_i32(&f, row_stride);
    media_frame_u64(&f, capacity);
    media_frame_put(&f, buffer, bytes);
    media_reader r;
    unsigned char *owned;
    if (loaderd_media_call(&f, 1, &r, &owned) != 0) { *memory_bytes = 0; return failed(image, "loaderd-media did not answer"); }
    int32_t result = media_get_i32(&r);
    media_get_png_fields(&r, image);
    uint64_t size = media_get_u64(&r);
    if (!r.failed && result && memory) {
        const unsigned char *png = media_get(&r, (size_t)size);
        if (!r.failed && size <= capacity) memcpy(memory, png, (size_t)size);
        else r.failed = 1;
    }
    int short_answer = r.failed;
    free(owned);
    if (short_answer) { *memory_bytes = 0; return failed(image, "loaderd-media's answer was short"); }
    *memory_bytes = (png_alloc_size_t)size;
    return result;
}
