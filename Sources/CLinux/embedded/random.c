// arc4random_buf for the Embedded Swift standard library, which calls it for the per-process seed
// of Hasher (every Dictionary and Set). glibc's own waits in getrandom(2) until the kernel's
// random number generator is initialised, and early in a boot that is late: on the test boots
// under emulation the kernel logged "crng init done" 1.5-2 s after loaderd started, and the
// splash waited for it, blank (in the initramfs with the firmware's framebuffer there from the
// start, the first frame came 1.5 s after exec; docs/PERFORMANCE.md, "Boot"). A board without a
// hardware generator, or with its driver in a module not loaded yet, is in the same place.
//
// A hash seed needs no cryptographic strength, only to differ between processes. So this asks the
// kernel without waiting: GRND_INSECURE (Linux 5.6+: the generator's output even before it is
// fully seeded), else GRND_NONBLOCK; and where neither gives bytes yet, mixes the clock, the pid
// and the stack's address (splitmix64). Only the Embedded build compiles this file
// (scripts/cross-build); the executable's definition is the one its own code links to.
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#ifndef GRND_INSECURE
#define GRND_INSECURE 0x0004
#endif

static uint64_t loaderd_splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void arc4random_buf(void *buffer, size_t length) {
    unsigned char *p = buffer;
    int flags = GRND_INSECURE;
    while (length > 0) {
        ssize_t n = getrandom(p, length, flags);
        if (n > 0) { p += n; length -= (size_t)n; continue; }
        if (n < 0 && errno == EINTR) continue;
        // EINVAL: a kernel before 5.6, which knows no GRND_INSECURE.
        if (n < 0 && errno == EINVAL && flags == GRND_INSECURE) { flags = GRND_NONBLOCK; continue; }
        break;  // EAGAIN (not seeded yet), ENOSYS, or a seccomp filter's EPERM
    }
    if (length == 0) return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t state = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
    state ^= (uint64_t)getpid() << 32 ^ (uint64_t)(uintptr_t)&now;
    while (length > 0) {
        uint64_t word = loaderd_splitmix64(&state);
        size_t k = length < sizeof word ? length : sizeof word;
        memcpy(p, &word, k);
        p += k; length -= k;
    }
}
