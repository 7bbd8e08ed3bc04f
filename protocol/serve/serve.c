/*
 * serve.c: `denham serve`, the board in the browser. An HTTP/1.1 server
 * that serves the web app embedded in the binary (web/, see web_assets.h)
 * and gives each browser tab an engine of its own (a session, sessions.h):
 * a child process speaking PROTOCOL.md on pipes, whose output goes to the
 * page as Server-Sent Events and whose input is the page's commands, one
 * protocol line each. This file runs the loop, checks and routes; conn.c
 * keeps the connections, http.c parses, sessions.c keeps the engines,
 * watch.c answers /watch and /api/watch/ (--watch), workers.c runs what
 * would block.
 *
 * One loop, one thread: every socket, event stream and engine pipe is
 * served by one wait (evloop.h: epoll, or poll), none ever blocks, and no
 * thread is parked on a socket. Its bounds: CONN_DOOR_MAX requests
 * arriving at once and CONN_BUDGET bytes buffered for them, the oldest
 * arriving request ending when either is full, whatever its age; each
 * request CONN_REQUEST_MS to arrive; an engine's output read only while
 * its session's ring has room (the engine then blocks on its own pipe);
 * searching threads of every engine together capped (--max-search-threads),
 * more searches waiting in order. Workers run only work that blocks (the
 * watch page's replays); the watch page's reader is a thread of its own.
 *
 * Safe by default: loopback unless told otherwise, Host and Origin checked
 * on every request, every size, count and wait bounded, only the embedded
 * files served, the options that would take the machine (Hash, Threads)
 * capped, and no child process left behind (each engine dies with the
 * server, as a process group, and every one is reaped); SIGTERM ends it
 * within a second.
 *
 * May not reach into the engine or any game: it only relays lines.
 */
#define _GNU_SOURCE /* pipe2 */
#include "serve.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../engine/core/number.h"
#include "../../engine/core/timeman.h"
#include "../cli/usage.h"
#include "conn.h"
#include "evloop.h"
#include "http.h"
#include "sessions.h"
#include "watch.h"
#include "web_assets.h"
#include "workers.h"

#define TICK_MS 100     /* deadlines are looked at this often */
#define TRIM_MS 1000    /* freed memory is given back to the system at most this often */

static struct server {
    serve_config_t cfg;
    char engine_path[4096]; /* this binary, for the default engine */
    int listen_fd;
    int port;
    evloop_t *loop;
    int wake[2];          /* signals, workers and the watch reader write here: the loop wakes */
    serve_io_t wake_io;
    volatile sig_atomic_t stop_signal, child_signal;
} S;

static void log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void log_line(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* ---- routing ---- */

/* One protocol line from the page to the engine, within the server's
 * limits on options (http_command_limit). */
static void send_command(conn_t *c, session_t *s, const char *body, size_t len)
{
    const char *why;
    if (!http_command_ok(body, len, &why))
        return conn_error(c, 400, why);
    char capped[128], note[256];
    int limit = http_command_limit(body, len, S.cfg.max_hash_mb, S.cfg.max_threads, capped, sizeof capped, &why);
    if (limit == HTTP_LIMIT_REFUSED)
        return conn_error(c, 400, why);
    if (limit == HTTP_LIMIT_CAPPED) {
        snprintf(note, sizeof note, "info string denham serve: %s: sent as '%s'", why, capped);
        return session_command(s, c, capped, strlen(capped), note);
    }
    session_command(s, c, body, len, NULL);
}

/* /api/sessions/<id>/<action>: the id and the action, or false. */
static bool session_route(const char *path, char id[33], const char **action)
{
    static const char prefix[] = "/api/sessions/";
    if (strncmp(path, prefix, sizeof prefix - 1) != 0)
        return false;
    const char *c = path + sizeof prefix - 1;
    size_t n = strspn(c, "0123456789abcdef");
    if (n != 32 || (c[n] != '/' && c[n] != 0))
        return false;
    memcpy(id, c, 32);
    id[32] = 0;
    *action = c[n] == '/' ? c + n + 1 : "";
    return true;
}

static void serve_api(conn_t *c, const http_request_t *req, const char *body, size_t body_len)
{
    bool get = strcmp(req->method, "GET") == 0, post = strcmp(req->method, "POST") == 0,
         del = strcmp(req->method, "DELETE") == 0;
    if (strcmp(req->path, "/api/info") == 0) {
        if (!get)
            return conn_error(c, 405, "use GET");
        char json[384];
        snprintf(json, sizeof json,
                 "{\"engine\":\"%s\",\"sessions\":%d,\"maxSessions\":%d,\"maxHashMb\":%ld,\"maxThreads\":%ld,"
                 "\"maxSearchThreads\":%ld,\"searchThreads\":%ld,\"searchesWaiting\":%d}",
                 S.cfg.engine ? "custom" : "denham", sessions_in_use(), S.cfg.max_sessions, S.cfg.max_hash_mb,
                 S.cfg.max_threads, S.cfg.max_search_threads, sessions_searching_threads(), sessions_waiting_searches());
        return conn_json(c, 200, json);
    }
    if (strcmp(req->path, "/api/sessions") == 0) {
        if (!post)
            return conn_error(c, 405, "use POST to open a session");
        const char *why;
        session_t *s = session_open(&why);
        if (!s)
            return conn_error(c, 503, why);
        char json[128];
        snprintf(json, sizeof json, "{\"id\":\"%s\"}", session_id(s));
        return conn_json(c, 201, json);
    }
    char id[33];
    const char *action;
    if (!session_route(req->path, id, &action))
        return conn_error(c, 404, "no such page");
    session_t *s = session_find(id);
    if (!s || (session_closing(s) && strcmp(action, "events") != 0))
        return conn_error(c, 404, "no such session: it was closed (idle, or its page went away)");
    if (strcmp(action, "events") == 0 && get) {
        unsigned long long last = 0;
        if (req->last_event_id[0])
            last = strtoull(req->last_event_id, NULL, 10);
        session_stream(s, c, last);
    } else if (strcmp(action, "commands") == 0 && post) {
        send_command(c, s, body, body_len);
    } else if (strcmp(action, "restart") == 0 && post) {
        if (session_restart(s))
            conn_json(c, 202, "{\"ok\":true}");
        else
            conn_error(c, 409, "the engine is down (it crashed too often): reload the page for a new one");
    } else if ((strcmp(action, "close") == 0 && post) || (action[0] == 0 && del)) {
        session_close(s, "closed by the page");
        conn_json(c, 200, "{\"ok\":true}");
    } else {
        conn_error(c, 405, "no such action");
    }
}

static void serve_request(conn_t *c, const http_request_t *req, const char *body, size_t body_len)
{
    if (!http_host_allowed(req->host, S.cfg.host, S.port))
        return conn_error(c, 403, "this server answers only to its own address (Host)");
    if (req->has_origin && !http_origin_allowed(req->origin, req->host))
        return conn_error(c, 403, "requests from other sites are refused (Origin)");
    if (watch_route(c, req->method, req->path))
        return;
    if (strncmp(req->path, "/api/", 5) == 0)
        return serve_api(c, req, body, body_len);
    if (strcmp(req->method, "GET") != 0 && strcmp(req->method, "HEAD") != 0)
        return conn_error(c, 405, "the app's files are read with GET");
    const web_asset_t *a = web_asset(strcmp(req->path, "/") == 0 ? "/index.html" : req->path);
    if (!a)
        return conn_error(c, 404, "no such file");
    conn_reply_static(c, 200, a->type, a->data, a->size);
}

/* ---- the loop ---- */

static void wake_up(void)
{
    int saved = errno;
    if (write(S.wake[1], "x", 1) < 0) { /* full: the loop is awake already */
    }
    errno = saved;
}

static void on_signal(int sig)
{
    if (sig == SIGCHLD)
        S.child_signal = 1;
    else
        S.stop_signal = 1;
    wake_up();
}

/* Woken: a signal, a worker's finished job, the watch page's new data. */
static void wake_ready(serve_io_t *io, unsigned events)
{
    (void)io;
    (void)events;
    char sink[256];
    while (read(S.wake[0], sink, sizeof sink) > 0)
        ;
    if (S.child_signal) {
        S.child_signal = 0;
        sessions_child_exited();
    }
    workers_collect();
    watch_pump();
}

/* Memory freed goes back to the system (glibc keeps what it can reuse). */
static void trim(int64_t now)
{
    static int64_t last;
    if (now - last >= TRIM_MS) {
        last = now;
        malloc_trim(64 * 1024);
    }
}

static void loop_run(void)
{
    static evloop_event_t ev[256];
    int64_t last_tick = 0;
    while (!S.stop_signal) {
        int n = evloop_wait(S.loop, ev, 256, TICK_MS);
        serve_io_t *door = conns_listener();
        for (int i = 0; i < n; i++) /* new connections first: their requests are read as they are taken */
            if (ev[i].tag == door) {
                door->ready(door, ev[i].events);
                ev[i].tag = NULL;
            }
        for (int i = 0; i < n && !S.stop_signal; i++) {
            serve_io_t *io = ev[i].tag;
            if (io)
                io->ready(io, ev[i].events);
        }
        int64_t now = timeman_now_ms();
        if (now - last_tick >= TICK_MS) {
            last_tick = now;
            conns_tick(now);
            sessions_tick(now);
            watch_tick(now);
        }
        conns_collect();
        trim(now);
    }
}

/* ---- start and stop ---- */

/* Binds host:port (port 0: any free port); the listening socket or -1. */
static int listen_on(const char *host, int port, int *bound_port)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE | AI_NUMERICHOST};
    struct addrinfo *res;
    char port_text[8];
    snprintf(port_text, sizeof port_text, "%d", port);
    int err = getaddrinfo(host, port_text, &hints, &res);
    if (err != 0) {
        log_line("denham serve: '%s' is not an address to listen on (%s); give an IP address, such as 127.0.0.1",
                 host, gai_strerror(err));
        return -1;
    }
    int fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    int one = 1;
    if (fd >= 0)
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    /* A long queue: a burst of connections waits for the loop to take it, not for a SYN retry. */
    if (fd < 0 || bind(fd, res->ai_addr, res->ai_addrlen) != 0 || listen(fd, 4096) != 0) {
        log_line("denham serve: cannot listen on %s port %d: %s%s", host, port, strerror(errno),
                 errno == EADDRINUSE ? " (another server has it: choose another with --port)" : "");
        if (fd >= 0)
            close(fd);
        freeaddrinfo(res);
        return -1;
    }
    freeaddrinfo(res);
    struct sockaddr_storage addr;
    socklen_t alen = sizeof addr;
    getsockname(fd, (struct sockaddr *)&addr, &alen);
    *bound_port = ntohs(addr.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&addr)->sin6_port
                                                   : ((struct sockaddr_in *)&addr)->sin_port);
    return fd;
}

static bool loopback(const char *host) { return strncmp(host, "127.", 4) == 0 || strcmp(host, "::1") == 0; }

/* glibc: one arena for the few threads (each keeps its freed pages), and
 * buffers of 64 KiB or more mapped apart, so that freeing them gives them
 * back at once (a fixed threshold: glibc would raise it after the first
 * free, and 600 bodies of 256 KiB would stay in the heap). */
static void tune_malloc(void)
{
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_MMAP_THRESHOLD, 64 * 1024);
    mallopt(M_TRIM_THRESHOLD, 128 * 1024);
}

int serve_run(const serve_config_t *cfg)
{
    S.cfg = *cfg;
    S.listen_fd = -1;
    ssize_t n = readlink("/proc/self/exe", S.engine_path, sizeof S.engine_path - 1);
    if (n <= 0) {
        log_line("denham serve: cannot find this program's own path for the engine; give --engine");
        if (!cfg->engine)
            return 1;
    } else {
        S.engine_path[n] = 0;
    }
    tune_malloc();
    /* Connections, each engine's two pipes, the loop's own. */
    struct rlimit files;
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max && files.rlim_cur < 4096) {
        files.rlim_cur = files.rlim_max < 4096 ? files.rlim_max : 4096;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    S.listen_fd = listen_on(cfg->host, cfg->port, &S.port);
    if (S.listen_fd < 0)
        return 1;
    S.loop = evloop_new();
    if (!S.loop || pipe2(S.wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        log_line("denham serve: cannot make its event loop: %s", strerror(errno));
        close(S.listen_fd);
        return 1;
    }
    S.wake_io.ready = wake_ready;
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    sigaction(SIGCHLD, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    sigset_t signals; /* a parent may have blocked them: they must reach us */
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGCHLD);
    sigprocmask(SIG_UNBLOCK, &signals, NULL);

    bool v6 = strchr(cfg->host, ':') != NULL;
    const char *shown = strcmp(cfg->host, "0.0.0.0") == 0 || strcmp(cfg->host, "::") == 0 ? "127.0.0.1" : cfg->host;
    /* The addresses to open: the board, and with --watch the match. */
    for (int page = 0; page < 1 + cfg->watching; page++)
        printf("http://%s%s%s:%d/%s\n", v6 && shown == cfg->host ? "[" : "", shown,
               v6 && shown == cfg->host ? "]" : "", S.port, page ? "watch" : "");
    fflush(stdout);
    if (!loopback(cfg->host))
        log_line("denham serve: warning: listening on %s, not loopback: other machines can reach this server "
                 "and start engines on this one",
                 cfg->host);

    sessions_config_t sc = {cfg->engine, S.engine_path, cfg->max_sessions, cfg->idle_ms, cfg->max_search_threads, S.loop};
    conns_config_t cc = {S.loop, S.listen_fd, &S.stop_signal, serve_request};
    workers_init(wake_up);
    if (!evloop_watch(S.loop, S.wake[0], EVLOOP_IN, &S.wake_io) || !sessions_start(&sc) || !conns_start(&cc) ||
        !watch_start(wake_up)) {
        log_line("denham serve: out of memory");
        close(S.listen_fd);
        return 1;
    }
    loop_run();
    conns_stop();    /* every connection closed: held and streamed ones' owners told */
    close(S.listen_fd);
    sessions_stop(); /* every engine killed as a group and reaped before we go */
    workers_stop();
    watch_stop();
    evloop_free(S.loop);
    log_line("denham serve: stopped");
    return 0;
}

/* ---- the command line ---- */

/* The defaults of --max-hash-mb and --max-threads: every engine at its
 * limit holds at most half the memory between them, and each searches on
 * at most the machine's cores. */
static long default_max_hash_mb(int max_sessions)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    long long mb = pages > 0 && page > 0 ? (long long)pages * page / (1024 * 1024) : 1024;
    long long each = mb / 2 / max_sessions;
    return each < 1 ? 1 : each > SERVE_HASH_MAX_MB ? SERVE_HASH_MAX_MB : (long)each;
}

static long cores(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : cores > SERVE_THREADS_MAX ? SERVE_THREADS_MAX : cores;
}

/* A refused option (and its value), named; the usage is usage.c's. */
static int refuse(const char *option, const char *value, const char *why)
{
    char what[300];
    snprintf(what, sizeof what, "%.60s%s%.60s", option, value ? " " : "", value ? value : "");
    return usage_error("serve", what, why);
}

int serve_main(int argc, char **argv)
{
    serve_config_t cfg = {.host = "127.0.0.1", .port = 8080, .max_sessions = 8, .idle_ms = 600000};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long long x;
        if (!v)
            return refuse(a, NULL, strncmp(a, "--", 2) == 0 ? "takes a value" : "unknown argument");
        if (strcmp(a, "--port") == 0 && number_parse(v, 0, 65535, &x))
            cfg.port = (int)x;
        else if (strcmp(a, "--host") == 0 && strlen(v) < 64)
            cfg.host = v;
        else if (strcmp(a, "--engine") == 0 && *v)
            cfg.engine = v;
        else if (strcmp(a, "--max-sessions") == 0 && number_parse(v, 1, SESSIONS_LIMIT, &x))
            cfg.max_sessions = (int)x;
        else if (strcmp(a, "--idle-seconds") == 0 && number_parse(v, 1, 86400, &x))
            cfg.idle_ms = x * 1000;
        else if (strcmp(a, "--max-hash-mb") == 0 && number_parse(v, 1, SERVE_HASH_MAX_MB, &x))
            cfg.max_hash_mb = (long)x;
        else if (strcmp(a, "--max-threads") == 0 && number_parse(v, 1, SERVE_THREADS_MAX, &x))
            cfg.max_threads = (long)x;
        else if (strcmp(a, "--max-search-threads") == 0 && number_parse(v, 1, 4096, &x))
            cfg.max_search_threads = (long)x;
        else if (strcmp(a, "--watch") == 0 && watch_add(v))
            cfg.watching = true; /* watch.c keeps the path */
        else
            return refuse(a, v, "unknown option, or a value out of its range (below)");
        i++;
    }
    if (!cfg.max_hash_mb)
        cfg.max_hash_mb = default_max_hash_mb(cfg.max_sessions);
    if (!cfg.max_threads)
        cfg.max_threads = cores();
    if (!cfg.max_search_threads)
        cfg.max_search_threads = cores();
    return serve_run(&cfg);
}
