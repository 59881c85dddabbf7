// loaderd-media: the system's FreeType and libpng for the static loaderd and loaderctl.
//
// The board binaries are static (scripts/cross-build: faster to start, a third of the memory, any C
// library), and a static program cannot load shared libraries. This helper is linked against the
// system's C library instead, opens libfreetype.so.6 and libpng16.so.16 with the same dlopen shims
// the host build uses (Sources/CFreeType, Sources/CPNG/embedded), and answers the static programs'
// calls over the socket they start it with (its standard input), one at a time, in the frames of
// Sources/CMedia/include/loaderd_media.h. It holds faces and images between calls (and a read
// image's file bytes: libpng reads them again at finish_read), and exits at the end of its input,
// or after LOADERD_MEDIA_IDLE_MS without a question while it holds none: a boot splash needs
// FreeType once, for a few milliseconds, and should not keep it resident.
//
// It is not a command: run by hand, it says what it is and exits with 2.
#include <errno.h>
#include <png.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "loaderd_freetype.h"
#include "loaderd_media.h"
#include "loaderd_media_frame.h"
#include "loaderd_media_png.h"

int loaderd_png_available(void);  // Sources/CPNG/embedded/png_dlopen.c

static loaderd_ft_face *faces[LOADERD_MEDIA_MAX_OPEN];
static struct {
    int open;
    png_image image;
    unsigned char *file;  // the PNG's bytes: libpng reads from them until the image is finished
} images[LOADERD_MEDIA_MAX_OPEN];

static int held(void) {
    int n = 0;
    for (int i = 0; i < LOADERD_MEDIA_MAX_OPEN; i++) n += (faces[i] != NULL) + images[i].open;
    return n;
}

static loaderd_ft_face *face_at(uint32_t handle) {
    return handle < LOADERD_MEDIA_MAX_OPEN ? faces[handle] : NULL;
}

static int image_open(uint32_t handle) { return handle < LOADERD_MEDIA_MAX_OPEN && images[handle].open; }

static void image_close(uint32_t handle) {
    png_image_free(&images[handle].image);
    free(images[handle].file);
    images[handle].file = NULL;
    images[handle].open = 0;
}

static void image_error(png_image *image, const char *message) {
    image->warning_or_error = PNG_IMAGE_ERROR;
    snprintf(image->message, sizeof image->message, "loaderd-media: %s", message);
}

static int answer_png_begin_read(media_reader *in, media_frame *out) {
    uint32_t handle = 0;
    while (handle < LOADERD_MEDIA_MAX_OPEN && images[handle].open) handle++;
    png_image spare;
    png_image *image = handle < LOADERD_MEDIA_MAX_OPEN ? &images[handle].image : &spare;
    memset(image, 0, sizeof *image);
    image->version = PNG_IMAGE_VERSION;
    size_t size = in->count - in->at;
    int result = 0;
    if (handle == LOADERD_MEDIA_MAX_OPEN) {
        image_error(image, "too many images open");
    } else if (!(images[handle].file = malloc(size ? size : 1))) {
        image_error(image, "out of memory");
    } else {
        memcpy(images[handle].file, in->bytes + in->at, size);
        result = png_image_begin_read_from_memory(image, images[handle].file, size);
        images[handle].open = result != 0;
        if (!result) { free(images[handle].file); images[handle].file = NULL; }
    }
    media_frame_i32(out, result);
    media_frame_u32(out, handle);
    media_frame_png_fields(out, image);
    return 0;
}

static int answer_png_finish_read(media_reader *in, media_frame *out) {
    uint32_t handle = media_get_u32(in);
    if (in->failed || !image_open(handle)) return -1;
    png_image *image = &images[handle].image;
    media_get_png_fields(in, image);
    int32_t row_stride = media_get_i32(in);
    int same = media_get_u8(in);
    size_t bytes = media_png_buffer_size(image, row_stride), pixel = PNG_IMAGE_PIXEL_SIZE(image->format);
    const unsigned char *initial = bytes == SIZE_MAX ? NULL : media_get(in, same ? (bytes ? pixel : 0) : bytes);
    if (in->failed || bytes == SIZE_MAX) { image_close(handle); return -1; }
    unsigned char *pixels = malloc(bytes ? bytes : 1);
    int result = 0;
    if (pixels) {
        if (same) for (size_t at = 0; pixel && at + pixel <= bytes; at += pixel) memcpy(pixels + at, initial, pixel);
        else memcpy(pixels, initial, bytes);
        result = png_image_finish_read(image, NULL, pixels, row_stride, NULL);
    }
    media_frame_i32(out, result);
    media_frame_png_fields(out, image);
    image_close(handle);  // libpng frees the image whatever the result: so does the slot
    if (!pixels) return -1;  // no memory for the buffer: the conversation ends, the program says so
    // The buffer goes back whole: filled on success, as far as libpng got otherwise.
    media_frame_put(out, pixels, bytes);
    free(pixels);
    return 0;
}

static int answer_png_write(media_reader *in, media_frame *out) {
    png_image image;
    memset(&image, 0, sizeof image);
    media_get_png_fields(in, &image);
    int32_t convert = media_get_i32(in), row_stride = media_get_i32(in);
    int with_memory = media_get_u8(in);
    uint64_t capacity = media_get_u64(in);
    size_t bytes = media_png_buffer_size(&image, row_stride);
    const unsigned char *pixels = bytes == SIZE_MAX ? NULL : media_get(in, bytes);
    if (in->failed || bytes == SIZE_MAX) return -1;
    // The answer must fit a frame: a PNG larger than that is "memory too small", as libpng says.
    if (capacity > LOADERD_MEDIA_MAX_FRAME - 4096) capacity = LOADERD_MEDIA_MAX_FRAME - 4096;
    unsigned char *memory = with_memory ? malloc(capacity ? (size_t)capacity : 1) : NULL;
    png_alloc_size_t size = (png_alloc_size_t)capacity;
    int result = 0;
    if (with_memory && !memory) {
        image_error(&image, "out of memory");
        size = 0;
    } else {
        result = png_image_write_to_memory(&image, memory, &size, convert, pixels, row_stride, NULL);
    }
    media_frame_i32(out, result);
    media_frame_png_fields(out, &image);
    media_frame_u64(out, size);
    if (result && memory) media_frame_put(out, memory, size);
    free(memory);
    return 0;
}

/// Glyph `index` rendered, as LOADERD_MEDIA_FT_RENDER answers it.
static void put_rendered(loaderd_ft_face *face, uint32_t index, media_frame *out) {
    loaderd_ft_glyph g;
    memset(&g, 0, sizeof g);
    int error = loaderd_ft_render(face, index, &g);
    // The protocol carries top-down bitmaps only (FreeType's rendered glyphs are).
    if (error == 0 && (g.pitch < g.width || g.rows < 0 || (g.rows > 0 && !g.buffer))) error = -2;
    media_frame_i32(out, error);
    if (error != 0) return;
    media_frame_i32(out, g.width);
    media_frame_i32(out, g.rows);
    media_frame_i32(out, g.pitch);
    media_frame_i32(out, g.left);
    media_frame_i32(out, g.top);
    media_frame_i64(out, g.advance64);
    if (g.rows > 0) media_frame_put(out, g.buffer, (size_t)g.rows * (size_t)g.pitch);
}

/// Answers one request into `out`; -1 for a request that cannot be read (the conversation ends).
static int answer(media_reader *in, media_frame *out) {
    uint8_t operation = media_get_u8(in);
    switch (operation) {
    case LOADERD_MEDIA_FT_OPEN: {
        int32_t pixel_height = media_get_i32(in);
        char *library = media_get_string(in), *path = media_get_string(in);
        int status = LOADERD_FT_NO_MEMORY, error = 0, ascender = 0, descender = 0, line_height = 0;
        uint32_t handle = 0;
        if (library && path) {
            while (handle < LOADERD_MEDIA_MAX_OPEN && faces[handle]) handle++;
            if (handle < LOADERD_MEDIA_MAX_OPEN && (faces[handle] = loaderd_ft_open(library, path, pixel_height, &status, &error)))
                loaderd_ft_metrics(faces[handle], &ascender, &descender, &line_height);
        }
        free(library);
        free(path);
        if (in->failed) return -1;
        media_frame_i32(out, status);
        media_frame_i32(out, error);
        media_frame_u32(out, handle);
        media_frame_i32(out, ascender);
        media_frame_i32(out, descender);
        media_frame_i32(out, line_height);
        return 0;
    }
    case LOADERD_MEDIA_FT_GLYPH_INDEX: {
        loaderd_ft_face *face = face_at(media_get_u32(in));
        uint32_t codepoint = media_get_u32(in);
        if (in->failed || !face) return -1;
        media_frame_u32(out, loaderd_ft_glyph_index(face, codepoint));
        return 0;
    }
    case LOADERD_MEDIA_FT_RENDER: {
        loaderd_ft_face *face = face_at(media_get_u32(in));
        uint32_t index = media_get_u32(in);
        if (in->failed || !face) return -1;
        put_rendered(face, index, out);
        return 0;
    }
    case LOADERD_MEDIA_FT_RENDER_MANY: {
        loaderd_ft_face *face = face_at(media_get_u32(in));
        uint32_t count = media_get_u32(in);
        if (in->failed || !face || count > LOADERD_MEDIA_MAX_PREFETCH) return -1;
        media_frame_u32(out, count);
        for (uint32_t i = 0; i < count; i++) {
            uint32_t codepoint = media_get_u32(in);
            if (in->failed) return -1;
            uint32_t index = loaderd_ft_glyph_index(face, codepoint);
            media_frame_u32(out, codepoint);
            media_frame_u32(out, index);
            if (index != 0 || codepoint == 0xFFFD) put_rendered(face, index, out);
        }
        return 0;
    }
    case LOADERD_MEDIA_FT_KERNING: {
        loaderd_ft_face *face = face_at(media_get_u32(in));
        uint32_t left = media_get_u32(in), right = media_get_u32(in);
        if (in->failed || !face) return -1;
        media_frame_i64(out, loaderd_ft_kerning(face, left, right));
        return 0;
    }
    case LOADERD_MEDIA_FT_CLOSE: {
        uint32_t handle = media_get_u32(in);
        if (in->failed || !face_at(handle)) return -1;
        loaderd_ft_close(faces[handle]);
        faces[handle] = NULL;
        return 0;
    }
    case LOADERD_MEDIA_PNG_AVAILABLE:
        media_frame_i32(out, loaderd_png_available());
        return 0;
    case LOADERD_MEDIA_PNG_BEGIN_READ:
        return answer_png_begin_read(in, out);
    case LOADERD_MEDIA_PNG_FINISH_READ:
        return answer_png_finish_read(in, out);
    case LOADERD_MEDIA_PNG_FREE: {
        uint32_t handle = media_get_u32(in);
        if (in->failed || !image_open(handle)) return -1;
        image_close(handle);
        return 0;
    }
    case LOADERD_MEDIA_PNG_WRITE:
        return answer_png_write(in, out);
    default:
        return -1;
    }
}

static int receive_all(unsigned char *bytes, size_t count) {
    while (count > 0) {
        ssize_t n = recv(0, bytes, count, 0);
        if (n > 0) { bytes += n; count -= (size_t)n; continue; }
        if (n < 0 && errno == EINTR) continue;
        return -1;
    }
    return 0;
}

static int send_all(const unsigned char *bytes, size_t count) {
    while (count > 0) {
        ssize_t n = send(0, bytes, count, MSG_NOSIGNAL);
        if (n > 0) { bytes += n; count -= (size_t)n; continue; }
        if (n < 0 && errno == EINTR) continue;
        return -1;
    }
    return 0;
}

int main(int argc, char **argv) {
    int type = 0;
    socklen_t length = sizeof type;
    if (argc != 2 || getsockopt(0, SOL_SOCKET, SO_TYPE, &type, &length) != 0 || type != SOCK_STREAM) {
        fprintf(stderr, "loaderd-media loads FreeType and libpng for the static loaderd and loaderctl,\n"
                        "which start it themselves when a screen draws text or a PNG file is read or\n"
                        "written. It is not a command.\n");
        return 2;
    }
    if (strcmp(argv[1], LOADERD_MEDIA_PROTOCOL) != 0) {
        fprintf(stderr, "loaderd-media: asked for protocol %s, speaks %s: loaderd and loaderd-media are from "
                        "different versions (reinstall loaderd)\n", argv[1], LOADERD_MEDIA_PROTOCOL);
        return LOADERD_MEDIA_EXIT_VERSION;
    }
    for (;;) {
        struct pollfd p = {0, POLLIN, 0};
        int r = poll(&p, 1, held() ? -1 : LOADERD_MEDIA_IDLE_MS);
        if (r == 0) return 0;                   // idle, holding nothing: the next question starts a new one
        if (r < 0) { if (errno == EINTR) continue; return 1; }
        uint32_t count;
        if (receive_all((unsigned char *)&count, 4) != 0) return 0;   // the program is done
        if (count == 0 || count > LOADERD_MEDIA_MAX_FRAME) {
            fprintf(stderr, "loaderd-media: a request of %u bytes; ending\n", count);
            return 1;
        }
        unsigned char *request = malloc(count);
        if (!request) { fprintf(stderr, "loaderd-media: no memory for a request of %u bytes; ending\n", count); return 1; }
        if (receive_all(request, count) != 0) { free(request); return 1; }
        media_reader in = {request, count, 0, 0};
        media_frame out;
        media_frame_begin(&out);
        int understood = answer(&in, &out);
        free(request);
        if (understood != 0) {
            fprintf(stderr, "loaderd-media: a request it cannot read (operation or handle); ending\n");
            media_frame_free(&out);
            return 1;
        }
        if (media_frame_finish(&out) != 0) {
            fprintf(stderr, "loaderd-media: no memory for an answer, or an answer over the protocol's limit; ending\n");
            media_frame_free(&out);
            return 1;
        }
        int sent = send_all(out.bytes, out.count);
        media_frame_free(&out);
        if (sent != 0) return 1;
    }
}
