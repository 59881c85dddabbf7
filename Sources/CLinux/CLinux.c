#define _GNU_SOURCE
#include "CLinux.h"
#include <errno.h>
#include <sys/socket.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/netlink.h>
#include <sys/syscall.h>
#include <unistd.h>

// The same numbers on every architecture (the system calls added since 5.1 share one table).
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS 59
#endif

_Static_assert(sizeof(struct ucred) == 12, "struct ucred is pid, uid, gid");
_Static_assert(sizeof(gid_t) == sizeof(uint32_t), "gid_t is 32 bits");

int loaderd_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid) {
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return -1;
    *pid = cred.pid;
    *uid = cred.uid;
    *gid = cred.gid;
    return 0;
}

int loaderd_peer_groups(int fd, uint32_t *groups, int capacity) {
    socklen_t len = (socklen_t)(capacity * (int)sizeof(gid_t));
    if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) != 0) {
        if (errno == ERANGE) return (int)(len / sizeof(gid_t));
        return -1;
    }
    return (int)(len / sizeof(gid_t));
}

int loaderd_accept_nonblocking(int fd) {
    return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int loaderd_uevent_open(void) {
    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
    if (fd < 0) return -1;
    struct sockaddr_nl address = { .nl_family = AF_NETLINK, .nl_pid = 0, .nl_groups = 1 };
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

long loaderd_uevent_receive(int fd, void *buffer, unsigned long capacity) {
    struct sockaddr_nl sender = {0};
    socklen_t length = sizeof sender;
    ssize_t n = recvfrom(fd, buffer, capacity, MSG_DONTWAIT, (struct sockaddr *)&sender, &length);
    if (n < 0) return -1;
    // Only the kernel's own messages: a process sending to the group (it would need
    // CAP_NET_ADMIN) is not a display being plugged in.
    if (length != sizeof sender || sender.nl_pid != 0) return 0;
    return (long)n;
}

int loaderd_pidfd_open(int pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

int loaderd_pidfd_send_signal(int pidfd, int signal) {
    return (int)syscall(SYS_pidfd_send_signal, pidfd, signal, NULL, 0);
}
