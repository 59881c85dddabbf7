// memcmp for the static build, a word at a time. musl's compares one byte a turn, and the
// displays compare every drawn row of a frame with the last one (DirtyRectangle, ShownFrame: up
// to 2 MB a frame on a 1080p screen) and the LED encoders their wire bytes: with musl's, memcmp
// was 42 % of the CPU the x86_64 daemon spent animating a 1080p screen, a third more than with
// glibc's (docs/PERFORMANCE.md, "The static build"). This compares four 8-byte words a turn while
// they are equal and finds the first differing byte otherwise; its result's sign is the standard
// one (the first differing byte, as unsigned char). Only scripts/cross-build compiles this file,
// and its definition replaces musl's in the static link.
#include <stddef.h>
#include <stdint.h>
#include <string.h>

int memcmp(const void *left, const void *right, size_t n);

static inline uint64_t load(const unsigned char *p) {
    uint64_t v;
    __builtin_memcpy(&v, p, 8);  // an unaligned load, no call
    return v;
}

__attribute__((optimize("O2")))
int memcmp(const void *left, const void *right, size_t n) {
    const unsigned char *a = left, *b = right;
    while (n >= 32) {
        uint64_t d = (load(a) ^ load(b)) | (load(a + 8) ^ load(b + 8)) |
                     (load(a + 16) ^ load(b + 16)) | (load(a + 24) ^ load(b + 24));
        if (d) break;
        a += 32; b += 32; n -= 32;
    }
    while (n >= 8 && load(a) == load(b)) { a += 8; b += 8; n -= 8; }
    for (; n; n--, a++, b++) {
        if (*a != *b) return *a < *b ? -1 : 1;
    }
    return 0;
}
