// Ends loaderd at its first frame, for counting the instructions from exec to that frame with
// callgrind (exact, whatever the machine's load), as docs/PERFORMANCE.md does. The shipped loaderd
// is static, so this is linked into a copy of it with rename(2) wrapped (scripts/relink):
//
//   gcc -O2 -fPIE -nostdinc -isystem .build-cross/x86_64/root/usr/include \
//       -isystem "$(gcc -print-file-name=include)" -c -o /tmp/exit.o Benchmarks/Peers/exit-at-first-frame.c
//   scripts/relink x86_64 loaderd /tmp/loaderd-exit /tmp/exit.o -Wl,--wrap=rename
//   valgrind --tool=callgrind /tmp/loaderd-exit --socket /tmp/s \
//       --display image:path=/tmp/f.ppm,size=64x32 --loader linkedin
//
// An image display writes each frame to a temporary file and renames it into place; the first
// rename is the first frame, so the process ends right after it.
#include <unistd.h>

int __real_rename(const char *from, const char *to);

int __wrap_rename(const char *from, const char *to) {
    _exit(__real_rename(from, to) == 0 ? 0 : 1);
}
