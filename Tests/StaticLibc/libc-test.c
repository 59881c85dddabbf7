// The C library functions the static build brings itself (Sources/CLinux/embedded: memcmp, the
// ARM EABI memory helpers, strerror's texts), checked where they ship: scripts/cross-test builds
// this against each target's musl with those files and runs it under qemu-user. Each result is
// compared with a byte-at-a-time reference over random buffers, every length from 0 to 300 and
// every alignment, with the first difference anywhere (or none). Prints "ok" lines and exits 0.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *loaderd_strerror(int e);
int loaderd_gpiod_snprintf(char *out, size_t size, const char *format, ...);
int loaderd_gpiod_asprintf(char **out, const char *format, ...);

static int reference_compare(const unsigned char *a, const unsigned char *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

static int sign(int v) { return (v > 0) - (v < 0); }

static unsigned state = 12345;
static unsigned char next_byte(void) { state = state * 1103515245u + 12345u; return (unsigned char)(state >> 16); }

int main(void) {
    static unsigned char a[400], b[400];
    long checked = 0;
    for (size_t length = 0; length <= 300; length++) {
        for (size_t offset = 0; offset < 8; offset++) {
            for (size_t i = 0; i < sizeof a; i++) a[i] = b[i] = next_byte();
            // No difference, then one at each place (both ways round, and a high byte against a low one).
            for (long at = -1; at < (long)length; at++) {
                if (at >= 0) b[offset + (size_t)at] = (unsigned char)(a[offset + (size_t)at] ^ (at % 3 == 0 ? 0x80 : 0x01));
                int got = sign(memcmp(a + offset, b + offset, length)), want = reference_compare(a + offset, b + offset, length);
                int got2 = sign(memcmp(b + offset, a + offset, length)), want2 = reference_compare(b + offset, a + offset, length);
                if (got != want || got2 != want2) {
                    printf("FAIL memcmp: length %zu offset %zu difference at %ld: %d %d, want %d %d\n", length, offset, at, got, got2, want, want2);
                    return 1;
                }
                if (at >= 0) b[offset + (size_t)at] = a[offset + (size_t)at];
                checked++;
            }
        }
    }
    printf("ok   memcmp: %ld comparisons equal the reference\n", checked);

    // memcpy, memmove and memset as the compiler calls them (on ARM: __aeabi_memcpy8 and friends).
    static unsigned char from[300], to[300], expect[300];
    for (size_t n = 0; n < 256; n++) {
        for (size_t i = 0; i < sizeof from; i++) { from[i] = next_byte(); to[i] = expect[i] = 0; }
        memcpy(to + 8, from + 8, n);
        for (size_t i = 0; i < n; i++) expect[8 + i] = from[8 + i];
        if (memcmp(to, expect, sizeof to) != 0) { printf("FAIL memcpy of %zu bytes\n", n); return 1; }
        memset(to + 8, 0xA5, n);
        for (size_t i = 0; i < n; i++) expect[8 + i] = 0xA5;
        if (memcmp(to, expect, sizeof to) != 0) { printf("FAIL memset of %zu bytes\n", n); return 1; }
        memmove(to + 9, to + 8, n);
        for (size_t i = n; i > 0; i--) expect[8 + i] = expect[7 + i];
        if (memcmp(to, expect, sizeof to) != 0) { printf("FAIL memmove of %zu bytes\n", n); return 1; }
    }
    printf("ok   memcpy, memset, memmove: 256 lengths each\n");

#if defined(__ARM_EABI__)
    // What LLVM calls for the Swift code's copies and fills (the EABI's memset takes the length first).
    extern void __aeabi_memcpy8(void *, const void *, size_t), __aeabi_memmove4(void *, const void *, size_t);
    extern void __aeabi_memset8(void *, size_t, int), __aeabi_memclr4(void *, size_t);
    for (size_t n = 0; n < 256; n += 4) {
        for (size_t i = 0; i < sizeof from; i++) { from[i] = next_byte(); to[i] = expect[i] = 0; }
        __aeabi_memcpy8(to + 8, from + 8, n);
        for (size_t i = 0; i < n; i++) expect[8 + i] = from[8 + i];
        if (memcmp(to, expect, sizeof to) != 0) { printf("FAIL __aeabi_memcpy8 of %zu bytes\n", n); return 1; }
        __aeabi_memmove4(to + 12, to + 8, n);
        for (size_t i = n; i > 0; i--) expect[11 + i] = expect[7 + i];
        if (memcmp(to, expect, sizeof to) != 0) { printf("FAIL __aeabi_memmove4 of %zu bytes\n", n); return 1; }
        __aeabi_memset8(to + 8, n, 0x5A);
        for (size_t i = 0; i < n; i++) expect[8 + i] = 0x5A;
        if (memcmp(to, expect, sizeof to) != 0) { printf("FAIL __aeabi_memset8 of %zu bytes\n", n); return 1; }
        __aeabi_memclr4(to + 8, n);
        for (size_t i = 0; i < n; i++) expect[8 + i] = 0;
        if (memcmp(to, expect, sizeof to) != 0) { printf("FAIL __aeabi_memclr4 of %zu bytes\n", n); return 1; }
    }
    printf("ok   __aeabi_memcpy8, __aeabi_memmove4, __aeabi_memset8, __aeabi_memclr4: 64 lengths each\n");
#endif

    if (strcmp(loaderd_strerror(EADDRINUSE), "Address already in use") != 0 ||
        strcmp(loaderd_strerror(ENOENT), "No such file or directory") != 0) {
        printf("FAIL strerror texts: %s / %s\n", loaderd_strerror(EADDRINUSE), loaderd_strerror(ENOENT));
        return 1;
    }
    printf("ok   strerror: glibc's words\n");

    // libgpiod's formats (gpiod_format.c) against musl's snprintf: every result and its length,
    // at every buffer size from 0 to past the end (truncation), and a refused conversion.
    static const char *const names[] = {"", "gpiochip0", "gpiochip12", "a-much-longer-chip-label"};
    static const unsigned numbers[] = {0, 7, 10, 4294967295u};
    long formatted = 0;
    for (size_t n = 0; n < 4; n++) {
        for (size_t size = 0; size < 48; size++) {
            char got[48], want[48];
            memset(got, '#', sizeof got); memset(want, '#', sizeof want);
            int g = loaderd_gpiod_snprintf(got, size, "/sys/bus/gpio/devices/%s/dev", names[n]);
            int w = snprintf(want, size, "/sys/bus/gpio/devices/%s/dev", names[n]);
            int g2 = loaderd_gpiod_snprintf(got + 24, size < 24 ? size : 24, "%u:%u 100%%", numbers[n], numbers[3 - n]);
            int w2 = snprintf(want + 24, size < 24 ? size : 24, "%u:%u 100%%", numbers[n], numbers[3 - n]);
            if (g != w || g2 != w2 || memcmp(got, want, sizeof got) != 0) {
                printf("FAIL gpiod snprintf: name %zu size %zu: %d %d, want %d %d\n", n, size, g, g2, w, w2);
                return 1;
            }
            formatted += 2;
        }
        char *got = 0;
        int g = loaderd_gpiod_asprintf(&got, "/dev/gpiochip%u", numbers[n]);
        char want[32];
        int w = snprintf(want, sizeof want, "/dev/gpiochip%u", numbers[n]);
        if (g != w || !got || strcmp(got, want) != 0) { printf("FAIL gpiod asprintf: %s, want %s\n", got ? got : "(none)", want); return 1; }
        free(got);
    }
    char unused[8];
    errno = 0;
    if (loaderd_gpiod_snprintf(unused, sizeof unused, "%d", 5) != -1 || errno != EINVAL) {
        printf("FAIL gpiod snprintf accepted %%d\n");
        return 1;
    }
    printf("ok   gpiod snprintf, asprintf: %ld results equal musl's, %%d refused\n", formatted);
    return 0;
}
