// LD_PRELOAD library for counting the instructions from loaderd's exec to its first frame with
// callgrind (exact, whatever the machine's load), as docs/PERFORMANCE.md does:
//
//   cc -shared -fPIC -O2 -o /tmp/exit-at-first-frame.so Benchmarks/Peers/exit-at-first-frame.c -ldl
//   LD_PRELOAD=/tmp/exit-at-first-frame.so valgrind --tool=callgrind dist/x86_64/loaderd
//       --socket /tmp/s --display image:path=/tmp/f.ppm,size=64x32 --loader linkedin   (one line)
//
// An image display writes each frame to a temporary file and renames it into place; the first
// rename is the first frame, so the process ends right after it.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <unistd.h>

int rename(const char *from, const char *to) {
    int (*real)(const char *, const char *) = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
    _exit(real(from, to) == 0 ? 0 : 1);
}
