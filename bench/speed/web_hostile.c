/*
 * web_hostile.c: `denham serve` against hostile local clients, one pattern
 * at a time, each on a server of its own (./build/bench_denham web-hostile
 * [SECONDS] [PATTERN]), loopback only, every count and time bounded:
 *   quiet      nothing hostile: the prompt client alone, for reference;
 *   reconnect  1000 connections sending nothing, each opened again as soon
 *              as the server ends it (the door full of young connections);
 *   linger     100 clients that read their answer and never close, each
 *              asking again once the server has closed it;
 *   streams    63 tabs (--max-sessions 64) with their event streams open;
 *   bodies     600 connections each sending 256 KiB of a 256 KiB body and
 *              stalling, opened again when ended;
 *   flood      two engines writing `info string x` without end, their
 *              pages' streams open and never read;
 *   search     8 tabs analysing (`go infinite`) on 2 cores;
 *   slow       issue 53's mix: 300 connections trickling a byte every 2 s,
 *              an engine stopped (SIGSTOP) sent 200 KB commands, one asking
 *              Hash 16384 and Threads 256.
 * Beside each, a prompt client loads pages and sends commands (`isready`
 * to its answer on its event stream) every 20 ms. Per pattern: the load
 * average, the prompt client's page loads and round trips (p50, p99,
 * errors), the server's memory (peak while the pattern runs, and once it
 * has stopped and the server settled 3 s), threads and CPU (its time over
 * the pattern's, 100% a whole core), the time from
 * SIGTERM to its exit, and the engines left after it. DENHAM_SERVE names
 * another build to measure (main's, for the figures before).
 *
 * The hostile clients run at nice 10: on this machine's two cores their
 * own CPU (a thousand reconnections a second cost the client as much as
 * the server) would otherwise be measured as the server's slowness; what
 * is measured is whom the server serves.
 */
#define _GNU_SOURCE
#include "web_bench.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../engine/core/timeman.h"
#include "../tools/http_client.h"

#define SETTLE_MS 3000

typedef struct hostile {
    int port;
    pid_t server;
    atomic_bool stop;
    int count;
    atomic_int ended; /* connections the server ended (reopened) */
    char ids[64][33]; /* sessions the pattern opened */
    int n_ids;
} hostile_t;

/* ---- figures ---- */

static double load_average(void)
{
    double l = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f && fscanf(f, "%lf", &l) != 1)
        l = -1;
    if (f)
        fclose(f);
    return l;
}

static double pct_ms(int64_t *us, int n, double p) { return n ? (double)web_percentile(us, n, p) / 1000.0 : -1; }

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

static bool open_session(int port, char id[33])
{
    reply_t r;
    if (!http_request(port, "POST", "/api/sessions", NULL, NULL, &r) || r.status != 201)
        return false;
    const char *at = strstr(r.body, "\"id\":\"");
    if (!at)
        return false;
    snprintf(id, 33, "%.32s", at + 6);
    return true;
}

static void command(int port, const char *id, const char *line)
{
    char path[96];
    snprintf(path, sizeof path, "/api/sessions/%s/commands", id);
    static __thread reply_t r;
    http_request(port, "POST", path, line, NULL, &r);
}

/* ---- the patterns' clients (one thread each, non-blocking sockets) ---- */

/* This thread at nice 10 (the others keep theirs). */
static void lower_priority(void) { setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10); }

/* Whether the server has ended fd (or answered it): what it sent is read. */
static bool ended_by_server(int fd)
{
    char sink[4096];
    ssize_t n = recv(fd, sink, sizeof sink, MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* Sockets kept open, each opened again (with `begin` sent) once the
 * server ends it; `keep_reading`: the answer is read, the socket kept
 * until the server closes it (a lingerer); else any byte from the server
 * ends it (it answered or refused). */
static void churn(hostile_t *H, const char *begin, size_t begin_len, const char *more, size_t more_len,
                  bool keep_reading)
{
    int n = H->count;
    int *fd = calloc((size_t)n, sizeof *fd);
    size_t *sent = calloc((size_t)n, sizeof *sent);
    struct pollfd *p = calloc((size_t)n, sizeof *p);
    for (int i = 0; fd && sent && p && i < n; i++)
        fd[i] = -1;
    while (fd && sent && p && !atomic_load(&H->stop)) {
        for (int i = 0; i < n && !atomic_load(&H->stop); i++) {
            if (fd[i] >= 0)
                continue;
            fd[i] = http_connect(H->port);
            sent[i] = 0;
            if (fd[i] >= 0 && begin_len && send(fd[i], begin, begin_len, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
            }
        }
        for (int i = 0; i < n; i++) {
            if (fd[i] >= 0 && more_len && sent[i] < more_len) { /* a body, as far as the server takes it */
                ssize_t k = send(fd[i], more + sent[i], more_len - sent[i], MSG_NOSIGNAL | MSG_DONTWAIT);
                sent[i] += k > 0 ? (size_t)k : 0;
            }
            p[i] = (struct pollfd){fd[i], POLLIN, 0};
        }
        if (poll(p, (nfds_t)n, 50) <= 0)
            continue;
        for (int i = 0; i < n; i++) {
            if (fd[i] < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            bool end = ended_by_server(fd[i]);
            if (!keep_reading || end) {
                close(fd[i]);
                fd[i] = -1;
                atomic_fetch_add(&H->ended, 1);
            }
        }
    }
    for (int i = 0; fd && i < n; i++)
        if (fd[i] >= 0)
            close(fd[i]);
    free(fd);
    free(sent);
    free(p);
}

static void *reconnect(void *arg)
{
    churn(arg, NULL, 0, NULL, 0, false);
    return NULL;
}

static void *linger(void *arg)
{
    hostile_t *H = arg;
    char req[128];
    int n = snprintf(req, sizeof req, "GET /app.js HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n", H->port);
    churn(H, req, (size_t)n, NULL, 0, true);
    return NULL;
}

static void *bodies(void *arg)
{
    hostile_t *H = arg;
    char head[160];
    int n = snprintf(head, sizeof head,
                     "POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: 262144\r\n\r\n", H->port);
    size_t len = 262144 - 1; /* all but its last byte */
    char *body = malloc(len);
    if (body) {
        memset(body, 'x', len);
        churn(H, head, (size_t)n, body, len, false);
    }
    free(body);
    return NULL;
}

/* Event streams opened on the pattern's sessions (and read, unless `mute`). */
static void hold_streams(hostile_t *H, bool mute)
{
    int fd[64], n = 0;
    for (int i = 0; i < H->n_ids; i++)
        if ((fd[n] = http_open_events(H->port, H->ids[i])) >= 0)
            n++;
    while (!atomic_load(&H->stop)) {
        struct pollfd p[64];
        for (int i = 0; i < n; i++)
            p[i] = (struct pollfd){fd[i], mute ? 0 : POLLIN, 0};
        if (poll(p, (nfds_t)n, 100) <= 0)
            continue;
        for (int i = 0; i < n; i++)
            if (p[i].revents & POLLIN) {
                char sink[16384];
                if (recv(fd[i], sink, sizeof sink, MSG_DONTWAIT) == 0)
                    p[i].fd = -1;
            }
    }
    for (int i = 0; i < n; i++)
        close(fd[i]);
}

static void *streams(void *arg)
{
    hold_streams(arg, false);
    return NULL;
}

static void *flood(void *arg)
{
    hostile_t *H = arg;
    for (int i = 0; i < H->n_ids; i++)
        command(H->port, H->ids[i], "flood");
    hold_streams(H, true);
    return NULL;
}

static void *search(void *arg)
{
    hostile_t *H = arg;
    for (int i = 0; i < H->n_ids; i++)
        command(H->port, H->ids[i], "go infinite");
    hold_streams(H, false);
    return NULL;
}

/* Sends 200 KB commands to the stopped engine's session (each waits up
 * to 2 s for its 503). */
static void *big_commands(void *arg)
{
    hostile_t *H = arg;
    lower_priority();
    size_t big = 200 * 1024;
    char *cmd = malloc(big + 1);
    if (!cmd)
        return NULL;
    memcpy(cmd, "position startpos moves", 23);
    for (size_t i = 23; i < big; i += 5)
        memcpy(cmd + i, " e1e3", big - i < 5 ? big - i : 5);
    cmd[big] = 0;
    while (!atomic_load(&H->stop)) {
        command(H->port, H->ids[0], cmd);
        usleep(50 * 1000);
    }
    free(cmd);
    return NULL;
}

/* Issue 53's mix: trickling connections, a stopped engine sent 200 KB
 * commands, a greedy one. */
static void *slow(void *arg)
{
    hostile_t *H = arg;
    static const char head[] = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
    int *fd = calloc((size_t)H->count, sizeof *fd);
    size_t *sent = calloc((size_t)H->count, sizeof *sent);
    pthread_t sender;
    bool sending = false;
    if (!fd || !sent)
        goto out;
    pid_t engine = 0; /* the first session's engine, stopped */
    if (H->n_ids > 0 && children_list(H->server, &engine, 1) == 1)
        kill(engine, SIGSTOP);
    if (H->n_ids > 1) {
        command(H->port, H->ids[1], "setoption name Hash value 16384");
        command(H->port, H->ids[1], "setoption name Threads value 256");
    }
    for (int i = 0; i < H->count; i++)
        fd[i] = http_connect(H->port);
    sending = H->n_ids > 0 && pthread_create(&sender, NULL, big_commands, H) == 0;
    for (int tick = 0; !atomic_load(&H->stop); tick++) {
        for (int i = tick % 20; i < H->count; i += 20) { /* each a byte every 2 s */
            if (fd[i] < 0 || ended_by_server(fd[i])) {
                if (fd[i] >= 0) {
                    close(fd[i]);
                    atomic_fetch_add(&H->ended, 1);
                }
                fd[i] = http_connect(H->port);
                sent[i] = 0;
                continue;
            }
            char c = sent[i] < sizeof head - 1 ? head[sent[i]] : 'a';
            if (send(fd[i], &c, 1, MSG_NOSIGNAL | MSG_DONTWAIT) == 1)
                sent[i]++;
        }
        usleep(100 * 1000);
    }
    if (sending)
        pthread_join(sender, NULL);
out:
    for (int i = 0; fd && i < H->count; i++)
        if (fd[i] >= 0)
            close(fd[i]);
    free(fd);
    free(sent);
    return NULL;
}

typedef struct hostile_run {
    void *(*run)(void *);
    hostile_t *H;
} hostile_run_t;

static void *hostile_thread(void *arg)
{
    hostile_run_t *r = arg;
    lower_priority();
    return r->run(r->H);
}

typedef struct pattern {
    const char *name, *what, *args;
    void *(*run)(void *);
    int count;    /* connections */
    int sessions; /* sessions it opens first */
} pattern_t;

static const pattern_t patterns[] = {
    {"quiet", "nothing hostile", "--max-sessions 8", NULL, 0, 0},
    {"reconnect", "1000 connections sending nothing, reopened when ended", "--max-sessions 8", reconnect, 1000, 0},
    {"linger", "100 clients reading their answer and never closing", "--max-sessions 8", linger, 100, 0},
    {"streams", "63 tabs with their event streams (--max-sessions 64)", "--max-sessions 64", streams, 0, 63},
    {"bodies", "600 connections each holding 256 KiB of a body", "--max-sessions 8", bodies, 600, 0},
    {"flood", "2 engines flooding their output, their pages not reading", "--max-sessions 8 --engine tests/engines/flood.sh",
     flood, 0, 2},
    {"search", "8 tabs analysing (go infinite) on the machine's cores", "--max-sessions 16", search, 0, 8},
    {"slow", "issue 53: 300 trickling, a stopped engine sent 200 KB, a greedy one", "--max-sessions 8", slow, 300, 2},
};

typedef struct result {
    double load;
    int pages, page_errors, trips, trip_errors;
    double page_p50, page_p99, trip_p50, trip_p99;
    long peak_kib, after_kib, rest_kib, peak_threads;
    double cpu_share; /* the server's CPU time over the pattern's time */
    long long stop_ms;
    int engines, left;
    int ended;
    bool started;
} result_t;

/* One pattern on a server of its own. */
static result_t run_pattern(const pattern_t *pt, int seconds)
{
    result_t R = {.load = load_average(), .stop_ms = -1};
    served_t s;
    if (!served_start(&s, pt->args))
        return R;
    R.started = true;
    R.rest_kib = proc_status(s.pid, "VmRSS");
    hostile_t *H = calloc(1, sizeof *H);
    H->port = s.port;
    H->server = s.pid;
    H->count = pt->count;
    for (int i = 0; i < pt->sessions && H->n_ids < 64; i++)
        if (open_session(s.port, H->ids[H->n_ids]))
            H->n_ids++;
    /* The prompt client's session first (it must get one), then the hostile. */
    char id[33] = "";
    bool have = false;
    for (int64_t until = timeman_now_ms() + 5000; !have && timeman_now_ms() < until;)
        if (!(have = open_session(s.port, id)))
            usleep(100 * 1000);
    int events = have ? http_open_events(s.port, id) : -1;
    static char buf[1 << 16];
    buf[0] = 0;
    if (events >= 0)
        http_read_until(events, "\"started\"", buf, sizeof buf, 10000);
    pthread_t th;
    bool running = pt->run && pthread_create(&th, NULL, hostile_thread, &(hostile_run_t){pt->run, H}) == 0;
    usleep(1500 * 1000); /* the pattern under way */
    static int64_t page[20000], trip[20000];
    static const char *const files[] = {"/", "/app.js", "/board.js", "/session.js", "/style.css"};
    pid_t engines[128];
    int n_engines = 0;
    long cpu_start = proc_cpu_ms(s.pid);
    int64_t measured_from = timeman_now_ms();
    for (int64_t until = timeman_now_ms() + seconds * 1000LL, k = 0; timeman_now_ms() < until && k < 20000; k++) {
        reply_t r;
        int64_t t0 = timeman_now_us();
        if (http_request(s.port, "GET", files[k % 5], NULL, NULL, &r) && r.status == 200)
            page[R.pages++] = timeman_now_us() - t0;
        else
            R.page_errors++;
        char path[96];
        snprintf(path, sizeof path, "/api/sessions/%s/commands", id);
        buf[0] = 0;
        t0 = timeman_now_us();
        if (events >= 0 && http_request(s.port, "POST", path, "isready", NULL, &r) && r.status == 202 &&
            http_read_until(events, "data: readyok", buf, sizeof buf, 5000))
            trip[R.trips++] = timeman_now_us() - t0;
        else
            R.trip_errors++;
        long kib = proc_status(s.pid, "VmRSS"), threads = proc_status(s.pid, "Threads");
        R.peak_kib = kib > R.peak_kib ? kib : R.peak_kib;
        R.peak_threads = threads > R.peak_threads ? threads : R.peak_threads;
        if (k % 25 == 0) { /* the engines it runs, to find after the stop */
            pid_t now[128];
            int n = children_list(s.pid, now, 128);
            for (int i = 0; i < n; i++) {
                bool known = false;
                for (int j = 0; j < n_engines && !known; j++)
                    known = engines[j] == now[i];
                if (!known && n_engines < 128)
                    engines[n_engines++] = now[i];
            }
        }
        usleep(20 * 1000);
    }
    R.cpu_share = (double)(proc_cpu_ms(s.pid) - cpu_start) / (double)(timeman_now_ms() - measured_from);
    atomic_store(&H->stop, true);
    if (running)
        pthread_join(th, NULL);
    R.ended = atomic_load(&H->ended);
    if (events >= 0)
        close(events);
    usleep(SETTLE_MS * 1000); /* the pattern gone: what the server keeps */
    R.after_kib = proc_status(s.pid, "VmRSS");
    int64_t t0 = timeman_now_ms();
    kill(s.pid, SIGTERM);
    int status;
    bool exited = false;
    while (!exited && timeman_now_ms() - t0 < 10000)
        if (!(exited = waitpid(s.pid, &status, WNOHANG) == s.pid))
            usleep(1000);
    R.stop_ms = exited ? timeman_now_ms() - t0 : -1;
    if (!exited) {
        kill(s.pid, SIGKILL);
        waitpid(s.pid, NULL, 0);
    }
    usleep(200 * 1000);
    for (int i = 0; i < n_engines; i++) {
        R.left += !gone(engines[i]);
        if (!gone(engines[i])) /* (a stopped engine the old server left: ours to end) */
            kill(engines[i], SIGKILL);
    }
    R.engines = n_engines;
    R.page_p50 = pct_ms(page, R.pages, 0.5);
    R.page_p99 = pct_ms(page, R.pages, 0.99);
    R.trip_p50 = pct_ms(trip, R.trips, 0.5);
    R.trip_p99 = pct_ms(trip, R.trips, 0.99);
    free(H);
    return R;
}

/* The bench's own descriptors: the patterns hold a thousand. */
static void raise_files(void)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r) == 0) {
        r.rlim_cur = r.rlim_max > 8192 ? 8192 : r.rlim_max;
        setrlimit(RLIMIT_NOFILE, &r);
    }
}

int web_hostile(int seconds, const char *only)
{
    raise_files();
    signal(SIGPIPE, SIG_IGN);
    const char *bin = getenv("DENHAM_SERVE");
    printf("web-hostile: %s, %d s per pattern beside a prompt client (a page load and an isready round trip every "
           "20 ms); targets: p99 < 50 ms, memory < 16 MB during and < 8 MB after, SIGTERM < 1 s, nothing left\n",
           bin && *bin ? bin : "./denham", seconds);
    printf("| pattern | load | pages p50 / p99 ms (errors) | commands p50 / p99 ms (errors) | memory MB: rest / peak / "
           "after | threads peak | server CPU | SIGTERM ms | engines left |\n|---|---|---|---|---|---|---|---|---|\n");
    fflush(stdout);
    int failed = 0;
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
        const pattern_t *pt = &patterns[i];
        if (only && strcmp(only, pt->name) != 0)
            continue;
        result_t R = run_pattern(pt, seconds);
        if (!R.started) {
            printf("| %s | the server did not start (build ./denham first) |\n", pt->name);
            failed = 1;
            continue;
        }
        printf("| %s: %s | %.2f | %.2f / %.2f (%d of %d) | %.2f / %.2f (%d of %d) | %.1f / %.1f / %.1f | %ld | %.0f%% | "
               "%lld | %d of %d |\n",
               pt->name, pt->what, R.load, R.page_p50, R.page_p99, R.page_errors, R.pages + R.page_errors, R.trip_p50,
               R.trip_p99, R.trip_errors, R.trips + R.trip_errors, R.rest_kib / 1024.0, R.peak_kib / 1024.0,
               R.after_kib / 1024.0, R.peak_threads, 100.0 * R.cpu_share, R.stop_ms, R.left, R.engines);
        fflush(stdout);
    }
    return failed;
}
