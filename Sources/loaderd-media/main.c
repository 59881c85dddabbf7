// loaderd-media: the system's FreeType and libpng for the static loaderd and loaderctl.
//
// The board binaries are static (scripts/cross-build: faster to start, a third of the memory, any C
// library), and a static program cannot load shared libraries. This helper is linked against the
// system's C library instead, opens libfreetype.so.6 and libpng16.so.16 with the same dlopen shims
// the host build uses (Sources/CFreeType, Sources/CPNG/embedded), and answers the static programs'
// calls over the socket they start it with (its standard input), one at a time, in the frames of
// Sources/CMedia/include/loaderd_media.h. It holds faces and images between calls, and exits at the
// end of its input, or after LOADERD_MEDIA_IDLE_MS without a question while it holds none: a boot
// splash needs FreeType once, for a few milliseconds, and should not keep it resident.
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
static png_image images[LOADERD_MEDIA_MAX_OPEN];
static int image_open[LOADERD_MEDIA_MAX_OPEN];

static int held(void) {
    int n = 0;
    for (int i = 0; i < LOADERD_MEDIA_MAX_OPEN; i++) n += (faces[i] != NULL) + image_open[i];
    return n;
}

static loaderd_ft_face *face_at(uint32_t handle) {
    return handle < LOADERD_MEDIA_MAX_OPEN ? faces[handle] : NULL;
}

static png_image *image_at(uint32_t handle) {
    return handle < LOADERD_MEDIA_MAX_OPEN && image_open[handle] ? &images[handle] : NULL;
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
            if (handle == LOADERD_MEDIA_MAX_OPEN) {
                status = LOADERD_FT_NO_MEMORY;
            } else if ((faces[handle] = loaderd_ft_open(library, path, pixel_height, &status, &error))) {
                loaderd_ft_metrics(faces[handle], &ascender, &descender, &line_height);
            }
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
        loaderd_ft_glyph g;
        memset(&g, 0, sizeof g);
        int error = loaderd_ft_render(face, index, &g);
        media_frame_i32(out, error);
        if (error != 0) return 0;
        media_frame_i32(out, g.width);
        media_frame_i32(out, g.rows);
        media_frame_i32(out, g.pitch);
        media_frame_i32(out, g.left);
        media_frame_i32(out, g.top);
        media_frame_i64(out, g.advance64);
        size_t stride = (size_t)(g.pitch < 0 ? -(long)g.pitch : g.pitch);
        if (g.rows > 0 && g.buffer) media_frame_put(out, g.buffer, (size_t)g.rows * stride);
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
    case LOADERD_MEDIA_PNG_BEGIN_READ: {
        uint32_t handle = 0;
        while (handle < LOADERD_MEDIA_MAX_OPEN && image_open[handle]) handle++;
        png_image *image = &images[handle < LOADERD_MEDIA_MAX_OPEN ? handle : 0];
        png_image spare;
        if (handle == LOADERD_MEDIA_MAX_OPEN) image = &spare;
        memset(image, 0, sizeof *image);
        image->version = PNG_IMAGE_VERSION;
        int result = 0;
        if (handle == LOADERD_MEDIA_MAX_OPEN) {
            image->warning_or_error = PNG_IMAGE_ERROR;
            snprintf(image->message, sizeof image->message, "loaderd-media: too many images open");
        } else {
            result = png_image_begin_read_from_memory(image, in->bytes + in->at, in->count - in->at);
            image_open[handle] = result != 0;
        }
        media_frame_i32(out, result);
        media_frame_u32(out, handle);
        media_frame_png_fields(out, image);
        return 0;
    }
    case LOADERD_MEDIA_PNG_FINISH_READ: {
        png_image *image = image_at(media_get_u32(in));
        if (in->failed || !image) return -1;
        media_get_png_fields(in, image);
        int32_t row_stride = media_get_i32(in);
        size_t bytes = media_png_buffer_size(image, row_stride);
        const unsigned char *initial = media_get(in, bytes);
        if (in->failed) return -1;
        unsigned char *pixels = malloc(bytes ? bytes : 1);
        int result = 0;
        if (pixels) {
            memcpy(pixels, initial, bytes);
            result = png_image_finish_read(image, NULL, pixels, row_stride, NULL);
        } else {
            image->warning_or_error = PNG_IMAGE_ERROR;
            snprintf(image->message, sizeof image->message, "loaderd-media: out of memory");
        }
        media_frame_i32(out, result);
        media_frame_png_fields(out, image);
        // The buffer goes back whole, as the caller handed it over (libpng fills it on success).
        media_frame_put(out, pixels ? pixels : initial, bytes);
        free(pixels);
        return 0;
    }
    case LOADERD_MEDIA_PNG_FREE: {
        uint32_t handle = media_get_u32(in);
        png_image *image = image_at(handle);
        if (in->failed || !image) return -1;
        png_image_free(image);
        image_open[handle] = 0;
        return 0;
    }
    case LOADERD_MEDIA_PNG_WRITE: {
        png_image image;
        memset(&image, 0, sizeof image);
        media_get_png_fields(in, &image);
        int32_t convert = media_get_i32(in), row_stride = media_get_i32(in);
        uint64_t capacity = media_get_u64(in);
        size_t bytes = media_png_buffer_size(&image, row_stride);
        const unsigned char *pixels = media_get(in, bytes);
        if (in->failed || capacity > LOADERD_MEDIA_MAX_FRAME) return -1;
        unsigned char *memory = capacity ? malloc((size_t)capacity) : NULL;
        png_alloc_size_t size = (png_alloc_size_t)capacity;
        int result = 0;
        if (capacity && !memory) {
            image.warning_or_error = PNG_IMAGE_ERROR;
            snprintf(image.message, sizeof image.message, "loaderd-media: out of memory");
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
    (void)argv;
    int type = 0;
    socklen_t length = sizeof type;
    if (argc > 1 || getsockopt(0, SOL_SOCKET, SO_TYPE, &type, &length) != 0 || type != SOCK_STREAM) {
        fprintf(stderr, "loaderd-media loads FreeType and libpng for the static loaderd and loaderctl,\n"
                        "which start it themselves when a screen draws text or a PNG file is read or\n"
                        "written. It is not a command.\n");
        return 2;
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
        if (!request || receive_all(request, count) != 0) { free(request); return 1; }
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
        if (media_frame_finish(&out) != 0 || send_all(out.bytes, out.count) != 0) {
            media_frame_free(&out);
            return 1;
        }
        media_frame_free(&out);
    }
}
