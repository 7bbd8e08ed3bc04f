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
 *   - the hostile mix of issue 53 (web_hostile, alone with `bench_denham
 *     web-hostile [SECONDS] [SLOW]`): SLOW connections (300) trickling a
 *     byte every 2 s and reconnecting when ended, one engine stopped
 *     (SIGSTOP) that a client keeps sending 200 KB commands, one that asks
 *     for Hash 16384 and Threads 256; beside them a prompt client's page
 *     loads and command round trips (p99), the server's memory, the time
 *     from SIGTERM to its exit, and the engines left after it.
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

static int64_t percentile(int64_t *v, int n, double p)
{
    if (n == 0)
        return -1;
    qsort(v, (size_t)n, sizeof *v, cmp_i64);
    int k = (int)(p * (n - 1) + 0.5);
    return v[k];
}

static long rss_kib(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib;
}

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
           n, (double)percentile(t, n, 0.5) / 1000.0, (double)percentile(t, n, 0.99) / 1000.0);
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
           atomic_load(&L.moves), (double)percentile(L.rt, L.n_rt, 0.5) / 1000.0,
           (double)percentile(L.rt, L.n_rt, 0.99) / 1000.0, peak);
    free(t);
    free(L.rt);
}

/* ---- the hostile mix ---- */

typedef struct hostile {
    int port;
    int slow;
    int64_t until_ms;
    atomic_int slow_ended, slow_reconnects, hung_sent, hung_refused, hung_slowest_ms;
} hostile_t;

/* SLOW connections, each sending one byte of an endless head every 2 s
 * (in turn, so that bytes arrive all the time), a new connection for each
 * one the server ends. */
static void *slow_clients(void *arg)
{
    hostile_t *H = arg;
    int *fd = calloc((size_t)H->slow, sizeof *fd);
    static const char head[] = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
    size_t *sent = calloc((size_t)H->slow, sizeof *sent);
    for (int i = 0; fd && sent && i < H->slow; i++)
        fd[i] = http_connect(H->port);
    for (int tick = 0; fd && sent && timeman_now_ms() < H->until_ms; tick++) {
        /* A twentieth of them every 100 ms: each every 2 s. */
        for (int i = tick % 20; i < H->slow; i += 20) {
            char buf[256];
            ssize_t n = fd[i] >= 0 ? recv(fd[i], buf, sizeof buf, MSG_DONTWAIT) : 0;
            if (fd[i] < 0 || n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
                if (fd[i] >= 0) {
                    close(fd[i]);
                    atomic_fetch_add(&H->slow_ended, 1);
                }
                fd[i] = http_connect(H->port);
                sent[i] = 0;
                atomic_fetch_add(&H->slow_reconnects, 1);
                continue;
            }
            char c = sent[i] < sizeof head - 1 ? head[sent[i]] : 'a';
            if (send(fd[i], &c, 1, MSG_NOSIGNAL | MSG_DONTWAIT) == 1)
                sent[i]++;
        }
        usleep(100 * 1000);
    }
    for (int i = 0; fd && i < H->slow; i++)
        if (fd[i] >= 0)
            close(fd[i]);
    free(fd);
    free(sent);
    return NULL;
}

typedef struct hung {
    hostile_t *H;
    char id[33];
} hung_t;

/* Keeps sending 200 KB commands to the stopped engine's session. */
static void *hung_sender(void *arg)
{
    hung_t *h = arg;
    size_t n = 200 * 1024;
    char *cmd = malloc(n + 1);
    if (!cmd)
        return NULL;
    memcpy(cmd, "position startpos moves", 23);
    for (size_t i = 23; i < n; i += 5)
        memcpy(cmd + i, " e1e3", n - i < 5 ? n - i : 5);
    cmd[n] = 0;
    char path[96];
    snprintf(path, sizeof path, "/api/sessions/%s/commands", h->id);
    while (timeman_now_ms() < h->H->until_ms) {
        static __thread reply_t r;
        int64_t start = timeman_now_ms();
        http_request(h->H->port, "POST", path, cmd, NULL, &r);
        int took = (int)(timeman_now_ms() - start);
        if (took > atomic_load(&h->H->hung_slowest_ms))
            atomic_store(&h->H->hung_slowest_ms, took);
        atomic_fetch_add(&h->H->hung_sent, 1);
        if (r.status == 503)
            atomic_fetch_add(&h->H->hung_refused, 1);
        usleep(50 * 1000);
    }
    free(cmd);
    return NULL;
}

/* True when pid is gone (or a zombie waiting for init). */
static bool gone(pid_t pid)
{
    char path[64], text[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return true;
    size_t got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[got] = 0;
    const char *paren = strrchr(text, ')');
    return !paren || paren[2] == 'Z';
}

int web_hostile(int seconds, int slow)
{
    served_t s;
    if (!served_start(&s, "--max-sessions 8")) {
        printf("web: denham serve did not start (build ./denham first)\n");
        return 1;
    }
    hostile_t H = {.port = s.port, .slow = slow, .until_ms = timeman_now_ms() + seconds * 1000LL};
    /* The hung engine: the first session's, stopped. */
    hung_t hung = {.H = &H};
    int status;
    pid_t engines[16];
    if (!open_session(s.port, hung.id, &status) || children_list(s.pid, engines, 16) != 1) {
        printf("web: hostile: no session for the hung engine (%d)\n", status);
        served_stop(&s);
        return 1;
    }
    kill(engines[0], SIGSTOP);
    int hung_events = http_open_events(s.port, hung.id); /* its page stays: the session lives */
    /* The greedy one. */
    char greedy[33], path[96];
    static char events[1 << 16];
    bool capped = false;
    int greedy_events = -1;
    if (open_session(s.port, greedy, &status)) {
        int fd = greedy_events = http_open_events(s.port, greedy);
        events[0] = 0;
        snprintf(path, sizeof path, "/api/sessions/%s/commands", greedy);
        reply_t r;
        http_request(s.port, "POST", path, "setoption name Hash value 16384", NULL, &r);
        http_request(s.port, "POST", path, "setoption name Threads value 256", NULL, &r);
        http_request(s.port, "POST", path, "isready", NULL, &r);
        capped = http_read_until(fd, "readyok", events, sizeof events, 10000) &&
                 strstr(events, "info string denham serve: Hash is over") &&
                 strstr(events, "info string denham serve: Threads is over");
    }
    pthread_t slow_thread, hung_thread;
    pthread_create(&slow_thread, NULL, slow_clients, &H);
    pthread_create(&hung_thread, NULL, hung_sender, &hung);
    usleep(2500 * 1000); /* every slow connection a byte or more in */
    /* The prompt client: page loads, and a session's round trips. */
    char id[33];
    int64_t *page = malloc(sizeof *page * 100000), *rt = malloc(sizeof *rt * 100000);
    int n_page = 0, n_rt = 0, page_errors = 0, rt_errors = 0;
    long peak = 0;
    if (open_session(s.port, id, &status)) {
        int fd = http_open_events(s.port, id);
        events[0] = 0;
        http_read_until(fd, "\"started\"", events, sizeof events, 10000);
        static const char *const files[] = {"/", "/app.js", "/board.js", "/session.js", "/style.css"};
        for (int k = 0; timeman_now_ms() < H.until_ms && n_page < 100000; k++) {
            reply_t r;
            int64_t start = timeman_now_us();
            if (http_request(s.port, "GET", files[k % 5], NULL, NULL, &r) && r.status == 200)
                page[n_page++] = timeman_now_us() - start;
            else
                page_errors++;
            int64_t us = round_trip(s.port, fd, id, "isready", "readyok", events, sizeof events);
            if (us >= 0)
                rt[n_rt++] = us;
            else
                rt_errors++;
            long kib = rss_kib(s.pid);
            peak = kib > peak ? kib : peak;
            usleep(20 * 1000);
        }
        close(fd);
    } else {
        printf("web: hostile: the prompt client got no session (%d)\n", status);
    }
    int n_engines = children_list(s.pid, engines, 16);
    if (hung_events >= 0)
        close(hung_events);
    if (greedy_events >= 0)
        close(greedy_events);
    /* SIGTERM while the slow clients trickle and the engine is stopped. */
    H.until_ms = timeman_now_ms() + 60000; /* the helpers go on through the stop */
    int64_t stop_start = timeman_now_ms();
    kill(s.pid, SIGTERM);
    int wstatus = 0;
    bool exited = false;
    while (!exited && timeman_now_ms() - stop_start < 10000) {
        exited = waitpid(s.pid, &wstatus, WNOHANG) == s.pid;
        if (!exited)
            usleep(2 * 1000);
    }
    int64_t stop_ms = timeman_now_ms() - stop_start;
    if (!exited) {
        kill(s.pid, SIGKILL);
        waitpid(s.pid, NULL, 0);
    }
    H.until_ms = 0;
    pthread_join(slow_thread, NULL);
    pthread_join(hung_thread, NULL);
    usleep(200 * 1000);
    int left = 0;
    for (int i = 0; i < n_engines; i++)
        left += !gone(engines[i]);
    printf("web: hostile mix for %d s: %d slow connections (a byte every 2 s; %d ended by the server and opened "
           "again), one stopped engine sent 200 KB commands (%d sent, %d refused with 503, slowest answer %d ms), "
           "one asking Hash 16384 and Threads 256 (%s)\n",
           seconds, slow, atomic_load(&H.slow_ended), atomic_load(&H.hung_sent),
           atomic_load(&H.hung_refused), atomic_load(&H.hung_slowest_ms), capped ? "capped, with an info string" : "NOT capped");
    printf("web: hostile: a prompt client's page loads, %d: p50 %.2f ms, p99 %.2f ms, %d errors (target: p99 under "
           "100 ms); its round trips (isready), %d: p50 %.2f ms, p99 %.2f ms, %d errors (target: p99 under 50 ms)\n",
           n_page, (double)percentile(page, n_page, 0.5) / 1000.0, (double)percentile(page, n_page, 0.99) / 1000.0,
           page_errors, n_rt, (double)percentile(rt, n_rt, 0.5) / 1000.0, (double)percentile(rt, n_rt, 0.99) / 1000.0,
           rt_errors);
    printf("web: hostile: the server's own memory at most %ld KiB (target under 10 MB); SIGTERM to exit %lld ms "
           "(target under 2 s), status %d; engines left %d of %d\n",
           peak, (long long)stop_ms, exited && WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1, left, n_engines);
    free(page);
    free(rt);
    return 0;
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
    return web_hostile(seconds < 30 ? seconds : 30, 300);
}
