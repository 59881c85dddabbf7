// An LD_PRELOAD library that counts the heap allocations of a program it is loaded into, for
// scripts/measure-mallocs: the shipped loaderd is Embedded Swift linked against glibc, so every
// allocation it makes (swift_allocObject, arrays, strings) ends in one of these functions.
//
// Every 100 ms a thread of its own appends "MILLISECONDS ALLOCATIONS" (since the program started)
// to the file named by $MALLOC_COUNT_FILE; the allocations of that thread itself are not counted.
// Build: cc -O2 -shared -fPIC -pthread -o malloc-count.so scripts/malloc-count.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

static atomic_ulong allocations;
static __thread int inside_reporter;

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);

// dlsym itself may calloc before real_calloc is known: serve that from a small static arena.
static char bootstrap[4096];
static size_t bootstrap_used;

static void resolve(void) {
    if (real_malloc) return;
    real_calloc = dlsym(RTLD_NEXT, "calloc");
    real_realloc = dlsym(RTLD_NEXT, "realloc");
    real_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
    real_aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc");
    real_malloc = dlsym(RTLD_NEXT, "malloc");
}

static void count(void) {
    if (!inside_reporter) atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
}

void *malloc(size_t n) { resolve(); count(); return real_malloc(n); }

void *calloc(size_t a, size_t b) {
    if (!real_calloc) {
        if (real_malloc == NULL && bootstrap_used + a * b <= sizeof bootstrap) {
            void *p = bootstrap + bootstrap_used;
            bootstrap_used += (a * b + 15) & ~(size_t)15;
            return p;
        }
        resolve();
    }
    count();
    return real_calloc(a, b);
}

void *realloc(void *p, size_t n) { resolve(); count(); return real_realloc(p, n); }

int posix_memalign(void **out, size_t alignment, size_t n) { resolve(); count(); return real_posix_memalign(out, alignment, n); }

void *aligned_alloc(size_t alignment, size_t n) { resolve(); count(); return real_aligned_alloc(alignment, n); }

void free(void *p) {
    static void (*real_free)(void *);
    if ((char *)p >= bootstrap && (char *)p < bootstrap + sizeof bootstrap) return;
    if (!real_free) real_free = dlsym(RTLD_NEXT, "free");
    real_free(p);
}

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
    resolve();
    const char *path = getenv("MALLOC_COUNT_FILE");
    if (!path) return;
    static char copy[4096];
    strncpy(copy, path, sizeof copy - 1);
    pthread_t thread;
    inside_reporter = 1;  // pthread_create's own allocation is the reporter's, not the program's
    if (pthread_create(&thread, NULL, reporter, copy) == 0) pthread_detach(thread);
    inside_reporter = 0;
}
