/*
 * web_bench.c: the figures of `denham serve` (./build/bench_denham web
 * [SECONDS] [CLIENTS]), on loopback only and bounded in time:
 *   - the time from opening the page to a drawn board, in headless
 *     Chromium (when there is one), best and median of five loads;
 *   - a command's round trip through the server (the request in, the
 *     engine's answer out on the event stream), p50 and p99 of 500;
 *   - the server's own memory (VmRSS, its engines apart);
 *   - a load: CLIENTS clients (200) for SECONDS (60) against
 *     --max-sessions 8: the clients that got an engine play (round trips
 *     of `go depth 2`), the rest are refused with 503; errors; the
 *     processes left after the server stops;
 *   - the hostile patterns (web_hostile.c, alone with `bench_denham
 *     web-hostile [SECONDS] [PATTERN]`), up to 12 s each.
 */
#define _GNU_SOURCE
#include "web_bench.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../engine/core/timeman.h"
#include "../tools/cdp.h"
#include "../tools/http_client.h"

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

int64_t web_percentile(int64_t *v, int n, double p)
{
    if (n == 0)
        return -1;
    qsort(v, (size_t)n, sizeof *v, cmp_i64);
    int k = (int)(p * (n - 1) + 0.5);
    return v[k];
}

static long rss_kib(pid_t pid) { return proc_status(pid, "VmRSS"); }

/* A session's id from the reply to POST /api/sessions, or false. */
static bool open_session(int port, char id[33], int *status)
{
    reply_t r;
    if (!http_request(port, "POST", "/api/sessions", NULL, NULL, &r)) {
        *status = 0;
        return false;
    }
    *status = r.status;
    const char *at = strstr(r.body, "\"id\":\"");
    if (r.status != 201 || !at)
        return false;
    snprintf(id, 33, "%.32s", at + 6);
    return true;
}

/* Sends command and waits on the event stream fd for `answer`; the round
 * trip in microseconds, or -1. */
static int64_t round_trip(int port, int fd, const char *id, const char *command, const char *answer, char *events,
                          size_t cap)
{
    char path[96];
    snprintf(path, sizeof path, "/api/sessions/%s/commands", id);
    events[0] = 0;
    int64_t start = timeman_now_us();
    reply_t r;
    if (!http_request(port, "POST", path, command, NULL, &r) || r.status != 202)
        return -1;
    if (!http_read_until(fd, answer, events, cap, 10000))
        return -1;
    return timeman_now_us() - start;
}

static void page_load(int port)
{
    if (!cdp_browser()) {
        printf("web: page load: no Chromium, not measured\n");
        return;
    }
    cdp_t c;
    if (!cdp_start(&c, 1280, 800)) {
        printf("web: page load: Chromium did not start\n");
        return;
    }
    char url[96];
    int64_t t[5];
    int n = 0;
    static const char *const variants[] = {"brax", "bolix", "brandubh", "jinxx-4p", "brax-4p"};
    for (int i = 0; i < 5; i++) {
        snprintf(url, sizeof url, "http://127.0.0.1:%d/#%s", port, variants[i]);
        cdp_navigate(&c, "about:blank");
        int64_t start = timeman_now_us();
        if (cdp_navigate(&c, url) && cdp_wait(&c, "document.body.dataset.drawnMs !== undefined", 30000)) {
            char *v = cdp_eval(&c, "String(Math.round(Number(document.body.dataset.drawnMs)))", 5000);
            int64_t page_ms = v ? atoll(v[0] == '"' ? v + 1 : v) : -1;
            free(v);
            t[n++] = page_ms >= 0 ? page_ms * 1000 : timeman_now_us() - start;
        }
    }
    cdp_stop(&c);
    if (n == 0) {
        printf("web: page load: the app did not start\n");
        return;
    }
    int64_t sorted[5];
    memcpy(sorted, t, sizeof t);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_i64);
    printf("web: board drawn %.0f ms after the page began to load (best of %d; median %.0f ms; target 300 ms)\n",
           (double)sorted[0] / 1000.0, n, (double)sorted[n / 2] / 1000.0);
}

static void command_round_trips(int port)
{
    char id[33];
    int status;
    if (!open_session(port, id, &status)) {
        printf("web: round trip: no session (%d)\n", status);
        return;
    }
    int fd = http_open_events(port, id);
    static char events[1 << 20];
    events[0] = 0;
    http_read_until(fd, "\"started\"", events, sizeof events, 10000);
    static int64_t t[500];
    int n = 0;
    round_trip(port, fd, id, "setoption name UCI_Variant value brax", "", events, sizeof events);
    for (int i = 0; i < 500; i++) {
        int64_t us = round_trip(port, fd, id, i % 2 ? "state" : "position startpos moves e1e3 e9e7", i % 2 ? "state {" : "",
                                events, sizeof events);
        if (i % 2 && us >= 0)
            t[n++] = us;
        if (i % 2 == 0) { /* a position command has no answer: the next state answers for both */
            continue;
        }
    }
    for (int i = 0; i < 250; i++) {
        int64_t us = round_trip(port, fd, id, "isready", "readyok", events, sizeof events);
        if (us >= 0)
            t[n++] = us;
    }
    close(fd);
    char path[96];
    snprintf(path, sizeof path, "/api/sessions/%s", id);
    reply_t r;
    http_request(port, "DELETE", path, NULL, NULL, &r);
    printf("web: a command's round trip (POST in, the engine's answer out on the event stream), %d: p50 %.2f ms, "
           "p99 %.2f ms (target: p99 under 50 ms)\n",
           n, (double)web_percentile(t, n, 0.5) / 1000.0, (double)web_percentile(t, n, 0.99) / 1000.0);
}

typedef struct load {
    int port;
    int64_t until_ms;
    atomic_int played, refused, errors, moves;
    pthread_mutex_t lock;
    int64_t *rt;
    int n_rt, cap_rt;
} load_t;

static void *client(void *arg)
{
    load_t *L = arg;
    char id[33];
    int status;
    static __thread char events[1 << 16];
    while (timeman_now_ms() < L->until_ms) {
        if (!open_session(L->port, id, &status)) {
            if (status == 503)
                atomic_fetch_add(&L->refused, 1);
            else
                atomic_fetch_add(&L->errors, 1);
            usleep(500 * 1000);
            continue;
        }
        atomic_fetch_add(&L->played, 1);
        int fd = http_open_events(L->port, id);
        events[0] = 0;
        http_read_until(fd, "\"started\"", events, sizeof events, 10000);
        for (int k = 0; timeman_now_ms() < L->until_ms && k < 1000000; k++) {
            int64_t us = round_trip(L->port, fd, id, k % 2 ? "go depth 2" : "position startpos", k % 2 ? "bestmove" : "",
                                    events, sizeof events);
            if (k % 2 == 0)
                continue;
            if (us < 0) {
                atomic_fetch_add(&L->errors, 1);
                break;
            }
            atomic_fetch_add(&L->moves, 1);
            pthread_mutex_lock(&L->lock);
            if (L->n_rt < L->cap_rt)
                L->rt[L->n_rt++] = us;
            pthread_mutex_unlock(&L->lock);
        }
        char path[96];
        snprintf(path, sizeof path, "/api/sessions/%s", id);
        reply_t r;
        http_request(L->port, "DELETE", path, NULL, NULL, &r);
        close(fd);
    }
    return NULL;
}

/* Waits until the server holds no session (the pages and sessions of
 * the measures before have gone: closed, or their grace over). */
static void wait_for_no_session(int port)
{
    for (int i = 0; i < 300; i++) {
        reply_t r;
        if (http_request(port, "GET", "/api/info", NULL, NULL, &r) && strstr(r.body, "\"sessions\":0,"))
            return;
        usleep(100 * 1000);
    }
}

static void load_test(int port, pid_t server, int seconds, int clients)
{
    wait_for_no_session(port);
    load_t L = {.port = port, .until_ms = timeman_now_ms() + seconds * 1000LL, .cap_rt = 1 << 20};
    L.rt = malloc(sizeof *L.rt * (size_t)L.cap_rt);
    pthread_mutex_init(&L.lock, NULL);
    pthread_t *t = calloc((size_t)clients, sizeof *t);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 1024 * 1024); /* the client keeps replies on its stack */
    int started = 0;
    for (int i = 0; i < clients; i++)
        started += pthread_create(&t[i], &attr, client, &L) == 0;
    long peak = 0;
    while (timeman_now_ms() < L.until_ms) {
        long kib = rss_kib(server);
        peak = kib > peak ? kib : peak;
        usleep(250 * 1000);
    }
    for (int i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    printf("web: load, %d clients for %d s against --max-sessions 8: %d sessions played, %d requests refused with "
           "503, %d errors; %d searches answered, round trip of go depth 2: p50 %.2f ms, p99 %.2f ms; the server's "
           "own memory at most %ld KiB (target under 10 MB)\n",
           started, seconds, atomic_load(&L.played), atomic_load(&L.refused), atomic_load(&L.errors),
           atomic_load(&L.moves), (double)web_percentile(L.rt, L.n_rt, 0.5) / 1000.0,
           (double)web_percentile(L.rt, L.n_rt, 0.99) / 1000.0, peak);
    free(t);
    free(L.rt);
}

int web_bench(int seconds, int clients)
{
    served_t s;
    if (!served_start(&s, "--max-sessions 8")) {
        printf("web: denham serve did not start (build ./denham first)\n");
        return 1;
    }
    printf("web: the server at rest: %ld KiB\n", rss_kib(s.pid));
    page_load(s.port);
    command_round_trips(s.port);
    load_test(s.port, s.pid, seconds, clients);
    pid_t pid = s.pid;
    int status = served_stop(&s);
    printf("web: the server stopped with status %d; processes left: %d\n", status, children_of(pid));
    return web_hostile(seconds < 12 ? seconds : 12, NULL);
}
