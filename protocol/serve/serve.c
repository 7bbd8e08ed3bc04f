/*
 * serve.c: `denham serve`, the board in the browser. An HTTP/1.1 server
 * (sockets and threads, nothing else) that serves the web app embedded in
 * the binary (web/, see web_assets.h) and gives each browser tab an engine
 * of its own (a session, sessions.h): a child process speaking PROTOCOL.md
 * on pipes, whose output goes to the page as Server-Sent Events and whose
 * input is the page's commands, one protocol line each. This file listens,
 * parses (http.h), checks and routes; sessions.c keeps the engines.
 *
 * Safe by default: loopback unless told otherwise, Host and Origin checked
 * on every request, every size, count and wait bounded, only the embedded
 * files served, and no child process left behind (each engine dies with
 * the server, and every one is reaped).
 *
 * May not reach into the engine or any game: it only relays lines.
 */
#define _GNU_SOURCE /* accept4 */
#include "serve.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../../engine/core/number.h"
#include "http.h"
#include "sessions.h"
#include "watch.h"
#include "web_assets.h"
#include "../cli/usage.h"

#define CONNECTIONS_MAX 64       /* requests served at once; more get 503 at once */
#define IO_TIMEOUT_S 10          /* a client that sends or reads nothing for this long is dropped */
#define HEARTBEAT_MS 15000       /* an event stream's comment line, so that proxies and pages see it live */
#define THREAD_STACK (256 * 1024)

static struct server {
    serve_config_t cfg;
    char engine_path[4096]; /* this binary, for the default engine */
    int listen_fd;
    int port;
    atomic_int connections;
    atomic_bool stopping;
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

/* ---- answering ---- */

static bool send_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        buf += n;
        len -= (size_t)n;
    }
    return true;
}

static const char *const security_headers =
    "Cache-Control: no-store\r\n"
    "X-Content-Type-Options: nosniff\r\n"
    "X-Frame-Options: DENY\r\n"
    "Referrer-Policy: no-referrer\r\n"
    "Content-Security-Policy: default-src 'self'; style-src 'self'; script-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'\r\n";

static void respond(int fd, int status, const char *type, const char *body, size_t len)
{
    char head[1024];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nConnection: close\r\n%s\r\n", status,
                     http_reason(status), type, len, security_headers);
    if (n > 0 && (size_t)n < sizeof head && send_all(fd, head, (size_t)n))
        send_all(fd, body, len);
}

/* A JSON error: {"error": message}; the page shows the message. */
static void respond_error(int fd, int status, const char *message)
{
    char body[512];
    int n = snprintf(body, sizeof body, "{\"error\":\"%s\",\"status\":%d}", message, status);
    respond(fd, status, "application/json", body, (size_t)(n > 0 ? n : 0));
}

static void respond_json(int fd, int status, const char *json) { respond(fd, status, "application/json", json, strlen(json)); }

/* The event stream of a session, from the entry after last_seen on. */
static void stream_events(int fd, session_t *s, unsigned long long last_seen)
{
    static const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n"
                               "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\r\nretry: 2000\n\n";
    if (!send_all(fd, head, sizeof head - 1))
        return;
    session_listen_begin(s);
    size_t cap = SESSION_LINE_MAX + 256;
    char *frame = malloc(cap);
    unsigned long long next = last_seen + 1;
    while (frame && !atomic_load(&S.stopping)) {
        size_t len;
        session_wait_t got = session_next_frame(s, &next, HEARTBEAT_MS, frame, cap, &len);
        if (got == SESSION_ENDED)
            break;
        if (got == SESSION_FRAME ? len > 0 && !send_all(fd, frame, len) : !send_all(fd, ": keep-alive\n\n", 14))
            break;
    }
    free(frame);
    session_listen_end(s);
}

/* One protocol line from the page to the engine. */
static void send_command(int fd, session_t *s, const char *body, size_t len)
{
    const char *why;
    if (!http_command_ok(body, len, &why))
        respond_error(fd, 400, why);
    else if (session_send_line(s, body, len))
        respond_json(fd, 202, "{\"ok\":true}");
    else
        respond_error(fd, 409, "the engine is not running (it may be restarting)");
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

static void serve_api(int fd, const http_request_t *req, const char *body, size_t body_len)
{
    bool get = strcmp(req->method, "GET") == 0, post = strcmp(req->method, "POST") == 0,
         del = strcmp(req->method, "DELETE") == 0;
    if (strcmp(req->path, "/api/info") == 0) {
        if (!get)
            return respond_error(fd, 405, "use GET");
        char json[256];
        int in_use = sessions_in_use();
        snprintf(json, sizeof json, "{\"engine\":\"%s\",\"sessions\":%d,\"maxSessions\":%d}",
                 S.cfg.engine ? "custom" : "denham", in_use, S.cfg.max_sessions);
        return respond_json(fd, 200, json);
    }
    if (strcmp(req->path, "/api/sessions") == 0) {
        if (!post)
            return respond_error(fd, 405, "use POST to open a session");
        bool full;
        session_t *s = session_open(&full);
        if (!s)
            return respond_error(fd, 503,
                                 full ? "every engine is taken (--max-sessions): close another tab or try later"
                                      : "the engine could not be started");
        char json[128];
        snprintf(json, sizeof json, "{\"id\":\"%s\"}", session_id(s));
        session_release(s);
        return respond_json(fd, 201, json);
    }
    char id[33];
    const char *action;
    if (!session_route(req->path, id, &action))
        return respond_error(fd, 404, "no such page");
    session_t *s = session_find(id);
    if (!s)
        return respond_error(fd, 404, "no such session: it was closed (idle, or its page went away)");
    if (session_closing(s) && strcmp(action, "events") != 0) {
        session_release(s);
        return respond_error(fd, 404, "no such session: it was closed (idle, or its page went away)");
    }
    if (strcmp(action, "events") == 0 && get) {
        unsigned long long last = 0;
        if (req->last_event_id[0])
            last = strtoull(req->last_event_id, NULL, 10);
        stream_events(fd, s, last);
    } else if (strcmp(action, "commands") == 0 && post) {
        send_command(fd, s, body, body_len);
    } else if (strcmp(action, "restart") == 0 && post) {
        session_restart(s);
        respond_json(fd, 202, "{\"ok\":true}");
    } else if ((strcmp(action, "close") == 0 && post) || (action[0] == 0 && del)) {
        session_close(s, "closed by the page");
        respond_json(fd, 200, "{\"ok\":true}");
    } else {
        respond_error(fd, 405, "no such action");
    }
    session_release(s);
}

static void serve_request(int fd, const http_request_t *req, const char *body, size_t body_len)
{
    if (!http_host_allowed(req->host, S.cfg.host, S.port))
        return respond_error(fd, 403, "this server answers only to its own address (Host)");
    if (req->has_origin && !http_origin_allowed(req->origin, req->host))
        return respond_error(fd, 403, "requests from other sites are refused (Origin)");
    if (watch_route(fd, req->method, req->path))
        return;
    if (strncmp(req->path, "/api/", 5) == 0)
        return serve_api(fd, req, body, body_len);
    if (strcmp(req->method, "GET") != 0 && strcmp(req->method, "HEAD") != 0)
        return respond_error(fd, 405, "the app's files are read with GET");
    const web_asset_t *a = web_asset(strcmp(req->path, "/") == 0 ? "/index.html" : req->path);
    if (!a)
        return respond_error(fd, 404, "no such file");
    respond(fd, 200, a->type, (const char *)a->data, strcmp(req->method, "HEAD") == 0 ? 0 : a->size);
}

/* ---- connections ---- */

typedef struct conn {
    int fd;
} conn_t;

static void *connection_thread(void *arg)
{
    conn_t *c = arg;
    int fd = c->fd;
    free(c);
    struct timeval tv = {IO_TIMEOUT_S, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    char *buf = malloc(HTTP_HEAD_MAX + HTTP_BODY_MAX + 1);
    size_t len = 0;
    http_request_t req;
    int status = HTTP_INCOMPLETE;
    while (buf && status == HTTP_INCOMPLETE) {
        ssize_t n = recv(fd, buf + len, HTTP_HEAD_MAX + 1 - len, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            status = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? 408 : -1;
            break;
        }
        len += (size_t)n;
        status = http_parse(buf, len, &req);
        if (status == HTTP_INCOMPLETE && len > HTTP_HEAD_MAX)
            status = 431;
    }
    if (buf && status == 200) {
        size_t want = req.content_length > 0 ? (size_t)req.content_length : 0;
        while (len < req.head_len + want) {
            ssize_t n = recv(fd, buf + len, req.head_len + want - len, 0);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                status = 408;
                break;
            }
            len += (size_t)n;
        }
        if (status == 200)
            serve_request(fd, &req, buf + req.head_len, want);
    }
    if (status > 200)
        respond_error(fd, status, http_reason(status));
    free(buf);
    close(fd);
    atomic_fetch_sub(&S.connections, 1);
    return NULL;
}

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&S.stopping, true);
    if (S.listen_fd >= 0)
        shutdown(S.listen_fd, SHUT_RDWR);
}

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
    int fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd >= 0)
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, res->ai_addr, res->ai_addrlen) != 0 || listen(fd, 64) != 0) {
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
    S.listen_fd = listen_on(cfg->host, cfg->port, &S.port);
    if (S.listen_fd < 0)
        return 1;
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    sigset_t stop_signals; /* a parent may have blocked them: they must reach us */
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_UNBLOCK, &stop_signals, NULL);

    bool v6 = strchr(cfg->host, ':') != NULL;
    const char *shown = strcmp(cfg->host, "0.0.0.0") == 0 || strcmp(cfg->host, "::") == 0 ? "127.0.0.1" : cfg->host;
    printf("http://%s%s%s:%d/\n", v6 && shown == cfg->host ? "[" : "", shown, v6 && shown == cfg->host ? "]" : "",
           S.port);
    fflush(stdout);
    if (!loopback(cfg->host))
        log_line("denham serve: warning: listening on %s, not loopback: other machines can reach this server "
                 "and start engines on this one",
                 cfg->host);

    sessions_config_t sc = {cfg->engine, S.engine_path, cfg->max_sessions, cfg->idle_ms, &S.stopping};
    if (!sessions_start(&sc) || !watch_start(&S.stopping)) {
        log_line("denham serve: out of memory");
        close(S.listen_fd);
        return 1;
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, THREAD_STACK);
    while (!atomic_load(&S.stopping)) {
        int fd = accept4(S.listen_fd, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            if (atomic_load(&S.stopping))
                break;
            if (errno == EMFILE || errno == ENFILE) { /* out of descriptors: let some close */
                struct timespec nap = {0, 50 * 1000 * 1000};
                nanosleep(&nap, NULL);
                continue;
            }
            break;
        }
        if (atomic_fetch_add(&S.connections, 1) >= CONNECTIONS_MAX) {
            atomic_fetch_sub(&S.connections, 1);
            static const char busy[] = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                                       "Content-Length: 48\r\nConnection: close\r\n\r\n"
                                       "{\"error\":\"the server is busy\",\"status\":503}    ";
            send(fd, busy, sizeof busy - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
            close(fd);
            continue;
        }
        conn_t *c = malloc(sizeof *c);
        pthread_t t;
        if (!c || (c->fd = fd, pthread_create(&t, &attr, connection_thread, c) != 0)) {
            free(c);
            close(fd);
            atomic_fetch_sub(&S.connections, 1);
            continue;
        }
        pthread_detach(t);
    }
    pthread_attr_destroy(&attr);
    close(S.listen_fd);
    sessions_stop(); /* every engine ended and reaped before we go */
    /* Connection threads end within IO_TIMEOUT_S; give them that. */
    for (int waited = 0; atomic_load(&S.connections) > 0 && waited < (IO_TIMEOUT_S + 1) * 10; waited++) {
        struct timespec nap = {0, 100 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    watch_stop();
    log_line("denham serve: stopped");
    return 0;
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
        else if (strcmp(a, "--watch") == 0 && watch_add(v))
            ; /* watch.c keeps the path */
        else
            return refuse(a, v, "unknown option, or a value out of its range (below)");
        i++;
    }
    return serve_run(&cfg);
}
