/* The peer for the LinkedIn frame: the same picture drawn with cairo, for instruction counts and
 * time beside loaderd's renderer (scripts/peer-cairo.sh, docs/PERFORMANCE.md).
 *
 *   cairo-linkedin WIDTHxHEIGHT FRAMES [--ppm FILE]
 *
 * Draws one warm-up frame, then FRAMES frames 1/60 s apart, as Benchmarks/Tools/FrameCost does
 * for `linkedin`: clear to transparent, a capsule track (gray at 50 %), and a half-width fill
 * (blue) whose centre sweeps on cubic-bezier(0.6, 0, 0.4, 1) over 0.85 s and back, clipped to the
 * track's rounded rectangle. The layout is loaderd's for a bar (see main). One surface and one
 * cairo_t for the whole run, as loaderd keeps one canvas: per frame only drawing is counted.
 * Prints the time per frame (CLOCK_MONOTONIC) and a checksum so nothing is optimised away;
 * `--ppm FILE` writes the last frame over black, to set beside `loaderctl render linkedin --size
 * WIDTHxHEIGHT --at T` for T = (FRAMES - 1) / 60 s (16,667 µs a frame). */
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

/* y of cubic-bezier(x1, y1, x2, y2) at x, by bisection on the curve's parameter (as CSS does,
 * to a tolerance far below a pixel at these sizes). */
static double bezier(double x1, double y1, double x2, double y2, double x) {
    double lo = 0, hi = 1, t = x;
    for (int i = 0; i < 40; i++) {
        t = (lo + hi) / 2;
        double u = 1 - t, bx = 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t;
        if (bx < x) lo = t; else hi = t;
    }
    double u = 1 - t;
    return 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t;
}

static void rounded(cairo_t *cr, double x, double y, double w, double h, double r) {
    if (r > w / 2) r = w / 2;
    if (r > h / 2) r = h / 2;
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + w - r, y + r, r, -M_PI / 2, 0);
    cairo_arc(cr, x + w - r, y + h - r, r, 0, M_PI / 2);
    cairo_arc(cr, x + r, y + h - r, r, M_PI / 2, M_PI);
    cairo_arc(cr, x + r, y + r, r, M_PI, 3 * M_PI / 2);
    cairo_close_path(cr);
}

int main(int argc, char **argv) {
    int width, height;
    if ((argc != 3 && !(argc == 5 && strcmp(argv[3], "--ppm") == 0))
        || sscanf(argv[1], "%dx%d", &width, &height) != 2 || width < 1 || height < 1) {
        fprintf(stderr, "usage: cairo-linkedin WIDTHxHEIGHT FRAMES [--ppm FILE]\n");
        return 2;
    }
    long frames = atol(argv[2]);
    /* loaderd's layout for a bar (Scene.placement): on a strip (at most 16 rows) Layout.stretch,
     * the whole canvas with the radius following the height; otherwise Layout.fit, 100 x 10
     * design units fitted into the canvas. Screens (320 x 200 and up) lay out a boot screen
     * around the bar, which this program does not. */
    if (width >= 320 && height >= 200) {
        fprintf(stderr, "cairo-linkedin: %dx%d is a screen; loaderd lays out a boot screen there\n", width, height);
        return 2;
    }
    long w, h;
    if ((long)width * 10 <= (long)height * 100) { w = width; h = (width * 10L + 50) / 100; if (h < 1) h = 1; }
    else { h = height; w = (height * 100L + 5) / 10; if (w < 1) w = 1; }
    if (w > width) w = width;
    if (h > height) h = height;
    double scale = fmin((double)w / 100, (double)h / 10);
    if (height <= 16) {
        w = width;
        h = h > w / 2 ? h : w / 2;
        if (h > height) h = height;
        if (h < 1) h = 1;
        scale = (double)h / 10;
    }
    double ax = (width - w) / 2, ay = (height - h) / 2, radius = 5 * scale;

    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    cairo_t *cr = cairo_create(surface);
    unsigned checksum = 0;
    struct timespec start, end;
    for (long i = -1; i < frames; i++) {
        if (i == 0) clock_gettime(CLOCK_MONOTONIC, &start);
        long t = i < 0 ? 0 : i * 16667, d = 850000, c = t % (2 * d);
        double fraction = bezier(0.6, 0, 0.4, 1, c <= d ? (double)c / d : (double)(2 * d - c) / d);

        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
        cairo_paint(cr);
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
        rounded(cr, ax, ay, w, h, radius);
        cairo_set_source_rgba(cr, 0x8E / 255.0, 0x8E / 255.0, 0x93 / 255.0, 0.5);
        cairo_fill(cr);
        double centre = ax + w * fraction, half = w / 2.0;
        cairo_save(cr);
        rounded(cr, ax, ay, w, h, radius);
        cairo_clip(cr);
        rounded(cr, centre - half / 2, ay, half, h, radius);
        cairo_set_source_rgb(cr, 0x00 / 255.0, 0x7A / 255.0, 0xFF / 255.0);
        cairo_fill(cr);
        cairo_restore(cr);

        cairo_surface_flush(surface);
        if (i >= 0) checksum += cairo_image_surface_get_data(surface)[(i * 7 * 4) % (width * height * 4) + 3];
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double ns = frames > 0 ? ((end.tv_sec - start.tv_sec) * 1e9 + (end.tv_nsec - start.tv_nsec)) / frames : 0;
    printf("cairo linkedin %dx%d %ld frames, %.0f ns/frame, checksum %u\n", width, height, frames, ns, checksum);
    if (argc == 5) {
        /* The last frame over black, to compare with `loaderctl render` (premultiplied ARGB32:
         * the colour bytes are the picture over black). */
        FILE *f = fopen(argv[4], "wb");
        if (!f) { perror(argv[4]); return 1; }
        fprintf(f, "P6\n%d %d\n255\n", width, height);
        unsigned char *data = cairo_image_surface_get_data(surface);
        int stride = cairo_image_surface_get_stride(surface);
        for (int y = 0; y < height; y++)
            for (int x = 0; x < width; x++) {
                uint32_t p = *(uint32_t *)(data + y * stride + x * 4);
                fputc((p >> 16) & 255, f); fputc((p >> 8) & 255, f); fputc(p & 255, f);
            }
        fclose(f);
    }
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    return 0;
}
