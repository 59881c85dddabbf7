// loaderd-media from the static programs' side: found beside the program or in libexec, started
// when first needed, asked one question at a time, and started again when it has exited for want
// of work. The protocol is loaderd_media.h's.
//
// Why a helper at all: the shipped loaderd and loaderctl are static (scripts/cross-build), and a
// static program cannot load the system's libfreetype.so.6 or libpng16.so.16. The helper is linked
// against the system's C library and loads them for us. Only scripts/cross-build compiles this
// folder; the host build (SwiftPM) links libpng and opens FreeType itself.
//
// The environment must never hang the daemon: a helper that makes no progress for
// PROGRESS_DEADLINE_MS is killed, and after that it is not started again for QUIET_AFTER_LATE_MS
// (each attempt would cost the daemon that long again).
#include "loaderd_media_client.h"
#include "loaderd_media.h"
#include "loaderd_libc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/// How long the helper may go without reading or answering a byte (its start-up included).
#define PROGRESS_DEADLINE_MS 5000
/// After a helper that did not answer, how long the programs do without one.
#define QUIET_AFTER_LATE_MS 30000

static int channel = -1;      // our end of the socketpair
static pid_t helper = -1;     // our child while not yet reaped by us (or by the daemon's SIGCHLD)
static unsigned generation;   // counts the helpers started: a handle from an earlier one is stale
static long long quiet_until; // no new helper before this (CLOCK_MONOTONIC ms), after a late one
static char problem[512];

const char *loaderd_media_problem(void) { return problem[0] ? problem : NULL; }

unsigned loaderd_media_generation(void) { return channel >= 0 ? generation : 0; }

/// `out` as the strings given, one after the other (NULL ends the list), cut to fit. The static
/// programs carry no printf for these few sentences: musl's is 10 KB of loaderctl.
static void join(char *out, size_t size, const char *first, ...) {
    size_t at = 0;
    va_list parts;
    va_start(parts, first);
    for (const char *part = first; part; part = va_arg(parts, const char *)) {
        size_t n = strlen(part);
        if (n > size - 1 - at) n = size - 1 - at;
        memcpy(out + at, part, n);
        at += n;
    }
    va_end(parts);
    out[at] = 0;
}

#define SAY(...) join(problem, sizeof problem, __VA_ARGS__, (const char *)NULL)

/// `value` in decimal, into `digits` (at least 24 bytes).
static const char *decimal(long long value, char *digits) {
    char reversed[24];
    int n = 0;
    unsigned long long magnitude = value < 0 ? 0ull - (unsigned long long)value : (unsigned long long)value;
    do { reversed[n++] = (char)('0' + magnitude % 10); magnitude /= 10; } while (magnitude);
    int at = 0;
    if (value < 0) digits[at++] = '-';
    while (n) digits[at++] = reversed[--n];
    digits[at] = 0;
    return digits;
}

static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/// Closes our end and reaps the helper, saying in `how` how it ended. A helper that has not ended
/// within `grace_ms` (it closed the socket but lives on, or did not answer) is killed: nothing here
/// waits on it unbounded. Killing is safe only while it is our unreaped child, which waitpid with
/// WNOHANG returning 0 proves (the daemon reaps children only in its loop, never during this).
static void stop(int grace_ms, char *how, size_t size) {
    if (channel >= 0) { close(channel); channel = -1; }
    if (helper <= 0) return;
    int status = 0;
    pid_t r;
    long long end = now_ms() + grace_ms;
    while ((r = waitpid(helper, &status, WNOHANG)) == 0 && now_ms() < end) {
        struct timespec pause = {0, 5 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    if (r == 0) {
        kill(helper, SIGKILL);
        do { r = waitpid(helper, &status, 0); } while (r < 0 && errno == EINTR);
    }
    if (how && r == helper) {
        char digits[24];
        if (WIFSIGNALED(status)) join(how, size, "killed by signal ", decimal(WTERMSIG(status), digits), (const char *)NULL);
        else if (WEXITSTATUS(status) == LOADERD_MEDIA_EXIT_VERSION)
            join(how, size, "it is from another version of loaderd, which speaks another protocol: reinstall loaderd", (const char *)NULL);
        else join(how, size, "exit status ", decimal(WEXITSTATUS(status), digits), (const char *)NULL);
    }
    helper = -1;
}

/// The helper's path: beside the program (dist/<target>/, a build tree), then libexec relative to
/// it (/usr/sbin -> /usr/libexec, /usr/local/bin -> /usr/local/libexec), then the two usual
/// libexec folders (a daemon that followed PID 1 into the real root sees its old path no more).
static int find(char *path, size_t size) {
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char dir[PATH_MAX] = "";
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash && slash != exe) { *slash = 0; join(dir, sizeof dir, exe, (const char *)NULL); }
    }
    char candidates[4][PATH_MAX + 48];
    int count = 0;
    if (dir[0]) {
        join(candidates[count++], sizeof candidates[0], dir, "/loaderd-media", (const char *)NULL);
        join(candidates[count++], sizeof candidates[0], dir, "/../libexec/loaderd/loaderd-media", (const char *)NULL);
    }
    join(candidates[count++], sizeof candidates[0], "/usr/libexec/loaderd/loaderd-media", (const char *)NULL);
    join(candidates[count++], sizeof candidates[0], "/usr/local/libexec/loaderd/loaderd-media", (const char *)NULL);
    for (int i = 0; i < count; i++) {
        if (access(candidates[i], X_OK) == 0) {
            join(path, size, candidates[i], (const char *)NULL);
            return 0;
        }
    }
    SAY("loaderd-media, which loads libpng and FreeType for this static build, was not found (looked in ",
        dir, dir[0] ? ", ../libexec/loaderd from there, " : "",
        "/usr/libexec/loaderd and /usr/local/libexec/loaderd; reinstall loaderd)");
    return -1;
}

static int start(void) {
    if (now_ms() < quiet_until) return -1;  // the late helper's problem still says why
    char path[PATH_MAX + 48];
    if (find(path, sizeof path) != 0) return -1;
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        SAY("loaderd-media could not be started: socketpair: ", loaderd_strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
    // Its end as its standard input (dup2 clears close-on-exec there); the daemon blocks the signals
    // its signalfd reads, and the helper must start with none blocked and default handlers.
    posix_spawn_file_actions_adddup2(&actions, pair[1], 0);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    char protocol[] = LOADERD_MEDIA_PROTOCOL;
    char *argv[] = {path, protocol, NULL};
    pid_t pid;
    int e = posix_spawn(&pid, path, &actions, &attributes, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(pair[1]);
    if (e != 0) {
        close(pair[0]);
        SAY("loaderd-media (", path, ") could not be started: ", loaderd_strerror(e));
        return -1;
    }
    fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK);
    channel = pair[0];
    helper = pid;
    generation = generation % 0xFFFFFF + 1;  // 1 to 2^24 - 1 (it fits beside a handle in a pointer); 0 is "no helper"
    problem[0] = 0;
    return 0;
}

/// Waits for `events` on the channel until `deadline`; 1 ready, 0 timed out, -1 error.
static int wait_for(short events, long long deadline) {
    for (;;) {
        long long left = deadline - now_ms();
        if (left <= 0) return 0;
        struct pollfd p = {channel, events, 0};
        int r = poll(&p, 1, (int)left);
        if (r > 0) return 1;
        if (r < 0 && errno != EINTR) return -1;
    }
}

enum outcome { DONE, GONE, LATE, BROKEN };

/// Sends all of `bytes`; the deadline moves on with every part the helper takes.
static enum outcome send_all(const unsigned char *bytes, size_t count) {
    long long deadline = now_ms() + PROGRESS_DEADLINE_MS;
    while (count > 0) {
        ssize_t n = send(channel, bytes, count, MSG_NOSIGNAL);
        if (n > 0) { bytes += n; count -= (size_t)n; deadline = now_ms() + PROGRESS_DEADLINE_MS; continue; }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            int r = wait_for(POLLOUT, deadline);
            if (r == 0) return LATE;
            if (r < 0) return BROKEN;
            continue;
        }
        return GONE;  // EPIPE, ECONNRESET: the helper has exited
    }
    return DONE;
}

/// Reads exactly `count` bytes; `*got` says how many arrived (0 and GONE: it exited before
/// answering). The deadline moves on with every part that arrives.
static enum outcome receive_all(unsigned char *bytes, size_t count, size_t *got) {
    long long deadline = now_ms() + PROGRESS_DEADLINE_MS;
    *got = 0;
    while (*got < count) {
        ssize_t n = recv(channel, bytes + *got, count - *got, 0);
        if (n > 0) { *got += (size_t)n; deadline = now_ms() + PROGRESS_DEADLINE_MS; continue; }
        if (n == 0) return GONE;
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            int r = wait_for(POLLIN, deadline);
            if (r == 0) return LATE;
            if (r < 0) return BROKEN;
            continue;
        }
        return GONE;
    }
    return DONE;
}

/// Whether a helper that answered before has since left (it exits when idle): it never speaks
/// unasked, so anything readable between questions is its end of file (or a helper gone wrong,
/// which is stopped all the same).
static void forget_if_gone(void) {
    if (channel < 0) return;
    struct pollfd p = {channel, POLLIN, 0};
    if (poll(&p, 1, 0) > 0) stop(100, NULL, 0);
}

int loaderd_media_ask(const unsigned char *request, size_t count, unsigned for_generation,
                      unsigned char **reply, size_t *reply_count) {
    *reply = NULL;
    *reply_count = 0;
    for (int attempt = 0; attempt < 2; attempt++) {
        forget_if_gone();
        if (for_generation && (channel < 0 || generation != for_generation)) {
            SAY("loaderd-media ended while a face or an image of it was open");
            return -1;
        }
        int fresh = channel < 0;
        if (fresh && start() != 0) return -1;
        uint32_t length = 0;
        size_t got = 0;
        enum outcome o = send_all(request, count);
        if (o == DONE) o = receive_all((unsigned char *)&length, 4, &got);
        if (o == DONE && length > LOADERD_MEDIA_MAX_FRAME) o = BROKEN;
        unsigned char *bytes = NULL;
        if (o == DONE) {
            bytes = (unsigned char *)malloc(length ? length : 1);
            if (!bytes) { stop(0, NULL, 0); SAY("out of memory for loaderd-media's answer"); return -1; }
            size_t body = 0;
            o = receive_all(bytes, length, &body);
            got += body;
        }
        if (o == DONE) { *reply = bytes; *reply_count = length; return 0; }
        free(bytes);
        char how[160] = "";
        stop(o == GONE ? 200 : 0, how, sizeof how);
        // It had gone idle between our look and the question: ask a new one, once, when the
        // question needs nothing the old one held.
        if (o == GONE && got == 0 && !fresh && !for_generation) continue;
        char digits[24];
        if (o == LATE) {
            quiet_until = now_ms() + QUIET_AFTER_LATE_MS;
            SAY("loaderd-media did not answer within ", decimal(PROGRESS_DEADLINE_MS, digits),
                " ms and was stopped (not started again for ", decimal(QUIET_AFTER_LATE_MS / 1000, digits), " s)");
        } else if (o == GONE) {
            SAY("loaderd-media ended before answering (", how, "; its messages are in the log)");
        } else {
            SAY("loaderd-media's answer could not be read and it was stopped");
        }
        return -1;
    }
    return -1;
}

int loaderd_media_call(media_frame *request, unsigned for_generation, media_reader *reply, unsigned char **owned) {
    *owned = NULL;
    if (media_frame_finish(request) != 0) {
        media_frame_free(request);
        char digits[24];
        SAY("the question for loaderd-media was too large (over ", decimal(LOADERD_MEDIA_MAX_FRAME / (1024 * 1024), digits),
            " MiB) or memory ran out");
        return -1;
    }
    size_t count = 0;
    int e = loaderd_media_ask(request->bytes, request->count, for_generation, owned, &count);
    media_frame_free(request);
    if (e != 0) return -1;
    reply->bytes = *owned; reply->count = count; reply->at = 0; reply->failed = 0;
    return 0;
}
