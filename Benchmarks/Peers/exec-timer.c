// Times a daemon from exec to its first sign of life, without the measuring program's own
// start-up in the figure (Python's fork and a polling loop added 1-6 ms, more than what was
// measured). The clock starts just before posix_spawn(3) (glibc's is a clone that shares the
// parent's memory, as vfork does: no page tables copied) and stops at the first of:
//   --file PATH       PATH appears in its directory (inotify: created, or renamed into place,
//                     as loaderd's image display publishes each frame)
//   --answer SOCKET REQUEST REPLY
//                     a connection to SOCKET (a path, or @name for an abstract socket) that
//                     sends REQUEST gets a reply starting with REPLY (both as C strings with
//                     \0, \n and \x06 escapes), tried again every 20 us until it does
//   --exit            the program exits (for the floor: exec -> exit of /bin/true)
// then the program is sent SIGTERM and reaped. Prints the microseconds on standard output.
//
//   exec-timer --file /tmp/f.ppm -- loaderd --display image:path=/tmp/f.ppm,size=64x32 ...
//
// Built by scripts/measure-peers with `cc -O2`.
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void fail(const char *what) {
    fprintf(stderr, "exec-timer: %s: %s\n", what, strerror(errno));
    exit(1);
}

// Decodes \0, \n, \\ and \xHH in place; returns the length.
static size_t unescape(char *s) {
    char *out = s;
    for (char *in = s; *in; in++) {
        if (*in != '\\' || !in[1]) { *out++ = *in; continue; }
        in++;
        if (*in == '0') *out++ = 0;
        else if (*in == 'n') *out++ = '\n';
        else if (*in == 'x' && in[1] && in[2]) { char hex[3] = {in[1], in[2], 0}; *out++ = (char)strtol(hex, NULL, 16); in += 2; }
        else *out++ = *in;
    }
    return (size_t)(out - s);
}

static int answered(const char *path, const char *request, size_t requestLength, const char *reply, size_t replyLength) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    socklen_t length;
    if (path[0] == '@') {
        strncpy(address.sun_path + 1, path + 1, sizeof address.sun_path - 2);
        length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(path + 1));
    } else {
        strncpy(address.sun_path, path, sizeof address.sun_path - 1);
        length = sizeof address;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) fail("socket");
    int ok = 0;
    if (connect(fd, (struct sockaddr *)&address, length) == 0 && write(fd, request, requestLength) == (ssize_t)requestLength) {
        char buffer[256];
        size_t got = 0;
        while (got < replyLength) {
            ssize_t n = read(fd, buffer + got, sizeof buffer - got);
            if (n <= 0) break;
            got += (size_t)n;
        }
        ok = got >= replyLength && memcmp(buffer, reply, replyLength) == 0;
    }
    close(fd);
    return ok;
}

int main(int argc, char **argv) {
    const char *file = NULL, *socketPath = NULL;
    char *request = NULL, *reply = NULL;
    int untilExit = 0, i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (!strcmp(argv[i], "--file") && i + 1 < argc) file = argv[++i];
        else if (!strcmp(argv[i], "--answer") && i + 3 < argc) { socketPath = argv[++i]; request = argv[++i]; reply = argv[++i]; }
        else if (!strcmp(argv[i], "--exit")) untilExit = 1;
        else { fprintf(stderr, "usage: exec-timer (--file PATH | --answer SOCKET REQUEST REPLY | --exit) -- PROGRAM [ARG...]\n"); return 2; }
    }
    if (i + 1 >= argc || (!file && !socketPath && !untilExit)) {
        fprintf(stderr, "usage: exec-timer (--file PATH | --answer SOCKET REQUEST REPLY | --exit) -- PROGRAM [ARG...]\n");
        return 2;
    }
    char **command = argv + i + 1;

    int watch = -1;
    char *name = NULL;
    if (file) {
        char *copy1 = strdup(file), *copy2 = strdup(file);
        name = basename(copy1);
        watch = inotify_init1(IN_CLOEXEC);
        if (watch < 0 || inotify_add_watch(watch, dirname(copy2), IN_CREATE | IN_MOVED_TO) < 0) fail("inotify");
    }
    size_t requestLength = request ? unescape(request) : 0, replyLength = reply ? unescape(reply) : 0;

    long long start = now_ns();
    pid_t pid;
    errno = posix_spawnp(&pid, command[0], NULL, NULL, command, environ);
    if (errno != 0) fail(command[0]);
    long long end = 0;
    if (file) {
        char events[4096] __attribute__((aligned(8)));
        while (!end) {
            ssize_t n = read(watch, events, sizeof events);
            if (n <= 0) fail("read inotify");
            for (char *p = events; p < events + n;) {
                struct inotify_event *e = (struct inotify_event *)p;
                if (e->len && !strcmp(e->name, name)) { end = now_ns(); break; }
                p += sizeof *e + e->len;
            }
        }
    } else if (socketPath) {
        while (!answered(socketPath, request, requestLength, reply, replyLength)) {
            if (waitpid(pid, NULL, WNOHANG) == pid) { fprintf(stderr, "exec-timer: %s exited before it answered\n", command[0]); return 1; }
            // 20 us between attempts: a loop without a pause takes a core the daemon may need.
            struct timespec pause = {0, 20000};
            nanosleep(&pause, NULL);
        }
        end = now_ns();
    }
    if (untilExit) {
        if (waitpid(pid, NULL, 0) != pid) fail("waitpid");
        end = now_ns();
    } else {
        kill(pid, SIGTERM);
        waitpid(pid, NULL, 0);
    }
    printf("%lld\n", (end - start) / 1000);
    return 0;
}
