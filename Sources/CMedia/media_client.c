// loaderd-media from the static programs' side: found beside the program or in libexec, started
// when first needed, asked one question at a time with a deadline, and started again when it has
// exited for want of work. The protocol is loaderd_media.h's.
//
// Why a helper at all: the shipped loaderd and loaderctl are static (scripts/cross-build), and a
// static program cannot load the system's libfreetype.so.6 or libpng16.so.16. The helper is linked
// against the system's C library and loads them for us. Only scripts/cross-build compiles this
// folder; the host build (SwiftPM) links libpng and opens FreeType itself.
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

/// How long one question may take, start-up of the helper included: a glyph or a header is a
/// fraction of a millisecond; a large logo on a Pi Zero under load, a second or two.
#define ANSWER_DEADLINE_MS 5000

static int channel = -1;      // our end of the socketpair
static pid_t helper = -1;
static char problem[512];

const char *loaderd_media_problem(void) { return problem[0] ? problem : NULL; }

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

/// Closes our end and reaps the helper; `kill_it` first ends one that is still running (it did not
/// answer in time, or sent what we cannot read). Returns how it ended, for the problem text.
static void stop(int kill_it, char *how, size_t size) {
    if (channel >= 0) { close(channel); channel = -1; }
    if (helper > 0) {
        if (kill_it) kill(helper, SIGKILL);
        int status = 0;
        pid_t r;
        do { r = waitpid(helper, &status, 0); } while (r < 0 && errno == EINTR);
        if (how && r == helper) {
            char digits[24];
            if (WIFSIGNALED(status)) join(how, size, "killed by signal ", decimal(WTERMSIG(status), digits), (const char *)NULL);
            else join(how, size, "exit status ", decimal(WEXITSTATUS(status), digits), (const char *)NULL);
        }
        helper = -1;
    }
}

/// The helper's path: beside the program (dist/<target>/, a build tree), then libexec relative to
/// it (/usr/sbin -> /usr/libexec, /usr/local/bin -> /usr/local/libexec), then the two usual
/// libexec folders (a daemon that followed PID 1 into the real root sees its old path no more).
static int find(char *path, size_t size) {
#ifdef LOADERD_NO_MEDIA
    (void)path; (void)size;
    SAY("this build (" LOADERD_NO_MEDIA ") has no loaderd-media, so it cannot load libpng or FreeType: "
        "use .ppm files, and text is drawn in the bitmap font");
    return -1;
#else
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char dir[PATH_MAX] = "";
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash && slash != exe) { *slash = 0; join(dir, sizeof dir, exe, (const char *)NULL); }
    }
    char candidates[4][PATH_MAX + 32];
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
#endif
}

static int start(void) {
    char path[PATH_MAX + 32];
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
    char *argv[] = {path, NULL};
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

static enum outcome send_all(const unsigned char *bytes, size_t count, long long deadline) {
    while (count > 0) {
        ssize_t n = send(channel, bytes, count, MSG_NOSIGNAL);
        if (n > 0) { bytes += n; count -= (size_t)n; continue; }
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

/// Reads exactly `count` bytes; `*got` says how many arrived (0 and GONE: it exited before answering).
static enum outcome receive_all(unsigned char *bytes, size_t count, long long deadline, size_t *got) {
    *got = 0;
    while (*got < count) {
        ssize_t n = recv(channel, bytes + *got, count - *got, 0);
        if (n > 0) { *got += (size_t)n; continue; }
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
/// unasked, so anything readable between questions is its end of file.
static void forget_if_gone(void) {
    if (channel < 0) return;
    struct pollfd p = {channel, POLLIN, 0};
    if (poll(&p, 1, 0) > 0) stop(0, NULL, 0);
}

int loaderd_media_ask(const unsigned char *request, size_t count, int restartable,
                      unsigned char **reply, size_t *reply_count) {
    *reply = NULL;
    *reply_count = 0;
    for (int attempt = 0; attempt < 2; attempt++) {
        forget_if_gone();
        int fresh = channel < 0;
        if (fresh && start() != 0) return -1;
        long long deadline = now_ms() + ANSWER_DEADLINE_MS;
        uint32_t length = 0;
        size_t got = 0;
        enum outcome o = send_all(request, count, deadline);
        if (o == DONE) o = receive_all((unsigned char *)&length, 4, deadline, &got);
        if (o == DONE && length > LOADERD_MEDIA_MAX_FRAME) o = BROKEN;
        unsigned char *bytes = NULL;
        if (o == DONE) {
            bytes = (unsigned char *)malloc(length ? length : 1);
            if (!bytes) { SAY("out of memory for loaderd-media's answer"); return -1; }
            size_t body = 0;
            o = receive_all(bytes, length, deadline, &body);
            if (o == GONE) got += body;
        }
        if (o == DONE) { *reply = bytes; *reply_count = length; return 0; }
        free(bytes);
        char how[64] = "";
        stop(o != GONE, how, sizeof how);
        // It had gone idle between our look and the question: ask a new one, once, when the
        // question needs nothing the old one held.
        if (o == GONE && got == 0 && !fresh && restartable) continue;
        char digits[24];
        if (o == LATE) SAY("loaderd-media did not answer within ", decimal(ANSWER_DEADLINE_MS, digits), " ms and was stopped");
        else if (o == GONE) SAY("loaderd-media ended before answering (", how, "; its messages are in the log)");
        else SAY("loaderd-media's answer could not be read and it was stopped");
        return -1;
    }
    return -1;
}

int loaderd_media_call(media_frame *request, int restartable, media_reader *reply, unsigned char **owned) {
    *owned = NULL;
    if (media_frame_finish(request) != 0) {
        media_frame_free(request);
        SAY("out of memory for a question to loaderd-media");
        return -1;
    }
    size_t count = 0;
    int e = loaderd_media_ask(request->bytes, request->count, restartable, owned, &count);
    media_frame_free(request);
    if (e != 0) return -1;
    reply->bytes = *owned; reply->count = count; reply->at = 0; reply->failed = 0;
    return 0;
}
