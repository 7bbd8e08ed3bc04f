/* test_serve_loop.c: `denham serve` against the client patterns of issue
 * 64, each of which starved the server of threads before: connections,
 * event streams and engine pipes in one loop, no thread parked on a
 * socket (64 event streams, 100 lingering clients, a door full of young
 * connections, hoarded request bodies: a prompt client is served through
 * each, the server stays within its memory); an engine's output read with
 * back-pressure (a flooding engine blocks on its own pipe, and a page gets
 * every line, in order); searching threads capped, searches beyond waiting
 * their turn; and the defects found with them: a NUL in the target, HEAD
 * errors with a body, an engine that closes its output reported as killed.
 * Drives the server as a program (serve_helpers.h). */
#define _GNU_SOURCE /* usleep, kill */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../engine/core/timeman.h"
#include "../protocol/serve/http.h"
#include "../protocol/serve/ring.h"
#include "helpers.h"
#include "serve_helpers.h"

/* ---- what /proc says of the server ---- */

static long rss_kib(pid_t pid) { return proc_status(pid, "VmRSS"); }
static long threads_of(pid_t pid) { return proc_status(pid, "Threads"); }

/* Bytes the process has written (its `wchar`). */
static long long written_by(pid_t pid)
{
    char path[64], line[128];
    snprintf(path, sizeof path, "/proc/%d/io", (int)pid);
    FILE *f = fopen(path, "r");
    long long v = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "wchar: %lld", &v) == 1)
            break;
    if (f)
        fclose(f);
    return v;
}

/* Whether the server runs under a sanitizer (make tsan's build): its
 * shadow memory is in its RSS, so the memory bounds are not its own. */
static bool sanitized(pid_t pid)
{
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
    FILE *f = fopen(path, "r");
    bool found = false;
    while (f && !found && fgets(line, sizeof line, f))
        found = strstr(line, "libtsan") || strstr(line, "libasan");
    if (f)
        fclose(f);
    return found;
}

/* As many descriptors as the hard limit allows (the patterns open hundreds). */
static int raise_files(void)
{
    struct rlimit r;
    getrlimit(RLIMIT_NOFILE, &r);
    r.rlim_cur = r.rlim_max;
    setrlimit(RLIMIT_NOFILE, &r);
    getrlimit(RLIMIT_NOFILE, &r);
    return (int)(r.rlim_cur > 100000 ? 100000 : r.rlim_cur);
}

/* A prompt client: n page loads, each whole and 200 within ms. */
static void prompt_pages(int n, int ms)
{
    static const char *const files[] = {"/", "/app.js", "/style.css", "/api/info"};
    for (int i = 0; i < n; i++) {
        reply_t r;
        int64_t start = timeman_now_ms();
        bool ok = http_request(server.port, "GET", files[i % 4], NULL, NULL, &r);
        int64_t took = timeman_now_ms() - start;
        ck_assert_msg(ok && r.status == 200, "prompt request %d of %d: %s answered %d (%s)", i + 1, n, files[i % 4],
                      r.status, r.body);
        ck_assert_msg(took < ms, "prompt request %d took %lld ms", i + 1, (long long)took);
    }
}

/* The status of what a connection was answered (-1: nothing, or still open). */
static int status_of(int fd)
{
    char buf[512];
    ssize_t n = recv(fd, buf, sizeof buf - 1, MSG_DONTWAIT);
    if (n <= 0)
        return -1;
    buf[n] = 0;
    int status = -1;
    sscanf(buf, "HTTP/1.1 %d", &status);
    return status;
}

/* ---- the ring (pure) ---- */

/* Nothing unsent is ever dropped: a push that does not fit is refused
 * until a stream takes entries; what was sent goes as room is needed, a
 * little kept for a reconnection; memory follows what is held. */
START_TEST(the_ring_refuses_instead_of_dropping)
{
    ring_t r;
    ring_init(&r, 4096, 512);
    char line[100];
    memset(line, 'x', sizeof line);
    int pushed = 0;
    while (pushed < 1000 && ring_push(&r, RING_LINE, line, sizeof line, r.sent, false))
        pushed++;
    ck_assert_int_eq(pushed, 4096 / (100 + RING_ENTRY_OVERHEAD)); /* full of unsent entries: refused */
    ck_assert(ring_push(&r, RING_EVENT, "{}", 2, r.sent, true)); /* the server's own event passes */
    ring_pos_t pos = ring_seek(&r, 1);
    ring_entry_t e;
    for (int i = 0; i < 10; i++) { /* a stream takes ten */
        ck_assert(ring_get(&r, &pos, &e));
        ck_assert_int_eq((int)e.seq, i + 1);
        ck_assert_int_eq((int)e.len, 100);
        ring_advance(&r, &pos, &e);
    }
    ck_assert(ring_fits(&r, 100, pos));
    ck_assert(!ring_fits(&r, 100, ring_seek(&r, 1))); /* a stream still at the first holds it all */
    int again = 0; /* the room the ten made: the event's 7 bytes over max leave nine */
    while (again < 1000 && ring_push(&r, RING_LINE, line, sizeof line, pos, false))
        again++;
    ck_assert_int_eq(again, 9);
    ck_assert_int_gt((int)r.first, 1);             /* sent entries went for room */
    ck_assert_int_le((int)r.first, 11);            /* and never one not sent */
    ring_pos_t old = ring_seek(&r, 1);             /* a page back with an old id gets the oldest kept */
    ck_assert(ring_get(&r, &old, &e) && e.seq == r.first);
    /* Everything taken: the held bytes shrink to the history, and memory follows. */
    while (ring_get(&r, &pos, &e))
        ring_advance(&r, &pos, &e);
    ring_reclaim(&r, pos);
    ck_assert_uint_le(r.end - r.start, 512);
    ck_assert(!ring_get(&r, &pos, &e));
    ring_t big;
    ring_init(&big, 1 << 20, 1024);
    static char piece[65536];
    memset(piece, 'y', sizeof piece);
    for (int i = 0; i < 15; i++)
        ck_assert(ring_push(&big, RING_LINE, piece, sizeof piece, big.sent, false));
    ck_assert_uint_ge(ring_allocated(&big), 15 * sizeof piece);
    ring_pos_t all = ring_seek(&big, big.next);
    big.sent = all;
    ring_reclaim(&big, all);
    ck_assert_uint_le(ring_allocated(&big), 4096);
    ring_clear(&big);
    ring_clear(&r);
}
END_TEST

/* ---- the defects ---- */

/* A NUL ends no path early, and an error answers HEAD with its length only. */
START_TEST(a_nul_in_the_target_and_errors_to_head)
{
    http_request_t req;
    static const char nul[] = "GET /api/info\0garbage HTTP/1.1\r\nHost: h:1\r\n\r\n";
    ck_assert_int_eq(http_parse(nul, sizeof nul - 1, &req), 400);
    static const char query[] = "GET /api/info?x\0y HTTP/1.1\r\nHost: h:1\r\n\r\n";
    ck_assert_int_eq(http_parse(query, sizeof query - 1, &req), 400);
    ck_assert_int_eq(http_parse("GET /a?b=c HTTP/1.1\r\nHost: h:1\r\n\r\n", 34, &req), 200);
    ck_assert_str_eq(req.path, "/a");
    server_up("");
    static char answer[1 << 16];
    char text[256];
    int n = snprintf(text, sizeof text, "GET /api/info%cgarbage HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n", 0, server.port);
    ck_assert_int_eq(checked_status(answer, exchange(text, (size_t)n, answer, sizeof answer), false), 400);
    static const struct {
        const char *target;
        int status;
    } heads[] = {{"/nothing", 404}, {"/api/info", 405}, {"/api/sessions/0123456789abcdef0123456789abcdef", 404}};
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        n = snprintf(text, sizeof text, "HEAD %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n", heads[i].target, server.port);
        size_t got = exchange(text, (size_t)n, answer, sizeof answer);
        ck_assert_int_eq(checked_status(answer, got, true), heads[i].status); /* no byte of body */
        ck_assert_msg(!strstr(answer, "Content-Length: 0\r\n"), "HEAD %s gave no length: %s", heads[i].target, answer);
    }
    server_down();
}
END_TEST

/* An engine that closes its output and stays is ended, and said to have
 * closed its output, not to have died of a signal. */
START_TEST(an_engine_that_closes_its_output_is_reported_so)
{
    server_up("--engine tests/engines/mute.sh");
    static char events[65536];
    char id[33];
    int fd = open_with_events(id, events, sizeof events);
    ck_assert_msg(http_read_until(fd, "\"state\":\"crashed\"", events, sizeof events, 5000), "%s", events);
    ck_assert_msg(http_read_until(fd, "\"state\":\"restarted\"", events, sizeof events, 5000), "%s", events);
    ck_assert_msg(strstr(events, "closed its output") && !strstr(events, "signal"), "%s", events);
    ck_assert(strstr(events, "data: id name mute"));
    close(fd);
    server_down();
}
END_TEST

/* ---- back-pressure ---- */

/* A flooding engine with no page listening blocks on its own pipe (it
 * writes nothing more, the server spends no time on it); a page then gets
 * every line it wrote, in order, none dropped. */
START_TEST(a_flooding_engine_is_held_by_back_pressure)
{
    server_up("--engine tests/engines/flood.sh");
    reply_t r;
    ck_assert(http_request(server.port, "POST", "/api/sessions", NULL, NULL, &r) && r.status == 201);
    char id[33];
    reply_session_id(&r, id);
    post_command(id, "flood", &r);
    ck_assert_int_eq(r.status, 202);
    usleep(1000 * 1000); /* its ring, its pipe and our buffer fill */
    pid_t engine = 0;
    ck_assert_int_eq(children_list(server.pid, &engine, 1), 1);
    long long before = written_by(engine);
    long cpu_before = proc_cpu_ms(server.pid);
    usleep(1000 * 1000);
    long long after = written_by(engine);
    long cpu = proc_cpu_ms(server.pid) - cpu_before;
    ck_assert_msg(before > 0 && after == before, "the engine wrote %lld bytes more in a second with nobody reading",
                  after - before);
    ck_assert_msg(cpu < 200, "the server spent %ld ms of CPU in that second", cpu);
    /* The page: every line from the first, each id the one before plus one. */
    int fd = http_open_events(server.port, id);
    static char buf[1 << 16];
    size_t len = 0;
    unsigned long long expect = 1, lines = 0;
    for (int64_t until = timeman_now_ms() + 20000; expect <= 20000 && timeman_now_ms() < until;) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 200) <= 0)
            continue;
        ssize_t n = recv(fd, buf + len, sizeof buf - 1 - len, 0);
        ck_assert_int_gt(n, 0);
        len += (size_t)n;
        buf[len] = 0;
        char *at = buf, *end;
        while ((end = strstr(at, "\n\n"))) { /* one event */
            *end = 0;
            const char *idl = strstr(at, "id: ");
            if (idl) {
                unsigned long long got = strtoull(idl + 4, NULL, 10);
                ck_assert_msg(got == expect, "event %llu after %llu", got, expect - 1);
                expect++;
                lines += strstr(at, "data: info string x") != NULL;
            }
            at = end + 2;
        }
        len = strlen(at);
        memmove(buf, at, len + 1);
    }
    ck_assert_msg(expect > 20000 && lines >= 19990, "%llu events, %llu flood lines", expect - 1, lines);
    close(fd);
    server_down();
}
END_TEST

/* ---- searching threads ---- */

START_TEST(searches_beyond_the_cap_wait_their_turn)
{
    server_up("--max-search-threads 1 --max-sessions 3");
    static char ea[1 << 16], eb[1 << 16];
    char a[33], b[33];
    int fa = open_with_events(a, ea, sizeof ea), fb = open_with_events(b, eb, sizeof eb);
    reply_t r;
    pid_t engines[2];
    ck_assert_int_eq(children_list(server.pid, engines, 2), 2);
    int below = getpriority(PRIO_PROCESS, (id_t)server.pid) + 5;
    for (int i = 0; i < 2; i++) /* below the server, which answers beside them */
        ck_assert_int_eq(getpriority(PRIO_PROCESS, (id_t)engines[i]), below > 19 ? 19 : below);
    post_command(a, "go infinite", &r);
    ck_assert_msg(r.status == 202 && !strstr(r.body, "queued"), "%d %s", r.status, r.body);
    post_command(b, "go depth 3", &r);
    ck_assert_msg(r.status == 202 && strstr(r.body, "\"queued\":true"), "%d %s", r.status, r.body);
    ck_assert_msg(http_read_until(fb, "every core is searching (1 of 1 threads", eb, sizeof eb, 5000), "%s", eb);
    ck_assert(http_request(server.port, "GET", "/api/info", NULL, NULL, &r) && r.status == 200);
    ck_assert_msg(strstr(r.body, "\"maxSearchThreads\":1,\"searchThreads\":1,\"searchesWaiting\":1"), "%s", r.body);
    post_command(b, "isready", &r); /* held behind its search, in order */
    ck_assert_msg(r.status == 202 && strstr(r.body, "queued"), "%d %s", r.status, r.body);
    ck_assert_msg(!http_read_until(fb, "bestmove", eb, sizeof eb, 1000), "b searched beside a: %s", eb);
    post_command(a, "stop", &r);
    ck_assert(http_read_until(fa, "data: bestmove", ea, sizeof ea, 5000));
    ck_assert_msg(http_read_until(fb, "data: bestmove", eb, sizeof eb, 10000), "%s", eb);
    ck_assert_msg(http_read_until(fb, "data: readyok", eb, sizeof eb, 5000), "%s", eb);
    /* A search waiting is released by its stop: it starts, and ends at once. */
    post_command(a, "go infinite", &r);
    ck_assert_msg(r.status == 202 && !strstr(r.body, "queued"), "%d %s", r.status, r.body);
    eb[0] = 0;
    post_command(b, "go infinite", &r);
    ck_assert_msg(strstr(r.body, "queued"), "%s", r.body);
    post_command(b, "stop", &r);
    ck_assert_msg(http_read_until(fb, "data: bestmove", eb, sizeof eb, 5000), "%s", eb);
    ck_assert(http_request(server.port, "GET", "/api/info", NULL, NULL, &r));
    ck_assert_msg(strstr(r.body, "\"searchThreads\":1,\"searchesWaiting\":0"), "%s", r.body);
    /* A crash ends its search: the next one starts. */
    eb[0] = 0;
    post_command(b, "go depth 2", &r);
    ck_assert(strstr(r.body, "queued"));
    post_command(a, "quit", &r);
    ck_assert_msg(http_read_until(fb, "data: bestmove", eb, sizeof eb, 10000), "%s", eb);
    close(fa);
    close(fb);
    server_down();
}
END_TEST

/* ---- client patterns that took every thread before ---- */

/* 64 tabs with their event streams: all on the loop's one thread, and a
 * prompt client is answered beside them. */
START_TEST(event_streams_hold_no_thread)
{
    raise_files();
    server_up("--max-sessions 64 --engine cat");
    long at_rest = threads_of(server.pid); /* 1 (a sanitizer's runtime may add its own) */
    static char events[4096];
    char id[33];
    int fds[64];
    for (int i = 0; i < 64; i++)
        fds[i] = open_with_events(id, events, sizeof events);
    ck_assert_int_eq(threads_of(server.pid), at_rest);
    prompt_pages(20, 2000);
    reply_t r;
    post_command(id, "hello", &r); /* (cat says it back) */
    ck_assert(r.status == 202 && http_read_until(fds[63], "data: hello", events, sizeof events, 5000));
    for (int i = 0; i < 64; i++)
        close(fds[i]);
    server_down();
}
END_TEST

/* 100 clients that read their answer and keep the connection open: they
 * cost no thread, and everyone else is answered. */
START_TEST(lingering_clients_hold_nothing)
{
    raise_files();
    server_up("");
    long at_rest = threads_of(server.pid);
    int fds[100];
    char text[128];
    int n = snprintf(text, sizeof text, "GET /app.js HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n", server.port);
    for (int i = 0; i < 100; i++) {
        fds[i] = http_connect(server.port);
        ck_assert_int_eq(send(fds[i], text, (size_t)n, MSG_NOSIGNAL), n);
    }
    usleep(100 * 1000);
    prompt_pages(40, 2000);
    ck_assert_int_eq(threads_of(server.pid), at_rest);
    for (int i = 0; i < 100; i++)
        close(fds[i]);
    server_down();
}
END_TEST

/* A door full of young connections: the oldest gives way to each new one,
 * whatever its age, and a prompt client is served at once. */
START_TEST(young_connections_give_way)
{
    int files = raise_files();
    int many = files > 900 ? 600 : files - 300;
    ck_assert_int_gt(many, 520);
    server_up("");
    int *fds = malloc(sizeof *fds * (size_t)many);
    for (int i = 0; i < many; i++)
        fds[i] = http_connect(server.port);
    usleep(200 * 1000); /* all of them well under a second old */
    prompt_pages(20, 2000);
    int refused = 0;
    for (int i = 0; i < many; i++) {
        refused += status_of(fds[i]) == 503;
        close(fds[i]);
    }
    ck_assert_msg(refused >= many - 512, "%d of %d connections given way", refused, many);
    free(fds);
    server_down();
}
END_TEST

/* What a hoarder sends: the head of a 256 KiB body, and `sent` bytes of
 * it (free the body after). */
typedef struct hoard {
    char head[256];
    int head_len;
    char *body;
} hoard_t;

static hoard_t hoard_new(size_t sent)
{
    hoard_t h;
    h.head_len = snprintf(h.head, sizeof h.head,
                          "POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: 262144\r\n\r\n", server.port);
    h.body = malloc(sent);
    ck_assert_ptr_nonnull(h.body);
    memset(h.body, 'x', sent);
    return h;
}

/* Bodies sent in part and held: the oldest give way when the budget is
 * full; the server's memory stays small, and goes back after. */
START_TEST(hoarded_bodies_stay_within_the_budget)
{
    raise_files();
    server_up("");
    enum { HOARDERS = 200, SENT = 200 * 1024 };
    int fds[HOARDERS];
    hoard_t h = hoard_new(SENT);
    long peak = 0;
    for (int i = 0; i < HOARDERS; i++) {
        fds[i] = http_connect(server.port);
        send(fds[i], h.head, (size_t)h.head_len, MSG_NOSIGNAL);
        for (size_t sent = 0; sent < SENT;) { /* as much as the server takes now */
            ssize_t k = send(fds[i], h.body + sent, SENT - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (k <= 0)
                break;
            sent += (size_t)k;
        }
        long kib = rss_kib(server.pid);
        peak = kib > peak ? kib : peak;
    }
    /* Once the server has read what came (the oldest given way as it
     * did), the budget is full of bodies: a prompt client is served. */
    int refused = 0;
    bool seen[HOARDERS] = {false};
    for (int64_t until = timeman_now_ms() + 20000; refused <= HOARDERS / 2 && timeman_now_ms() < until;) {
        for (int i = 0; i < HOARDERS; i++)
            if (!seen[i] && status_of(fds[i]) == 503)
                seen[i] = true, refused++;
        long kib = rss_kib(server.pid);
        peak = kib > peak ? kib : peak;
        usleep(100 * 1000);
    }
    prompt_pages(10, 2000);
    for (int i = 0; i < HOARDERS; i++)
        close(fds[i]);
    free(h.body);
    ck_assert_msg(refused > HOARDERS / 2, "%d of %d hoarders given way", refused, HOARDERS);
    if (!sanitized(server.pid)) {
        ck_assert_msg(peak < 16 * 1024, "the server held %ld KiB", peak);
        long after = 0;
        for (int64_t until = timeman_now_ms() + 4000; timeman_now_ms() < until; usleep(200 * 1000))
            if ((after = rss_kib(server.pid)) < 8 * 1024)
                break;
        ck_assert_msg(after < 8 * 1024, "the server still held %ld KiB after", after);
    }
    server_down();
}
END_TEST

/* When the first bytes waiting on fd came (the kernel's stamp, µs), or
 * -1: nothing came. */
static int64_t first_bytes_at(int fd)
{
    char data[1], control[CMSG_SPACE(sizeof(struct timespec))];
    struct iovec iov = {data, sizeof data};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
    if (recvmsg(fd, &m, MSG_PEEK | MSG_DONTWAIT) <= 0)
        return -1;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
            struct timespec t;
            memcpy(&t, CMSG_DATA(c), sizeof t);
            return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
        }
    return -1;
}

static int stamped_connect(int port)
{
    int fd = http_connect(port), one = 1;
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one), 0);
    return fd;
}

/* Hoarders' bodies and a prompt client's request wait together for the
 * server (stopped while they come): the prompt request, whole in what it
 * sent, is answered before the hoarders' first reads are all taken (the
 * turn's reading spent, the rest are only looked at), so that it waits
 * for no queue of them. Before, every hoarder ahead of it in the door was
 * read first, the budget's oldest giving way (503) to each. The order is
 * the kernel's: when each answer reached its socket. */
START_TEST(a_whole_request_waits_for_no_hoarders_first_reads)
{
    raise_files();
    server_up("");
    enum { HOARDERS = 200, SENT = 60 * 1024 };
    int fds[HOARDERS];
    hoard_t h = hoard_new(SENT);
    kill(server.pid, SIGSTOP);
    for (int i = 0; i < HOARDERS; i++) {
        fds[i] = stamped_connect(server.port);
        ck_assert_int_eq(send(fds[i], h.head, (size_t)h.head_len, MSG_NOSIGNAL), h.head_len);
        ck_assert_int_gt(send(fds[i], h.body, SENT, MSG_NOSIGNAL | MSG_DONTWAIT), 32 * 1024);
    }
    int prompt = stamped_connect(server.port);
    char get[128];
    int n = snprintf(get, sizeof get, "GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n", server.port);
    ck_assert_int_eq(send(prompt, get, (size_t)n, MSG_NOSIGNAL), n);
    kill(server.pid, SIGCONT);
    struct pollfd p = {prompt, POLLIN, 0};
    ck_assert_int_eq(poll(&p, 1, 10000), 1);
    int64_t answered = first_bytes_at(prompt);
    int status = status_of(prompt);
    usleep(100 * 1000); /* (the hoarders' answers come meanwhile: the stamps say when) */
    int before = 0, after = 0;
    for (int i = 0; i < HOARDERS; i++) {
        int64_t at = first_bytes_at(fds[i]);
        before += at >= 0 && at < answered;
        after += at >= answered;
        close(fds[i]);
    }
    close(prompt);
    free(h.body);
    ck_assert_int_eq(status, 200);
    ck_assert_int_ge(answered, 0);
    ck_assert_msg(after > 0, "no hoarder given way after the prompt request (%d before)", before);
    ck_assert_msg(before < HOARDERS / 2, "%d of %d hoarders read (and given way) before the prompt request, %d after",
                  before, HOARDERS, after);
    server_down();
}
END_TEST

void serve_loop_cases(Suite *s)
{
    TCase *tc = tcase_create("ring");
    tcase_add_test(tc, the_ring_refuses_instead_of_dropping);
    suite_add_tcase(s, tc);
    tc = tcase_create("loop");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, a_nul_in_the_target_and_errors_to_head);
    tcase_add_test(tc, an_engine_that_closes_its_output_is_reported_so);
    tcase_add_test(tc, a_flooding_engine_is_held_by_back_pressure);
    tcase_add_test(tc, searches_beyond_the_cap_wait_their_turn);
    tcase_add_test(tc, event_streams_hold_no_thread);
    tcase_add_test(tc, lingering_clients_hold_nothing);
    tcase_add_test(tc, young_connections_give_way);
    tcase_add_test(tc, hoarded_bodies_stay_within_the_budget);
    tcase_add_test(tc, a_whole_request_waits_for_no_hoarders_first_reads);
    suite_add_tcase(s, tc);
}
