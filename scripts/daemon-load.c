// Load generator for loaderd: N clients, each sending M requests one at a time (send, wait for
// the reply), all at once. Prints the round-trip p50/p90/p99/max over all requests and counts
// wrong replies. Used by scripts/measure-daemon; build: cc -O2 -pthread daemon-load.c
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static const char *path;
static int per_client;
static long long *samples;
static int wrong;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t barrier;

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *client(void *arg) {
    long k = (long)arg;
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    strncpy(a.sun_path, path, sizeof a.sun_path - 1);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) { perror("connect"); exit(1); }
    pthread_barrier_wait(&barrier);
    char req[64], buf[4096];
    for (int i = 0; i < per_client; i++) {
        const char *expect;
        switch ((i + k) % 3) {
        case 0: snprintf(req, sizeof req, "ping\n"); expect = "OK pong\n"; break;
        case 1: snprintf(req, sizeof req, "progress %d force\n", i % 100); expect = "OK progress"; break;
        default: snprintf(req, sizeof req, "message m%d\n", i); expect = "OK\n"; break;
        }
        long long t0 = now_ns();
        if (send(fd, req, strlen(req), MSG_NOSIGNAL) < 0) { perror("send"); exit(1); }
        size_t got = 0;
        while (got == 0 || buf[got - 1] != '\n') {
            ssize_t n = recv(fd, buf + got, sizeof buf - got - 1, 0);
            if (n <= 0) { perror("recv"); exit(1); }
            got += n;
        }
        samples[k * per_client + i] = now_ns() - t0;
        buf[got] = 0;
        if (strncmp(buf, expect, strlen(expect)) != 0) { pthread_mutex_lock(&lock); wrong++; pthread_mutex_unlock(&lock); }
    }
    close(fd);
    return NULL;
}

static int cmp(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: %s SOCKET CLIENTS REQUESTS\n", argv[0]); return 2; }
    path = argv[1];
    int clients = atoi(argv[2]);
    per_client = atoi(argv[3]);
    samples = calloc((size_t)clients * per_client, sizeof *samples);
    pthread_barrier_init(&barrier, NULL, clients);
    pthread_t t[clients];
    for (long k = 0; k < clients; k++) pthread_create(&t[k], NULL, client, (void *)k);
    for (int k = 0; k < clients; k++) pthread_join(t[k], NULL);
    size_t n = (size_t)clients * per_client;
    qsort(samples, n, sizeof *samples, cmp);
    printf("round trip, %d clients x %d requests: p50 %.1f us, p90 %.1f us, p99 %.1f us, max %.1f us; wrong replies %d\n",
           clients, per_client, samples[n / 2] / 1e3, samples[n * 9 / 10] / 1e3, samples[n * 99 / 100] / 1e3,
           samples[n - 1] / 1e3, wrong);
    return wrong != 0;
}
