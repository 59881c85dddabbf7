// The ARM EABI's memory helpers, for the static ARM builds. LLVM calls __aeabi_memcpy8,
// __aeabi_memset8 and the rest for the copies and fills whose alignment it knows (a canvas's rows,
// the frame buffers, a new array's storage); musl implements them as loops of one byte a turn
// (src/string/arm/__aeabi_*.s), where glibc forwards them to its word-at-a-time memcpy and
// memset. Under qemu they were half of the armv7 daemon's instructions to its first frame
// (docs/PERFORMANCE.md, "The static build"). These forward to musl's memcpy (ARM assembly),
// memmove and memset, as glibc's do. All twelve are defined here, so the two members of musl's
// libc.a that hold its own are never linked. Only scripts/cross-build compiles this file.
#if defined(__ARM_EABI__)
#include <string.h>

// (The EABI's memset takes the length before the value, unlike memset.)
void __aeabi_memcpy(void *to, const void *from, size_t n) { memcpy(to, from, n); }
void __aeabi_memcpy4(void *to, const void *from, size_t n) { memcpy(to, from, n); }
void __aeabi_memcpy8(void *to, const void *from, size_t n) { memcpy(to, from, n); }
void __aeabi_memmove(void *to, const void *from, size_t n) { memmove(to, from, n); }
void __aeabi_memmove4(void *to, const void *from, size_t n) { memmove(to, from, n); }
void __aeabi_memmove8(void *to, const void *from, size_t n) { memmove(to, from, n); }
void __aeabi_memset(void *to, size_t n, int value) { memset(to, value, n); }
void __aeabi_memset4(void *to, size_t n, int value) { memset(to, value, n); }
void __aeabi_memset8(void *to, size_t n, int value) { memset(to, value, n); }
void __aeabi_memclr(void *to, size_t n) { memset(to, 0, n); }
void __aeabi_memclr4(void *to, size_t n) { memset(to, 0, n); }
void __aeabi_memclr8(void *to, size_t n) { memset(to, 0, n); }
#else
typedef int loaderd_aeabi_not_arm;  // (an empty file is not ISO C)
#endif
