#ifndef LOADERD_LIBC_H
#define LOADERD_LIBC_H
// The C library as board code sees it. Embedded Swift has no `Glibc` module, so everything the
// daemon, loaderctl and the displays call from libc comes through this header, in ordinary Swift
// too (one import, the same declarations in both builds). What Swift cannot import directly —
// `errno` (a macro over a function), variadic functions (open, fcntl, ioctl) and function-like
// macros (S_ISxxx, WIFEXITED…) — gets a one-line inline wrapper with the `loaderd_` prefix.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>

/// `count` 32-bit words from `words` set to `value`: the C library's wmemset (wchar_t is 32 bits
/// on Linux). glibc picks its version per CPU at run time (AVX2 stores, 8 pixels an instruction,
/// where the CPU has them), which a Swift loop built for the x86-64 baseline cannot: a canvas's
/// clear and the long runs inside shapes (`fillRun`).
static inline void loaderd_fill_words(uint32_t *words, uint32_t value, size_t count) {
    wmemset((wchar_t *)words, (wchar_t)value, count);
}

/// Socket types and flags as plain ints: glibc declares them in an enum (which Swift imports as a
/// struct with a `rawValue`), musl as macros (plain `Int32`s). These read the same in both.
static const int loaderd_sock_stream = SOCK_STREAM;
static const int loaderd_sock_dgram = SOCK_DGRAM;
static const int loaderd_sock_nonblock = SOCK_NONBLOCK;
static const int loaderd_sock_cloexec = SOCK_CLOEXEC;

/// strerror(3)'s text for `e`, in glibc's words in every build: the static build's musl words some
/// differently ("Address in use" for "Address already in use"), so it brings glibc's
/// (Sources/CLinux/embedded/strerror.c).
#ifdef LOADERD_STATIC
const char *loaderd_strerror(int e);
#else
static inline const char *loaderd_strerror(int e) { return strerror(e); }
#endif

/// The calling thread's errno (a macro over __errno_location in glibc).
static inline int loaderd_errno(void) { return errno; }
static inline void loaderd_set_errno(int value) { errno = value; }

/// open(2) with its optional third argument always given (the function is variadic).
static inline int loaderd_open(const char *path, int flags, unsigned int mode) { return open(path, flags, (mode_t)mode); }
/// openat(2), same reason.
static inline int loaderd_openat(int dirfd, const char *path, int flags, unsigned int mode) { return openat(dirfd, path, flags, (mode_t)mode); }
/// fcntl(2) with an int argument (F_GETFL, F_SETFL, F_GETFD, F_SETFD, F_DUPFD_CLOEXEC).
static inline int loaderd_fcntl(int fd, int command, int argument) { return fcntl(fd, command, argument); }

/// TIOCGWINSZ: the terminal's size in characters (ioctl is variadic). 0, or -1 with errno set.
static inline int loaderd_window_size(int fd, unsigned short *columns, unsigned short *rows) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *columns = size.ws_col; *rows = size.ws_row;
    return 0;
}

/// 1 when "/" is a file system in memory (ramfs or tmpfs: what an initramfs unpacks into),
/// 0 when not or unknown. statfs's f_type is a long or an int depending on the architecture.
static inline int loaderd_root_is_in_memory(void) {
    struct statfs info;
    if (statfs("/", &info) != 0) return 0;
    return (unsigned long)info.f_type == 0x858458f6UL /* RAMFS_MAGIC */
        || (unsigned long)info.f_type == 0x01021994UL /* TMPFS_MAGIC */;
}

/// The soft RLIMIT_NOFILE, or -1 when unlimited or unknown (RLIM_INFINITY is a cast macro and
/// RLIMIT_NOFILE an enum in glibc but a macro in musl).
static inline long long loaderd_open_file_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return -1;
    return (long long)limit.rlim_cur;
}

/// mmap's failure value, ((void *)-1), which Swift cannot import as a constant.
static inline void *loaderd_map_failed(void) { return MAP_FAILED; }

/// offsetof(struct sockaddr_un, sun_path): Embedded Swift has no key paths for MemoryLayout.offset(of:).
static inline unsigned long loaderd_sockaddr_un_path_offset(void) { return (unsigned long)offsetof(struct sockaddr_un, sun_path); }

/// signal(sig, SIG_IGN): SIG_IGN is a cast macro Swift cannot import.
static inline void loaderd_ignore_signal(int sig) { signal(sig, SIG_IGN); }
/// signal(sig, SIG_DFL).
static inline void loaderd_default_signal(int sig) { signal(sig, SIG_DFL); }

/// The file-type macros of <sys/stat.h>.
static inline int loaderd_s_isfifo(unsigned int mode) { return S_ISFIFO(mode); }
static inline int loaderd_s_isreg(unsigned int mode) { return S_ISREG(mode); }
static inline int loaderd_s_isdir(unsigned int mode) { return S_ISDIR(mode); }
static inline int loaderd_s_issock(unsigned int mode) { return S_ISSOCK(mode); }
static inline int loaderd_s_ischr(unsigned int mode) { return S_ISCHR(mode); }
static inline int loaderd_s_islnk(unsigned int mode) { return S_ISLNK(mode); }

/// The wait-status macros of <sys/wait.h>.
static inline int loaderd_wifexited(int status) { return WIFEXITED(status); }
static inline int loaderd_wexitstatus(int status) { return WEXITSTATUS(status); }
static inline int loaderd_wifsignaled(int status) { return WIFSIGNALED(status); }
static inline int loaderd_wtermsig(int status) { return WTERMSIG(status); }

/// stdin/stdout/stderr are macros over externs in glibc; Swift's Glibc overlay hides that.
static inline FILE *loaderd_stdout(void) { return stdout; }
static inline FILE *loaderd_stderr(void) { return stderr; }

#endif
