// libpng for loaderd-media (Sources/loaderd-media), loaded when first used instead of linked in.
//
// The static board binaries cannot load shared libraries; they ask loaderd-media, which links this
// file: the four functions of libpng's simplified API that ImageCodecs calls, each forwarding to
// the system's libpng16.so.16 opened on first use. Loaded rather than linked, so that the helper
// starts (and serves FreeType) on a system without libpng16, and says so when a PNG is asked for:
// PNG.swift asks `loaderd_png_available()` first and reports a clear error when the library is
// missing. The host build links libpng directly and never compiles this file.
#include <dlfcn.h>
#include <stddef.h>
#include <png.h>

static void *library;
static int tried;

static void *symbol(const char *name) {
    if (!tried) {
        tried = 1;
        library = dlopen("libpng16.so.16", RTLD_NOW | RTLD_LOCAL);
    }
    return library ? dlsym(library, name) : NULL;
}

int loaderd_png_available(void) { return symbol("png_image_free") != NULL; }

int png_image_begin_read_from_memory(png_imagep image, png_const_voidp memory, size_t size) {
    int (*f)(png_imagep, png_const_voidp, size_t) = symbol("png_image_begin_read_from_memory");
    return f ? f(image, memory, size) : 0;
}

int png_image_finish_read(png_imagep image, png_const_colorp background, void *buffer,
                          png_int_32 row_stride, void *colormap) {
    int (*f)(png_imagep, png_const_colorp, void *, png_int_32, void *) = symbol("png_image_finish_read");
    return f ? f(image, background, buffer, row_stride, colormap) : 0;
}

void png_image_free(png_imagep image) {
    void (*f)(png_imagep) = symbol("png_image_free");
    if (f) f(image);
}

int png_image_write_to_memory(png_imagep image, void *memory, png_alloc_size_t *memory_bytes,
                              int convert_to_8_bit, const void *buffer, png_int_32 row_stride,
                              const void *colormap) {
    int (*f)(png_imagep, void *, png_alloc_size_t *, int, const void *, png_int_32, const void *) =
        symbol("png_image_write_to_memory");
    return f ? f(image, memory, memory_bytes, convert_to_8_bit, buffer, row_stride, colormap) : 0;
}
