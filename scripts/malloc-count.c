// Counts the heap allocations of the shipped loaderd for scripts/measure-mallocs: linked into a
// copy of it by scripts/relink with the C library's allocation functions wrapped
// (-Wl,--wrap=malloc and the rest), so that every allocation (swift_allocObject, arrays, strings,
// and the C library's own) passes through here on its way to musl's.
//
// Every 100 ms a thread of its own appends "MILLISECONDS ALLOCATIONS" (since the program started)
// to the file named by $MALLOC_COUNT_FILE; the allocations of that thread itself are not counted.
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static atomic_ulong allocations;
static __thread int inside_reporter;

void *__real_malloc(size_t);
void *__real_calloc(size_t, size_t);
void *__real_realloc(void *, size_t);
int __real_posix_memalign(void **, size_t, size_t);
void *__real_aligned_alloc(size_t, size_t);

static void count(void) {
    if (!inside_reporter) atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
}

void *__wrap_malloc(size_t n) { count(); return __real_malloc(n); }
void *__wrap_calloc(size_t a, size_t b) { count(); return __real_calloc(a, b); }
void *__wrap_realloc(void *p, size_t n) { count(); return __real_realloc(p, n); }
int __wrap_posix_memalign(void **out, size_t alignment, size_t n) { count(); return __real_posix_memalign(out, alignment, n); }
void *__wrap_aligned_alloc(size_t alignment, size_t n) { count(); return __real_aligned_alloc(alignment, n); }

static long long milliseconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void *reporter(void *path) {
    inside_reporter = 1;
    int fd = open((const char *)path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return NULL;
    long long start = milliseconds();
    for (;;) {
        char line[64];
        int n = snprintf(line, sizeof line, "%lld %lu\n", milliseconds() - start,
                         atomic_load_explicit(&allocations, memory_order_relaxed));
        if (write(fd, line, (size_t)n) != n) return NULL;
        usleep(100000);
    }
}

__attribute__((constructor)) static void start(void) {
    const char *path = getenv("MALLOC_COUNT_FILE");
    if (!path) return;
    static char copy[4096];
    strncpy(copy, path, sizeof copy - 1);
    pthread_t thread;
    inside_reporter = 1;  // pthread_create's own allocation is the reporter's, not the program's
    if (pthread_create(&thread, NULL, reporter, copy) == 0) pthread_detach(thread);
    inside_reporter = 0;
}
