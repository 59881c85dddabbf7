#ifndef LOADERD_CLINUX_H
#define LOADERD_CLINUX_H
// Small C shim for what Swift cannot reach directly: ioctl request numbers built by macros and
// kernel structs. Every symbol is prefixed `loaderd_` and each has a comment saying why it exists.

#include <stdint.h>
#include "loaderd_libc.h"

// Swift's Glibc module does not include these two headers; re-exported here so that
// `import CLinux` brings timerfd_create/timerfd_settime and signalfd/signalfd_siginfo.
#include <sys/signalfd.h>
#include <sys/timerfd.h>

/// SO_PEERCRED fills a `struct ucred`, which glibc declares only under _GNU_SOURCE (not visible to
/// Swift's Glibc module). Returns 0, or -1 with errno set.
int loaderd_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid);

/// SO_PEERGROUPS (Linux 4.13+): the peer's supplementary groups at connect time. Fills at most
/// `capacity` group ids and returns how many there are (which may exceed `capacity`), or -1 with
/// errno set (ENOPROTOOPT on older kernels).
int loaderd_peer_groups(int fd, uint32_t *groups, int capacity);

/// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC: glibc declares accept4 only under _GNU_SOURCE.
int loaderd_accept_nonblocking(int fd);

/// The process's arguments (argv), saved before main: Embedded Swift has no `CommandLine`.
int loaderd_argument_count(void);
const char *loaderd_argument(int index);
/// Makes argv[0]'s first byte '@' (systemd's mark for a daemon started in the initrd that must
/// outlive it: loaderd(8), FILES). 0, or -1 when there is no argv[0] to mark.
int loaderd_mark_argv0_at(void);


/// pidfd_open(2) and pidfd_send_signal(2) (Linux 5.3 and 5.1) as raw system calls: glibc wraps
/// them only from 2.36 and musl not at all. A pidfd names one process, so a signal or a wait
/// through it cannot reach another that reused the process id. -1 with errno set (ENOSYS on
/// older kernels).
int loaderd_pidfd_open(int pid);
int loaderd_pidfd_send_signal(int pidfd, int signal);

/// A netlink socket (non-blocking, close-on-exec) on the kernel's uevent multicast group: the
/// events udev itself reads (a display plugged in, a monitor swapped). sockaddr_nl and
/// NETLINK_KOBJECT_UEVENT come from <linux/netlink.h>, which Swift's Glibc module does not
/// include. Returns the descriptor, or -1 with errno set.
int loaderd_uevent_open(void);

/// Receives one uevent into `buffer`: its length, 0 for a message that did not come from the
/// kernel (netlink port 0) and was dropped, or -1 with errno set (EAGAIN: none queued).
long loaderd_uevent_receive(int fd, void *buffer, unsigned long capacity);

#include "loaderd_fb.h"
#include "loaderd_drm.h"
#include "CLinuxSPI.h"
#endif
