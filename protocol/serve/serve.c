/*
 * serve.c: `denham serve`, the board in the browser. An HTTP/1.1 server
 * (sockets and threads, nothing else) that serves the web app embedded in
 * the binary (web/, see web_assets.h) and gives each browser tab an engine
 * of its own (a session, sessions.h): a child process speaking PROTOCOL.md
 * on pipes, whose output goes to the page as Server-Sent Events and whose
 * input is the page's commands, one protocol line each. This file listens,
 * reads requests, checks and routes; http.c parses; sessions.c keeps the
 * engines; watch.c answers /watch and /api/watch/ (--watch).
 *
 * The door and the workers. One thread (the door) accepts connections and
 * reads every request, head and body, with poll: a connection costs no
 * thread until its request is whole, and each has REQUEST_MS from its
 * accept to send it all. A peer address holds at most PEER_SLOW_MAX
 * connections that are more than SLOW_MS into their request (the oldest
 * beyond are ended with 408), and a new connection to a full door ends the
 * oldest slow one: a client that trickles bytes, from any number of
 * connections, cannot keep a prompt one out, even from the same address.
 * A whole request goes to a worker thread of its own (at most WORKERS_MAX),
 * which answers it; an event stream keeps its worker while it is open.
 *
 * Safe by default: loopback unless told otherwise, Host and Origin checked
 * on every request, every size, count and wait bounded (no request waits
 * on an engine longer than ENGINE_WRITE_MS), only the embedded files
 * served, the options that would take the machine (Hash, Threads) capped,
 * and no child process left behind (each engine dies with the server, as a
 * process group, and every one is reaped); SIGTERM ends it within 2 s.
 *
 * May not reach into the engine or any game: it only relays lines.
 */
#define _GNU_SOURCE /* accept4, POLLRDHUP */
#include "serve.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../../engine/core/number.h"
#include "../../engine/core/timeman.h"
#include "http.h"
#include "sessions.h"
#include "watch.h"
#include "web_assets.h"
#include "../cli/usage.h"

#define DOOR_MAX 512          /* connections whose request is still arriving */
#define WORKERS_MAX 64        /* requests being answered at once (event streams among them); more get 503 */
#define REQUEST_MS 10000      /* from accept to the whole request, head and body; else 408 */
#define SLOW_MS 1000          /* a connection this far into its request is slow */
#define PEER_SLOW_MAX 16      /* slow connections one address may hold */
#define SEND_MS 10000         /* the longest one answer (or one event) may take to be read */
#define LINGER_MS 1000        /* after an answer, unread bytes are drained this long before the close */
#define LINGER_BYTES (512 * 1024)
#define HEARTBEAT_MS 15000    /* an event stream's comment line, so that proxies and pages see it live */
#define STREAM_SLICE_MS 500   /* an event stream looks for its page's close this often */
#define STOP_WORKERS_MS 300   /* at SIGTERM, workers have this long to finish */
#define THREAD_STACK (256 * 1024)

static struct server {
    serve_config_t cfg;
    char engine_path[4096]; /* this binary, for the default engine */
    int listen_fd;
    int wake[2]; /* the signal handler writes here: the door wakes */
    int port;
    atomic_int workers;
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

/* Sends it all before deadline_ms (the socket is non-blocking); false when
 * the client went, did not read in time, or the server is stopping. */
static bool send_all(int fd, const char *buf, size_t len, int64_t deadline_ms)
{
    while (len > 0) {
        ssize_t n = send(fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            buf += n;
            len -= (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
            return false;
        int64_t left = deadline_ms - timeman_now_ms();
        if (left <= 0 || atomic_load(&S.stopping))
            return false;
        struct pollfd p = {fd, POLLOUT, 0};
        poll(&p, 1, left < 100 ? (int)left : 100);
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

/* Every answer but the event stream is written here: the length is the
 * body's, counted; with head_only (HEAD) the body is not sent. */
static void respond_full(int fd, int status, const char *type, const char *body, size_t len, bool head_only,
                         int64_t deadline_ms)
{
    char head[1024];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nConnection: close\r\n%s\r\n", status,
                     http_reason(status), type, len, security_headers);
    if (n > 0 && (size_t)n < sizeof head && send_all(fd, head, (size_t)n, deadline_ms) && !head_only)
        send_all(fd, body, len, deadline_ms);
}

static void respond(int fd, int status, const char *type, const char *body, size_t len)
{
    respond_full(fd, status, type, body, len, false, timeman_now_ms() + SEND_MS);
}

/* A JSON error: {"error": message, "status": N}; the page shows the message. */
static void respond_error_by(int fd, int status, const char *message, int64_t deadline_ms)
{
    char body[512];
    int n = snprintf(body, sizeof body, "{\"error\":\"%s\",\"status\":%d}", message, status);
    size_t len = n <= 0 ? 0 : (size_t)n < sizeof body ? (size_t)n : sizeof body - 1;
    respond_full(fd, status, "application/json", body, len, false, deadline_ms);
}

static void respond_error(int fd, int status, const char *message)
{
    respond_error_by(fd, status, message, timeman_now_ms() + SEND_MS);
}

static void respond_json(int fd, int status, const char *json) { respond(fd, status, "application/json", json, strlen(json)); }

/* The end of an answer: no more from us (the client reads to the end),
 * then what the client still sends is read and dropped for a while, so
 * that closing with unread bytes does not reset the connection and lose
 * the answer. */
static void finish(int fd)
{
    shutdown(fd, SHUT_WR);
    char sink[4096];
    size_t drained = 0;
    for (int64_t until = timeman_now_ms() + LINGER_MS; drained < LINGER_BYTES && !atomic_load(&S.stopping);) {
        int64_t left = until - timeman_now_ms();
        struct pollfd p = {fd, POLLIN, 0};
        if (left <= 0 || poll(&p, 1, left < 100 ? (int)left : 100) < 0)
            break;
        ssize_t n = recv(fd, sink, sizeof sink, MSG_DONTWAIT);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
            break;
        drained += n > 0 ? (size_t)n : 0;
    }
    close(fd);
}

/* True when the client of an event stream has gone (it sends nothing
 * after its request: anything readable is its close). */
static bool client_gone(int fd)
{
    struct pollfd p = {fd, POLLIN | POLLRDHUP, 0};
    if (poll(&p, 1, 0) <= 0)
        return false;
    if (p.revents & (POLLRDHUP | POLLHUP | POLLERR))
        return true;
    char sink[512];
    ssize_t n = recv(fd, sink, sizeof sink, MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* The event stream of a session, from the entry after last_seen on. */
static void stream_events(int fd, session_t *s, unsigned long long last_seen)
{
    if (!session_listen_begin(s))
        return respond_error(fd, 429, "too many event streams on this session: close other tabs of it");
    static const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n"
                               "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\r\nretry: 2000\n\n";
    size_t cap = SESSION_LINE_MAX + 256;
    char *frame = malloc(cap);
    unsigned long long next = last_seen + 1;
    int64_t quiet_since = timeman_now_ms();
    bool ok = frame && send_all(fd, head, sizeof head - 1, timeman_now_ms() + SEND_MS);
    while (ok && !atomic_load(&S.stopping)) {
        size_t len;
        session_wait_t got = session_next_frame(s, &next, STREAM_SLICE_MS, frame, cap, &len);
        if (got == SESSION_ENDED)
            break;
        if (got == SESSION_FRAME) {
            ok = len == 0 || send_all(fd, frame, len, timeman_now_ms() + SEND_MS);
            quiet_since = timeman_now_ms();
        } else if (client_gone(fd)) {
            break;
        } else if (timeman_now_ms() - quiet_since >= HEARTBEAT_MS) {
            ok = send_all(fd, ": keep-alive\n\n", 14, timeman_now_ms() + SEND_MS);
            quiet_since = timeman_now_ms();
        }
    }
    free(frame);
    session_listen_end(s);
}

/* One protocol line from the page to the engine, within the server's
 * limits on options (http_command_limit). */
static void send_command(int fd, session_t *s, const char *body, size_t len)
{
    const char *why;
    if (!http_command_ok(body, len, &why))
        return respond_error(fd, 400, why);
    char capped[128], note[256];
    int limit = http_command_limit(body, len, S.cfg.max_hash_mb, S.cfg.max_threads, capped, sizeof capped, &why);
    if (limit == HTTP_LIMIT_REFUSED)
        return respond_error(fd, 400, why);
    if (limit == HTTP_LIMIT_CAPPED) {
        snprintf(note, sizeof note, "info string denham serve: %s: sent as '%s'", why, capped);
        session_note(s, note);
        body = capped;
        len = strlen(capped);
    }
    switch (session_send_line(s, body, len)) {
    case SESSION_SENT:
        return respond_json(fd, 202, limit == HTTP_LIMIT_CAPPED ? "{\"ok\":true,\"capped\":true}" : "{\"ok\":true}");
    case SESSION_NOT_READING:
        return respond_error(fd, 503, "the engine is not reading its input (it may be hung): restart it");
    case SESSION_NO_ENGINE:
        return respond_error(fd, 409, "the engine is not running (it may be restarting)");
    }
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
        snprintf(json, sizeof json,
                 "{\"engine\":\"%s\",\"sessions\":%d,\"maxSessions\":%d,\"maxHashMb\":%ld,\"maxThreads\":%ld}",
                 S.cfg.engine ? "custom" : "denham", in_use, S.cfg.max_sessions, S.cfg.max_hash_mb,
                 S.cfg.max_threads);
        return respond_json(fd, 200, json);
    }
    if (strcmp(req->path, "/api/sessions") == 0) {
        if (!post)
            return respond_error(fd, 405, "use POST to open a session");
        const char *why;
        session_t *s = session_open(&why);
        if (!s)
            return respond_error(fd, 503, why);
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
        if (session_restart(s))
            respond_json(fd, 202, "{\"ok\":true}");
        else
            respond_error(fd, 409, "the engine is down (it crashed too often): reload the page for a new one");
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
    bool head = strcmp(req->method, "HEAD") == 0;
    if (strcmp(req->method, "GET") != 0 && !head)
        return respond_error(fd, 405, "the app's files are read with GET");
    const web_asset_t *a = web_asset(strcmp(req->path, "/") == 0 ? "/index.html" : req->path);
    if (!a)
        return respond_error(fd, 404, "no such file");
    respond_full(fd, 200, a->type, (const char *)a->data, a->size, head, timeman_now_ms() + SEND_MS);
}

/* ---- the workers ---- */

/* The workers' sockets, so that a stop can cut them: a send blocked on a
 * client that reads nothing ends at once. */
static struct {
    pthread_mutex_t lock;
    int fd[WORKERS_MAX];
} W = {PTHREAD_MUTEX_INITIALIZER, {0}};

static int worker_slot(int fd)
{
    pthread_mutex_lock(&W.lock);
    int slot = -1;
    for (int i = 0; i < WORKERS_MAX && slot < 0; i++)
        if (W.fd[i] < 0)
            W.fd[slot = i] = fd;
    pthread_mutex_unlock(&W.lock);
    return slot;
}

static void workers_cut(void)
{
    pthread_mutex_lock(&W.lock);
    for (int i = 0; i < WORKERS_MAX; i++)
        if (W.fd[i] >= 0)
            shutdown(W.fd[i], SHUT_RDWR);
    pthread_mutex_unlock(&W.lock);
}

typedef struct job {
    int slot; /* in W.fd */
    int fd;
    http_request_t req;
    char *buf; /* the request; its body at req.head_len */
    size_t body_len;
} job_t;

static void *worker_thread(void *arg)
{
    job_t *j = arg;
    /* Blocking again, with a bound on each send, for watch.c's answers,
     * which know no deadline of their own; ours poll with one (MSG_DONTWAIT). */
    int flags = fcntl(j->fd, F_GETFL);
    if (flags >= 0)
        fcntl(j->fd, F_SETFL, flags & ~O_NONBLOCK);
    struct timeval tv = {SEND_MS / 1000, 0};
    setsockopt(j->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    serve_request(j->fd, &j->req, j->buf + j->req.head_len, j->body_len);
    pthread_mutex_lock(&W.lock); /* out of the table before the close: the number may be reused */
    W.fd[j->slot] = -1;
    pthread_mutex_unlock(&W.lock);
    finish(j->fd);
    free(j->buf);
    free(j);
    atomic_fetch_sub(&S.workers, 1);
    return NULL;
}

/* ---- the door ---- */

typedef struct pending {
    int fd;
    int64_t accepted_ms;
    int64_t linger_until; /* 0: its request is arriving; else answered, draining until then */
    size_t drained;
    struct sockaddr_storage peer;
    char *buf;
    size_t len, cap;
    size_t need; /* head and body, once the head has arrived (0 before) */
    http_request_t *req;
} pending_t;

static pending_t door[DOOR_MAX];
static int door_n;

static bool same_peer(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
    if (a->ss_family != b->ss_family)
        return false;
    if (a->ss_family == AF_INET)
        return ((const struct sockaddr_in *)a)->sin_addr.s_addr == ((const struct sockaddr_in *)b)->sin_addr.s_addr;
    if (a->ss_family == AF_INET6)
        return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr, &((const struct sockaddr_in6 *)b)->sin6_addr,
                      sizeof(struct in6_addr)) == 0;
    return true;
}

static void door_drop(int i)
{
    close(door[i].fd);
    free(door[i].buf);
    free(door[i].req);
    door[i] = door[--door_n];
}

/* Answers from the door (a short error: it fits the socket's buffer, and
 * the door never waits), then drains what the client still sends. */
static void door_refuse(int i, int status, const char *message)
{
    respond_error_by(door[i].fd, status, message, timeman_now_ms());
    shutdown(door[i].fd, SHUT_WR);
    free(door[i].buf);
    free(door[i].req);
    door[i].buf = NULL;
    door[i].req = NULL;
    door[i].linger_until = timeman_now_ms() + LINGER_MS;
    door[i].drained = 0;
}

/* The slow connection (its request still arriving) accepted first, of
 * this peer when peer is not NULL; -1 when none. */
static int oldest_slow(const struct sockaddr_storage *peer, int64_t now)
{
    int oldest = -1;
    for (int i = 0; i < door_n; i++)
        if (!door[i].linger_until && now - door[i].accepted_ms >= SLOW_MS && (!peer || same_peer(&door[i].peer, peer)) &&
            (oldest < 0 || door[i].accepted_ms < door[oldest].accepted_ms))
            oldest = i;
    return oldest;
}

/* Hands a whole request to a worker, or answers 503 when all are busy. */
static void door_dispatch(int i)
{
    pending_t *p = &door[i];
    if (atomic_fetch_add(&S.workers, 1) >= WORKERS_MAX) {
        atomic_fetch_sub(&S.workers, 1);
        return door_refuse(i, 503, "the server is busy: try again");
    }
    job_t *j = malloc(sizeof *j);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, THREAD_STACK);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t t;
    bool ok = j != NULL;
    if (ok && (j->slot = worker_slot(p->fd)) < 0) /* never: workers are counted */
        ok = false;
    if (ok) {
        j->fd = p->fd;
        j->req = *p->req;
        j->buf = p->buf;
        j->body_len = p->need - p->req->head_len;
        ok = pthread_create(&t, &attr, worker_thread, j) == 0;
        if (!ok) {
            pthread_mutex_lock(&W.lock);
            W.fd[j->slot] = -1;
            pthread_mutex_unlock(&W.lock);
        }
    }
    pthread_attr_destroy(&attr);
    if (!ok) {
        free(j);
        atomic_fetch_sub(&S.workers, 1);
        return door_refuse(i, 503, "the server is busy: try again");
    }
    /* The worker has the socket and the buffer now. */
    free(p->req);
    door[i] = door[--door_n];
}

/* Reads what arrived on pending connection i; true when it left the door
 * (dispatched or dropped), so that i now names another. */
static bool door_read(int i)
{
    pending_t *p = &door[i];
    if (p->linger_until) {
        char sink[4096];
        ssize_t n = recv(p->fd, sink, sizeof sink, MSG_DONTWAIT);
        p->drained += n > 0 ? (size_t)n : 0;
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) ||
            p->drained > LINGER_BYTES) {
            door_drop(i);
            return true;
        }
        return false;
    }
    size_t want = p->need ? p->need : HTTP_HEAD_MAX + 1;
    if (p->cap < want && p->len == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 2048;
        cap = cap > want ? want : cap;
        char *grown = realloc(p->buf, cap + 1);
        if (!grown) {
            door_refuse(i, 503, "out of memory");
            return false;
        }
        p->buf = grown;
        p->cap = cap;
    }
    ssize_t n = recv(p->fd, p->buf + p->len, p->cap - p->len, MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return false;
    if (n <= 0) { /* the client went before its request was whole: nobody to answer */
        door_drop(i);
        return true;
    }
    size_t old = p->len;
    p->len += (size_t)n;
    if (!p->need) {
        /* Parsed again only when a line ended: a trickled head costs no more. */
        if (!memchr(p->buf + old, '\n', (size_t)n) && p->len <= HTTP_HEAD_MAX)
            return false;
        http_request_t req;
        int status = http_parse(p->buf, p->len, &req);
        if (status == HTTP_INCOMPLETE && p->len > HTTP_HEAD_MAX)
            status = 431;
        if (status == HTTP_INCOMPLETE)
            return false;
        if (status != 200) {
            door_refuse(i, status, http_reason(status));
            return false;
        }
        p->req = malloc(sizeof req);
        if (!p->req) {
            door_refuse(i, 503, "out of memory");
            return false;
        }
        *p->req = req;
        p->need = req.head_len + (req.content_length > 0 ? (size_t)req.content_length : 0);
        if (p->need > p->cap) {
            char *grown = realloc(p->buf, p->need + 1);
            if (!grown) {
                door_refuse(i, 503, "out of memory");
                return false;
            }
            p->buf = grown;
            p->cap = p->need;
        }
    }
    if (p->len < p->need)
        return false;
    door_dispatch(i);
    return true;
}

/* Ends what overstayed: a request not whole REQUEST_MS after its accept
 * (408), a peer's slow connections past PEER_SLOW_MAX (the oldest, 408),
 * an answered connection's drain. */
static void door_sweep(int64_t now)
{
    static int64_t peers_checked;
    for (int i = 0; i < door_n;) {
        if (door[i].linger_until && now >= door[i].linger_until) {
            door_drop(i);
            continue;
        }
        if (!door[i].linger_until && now - door[i].accepted_ms >= REQUEST_MS)
            door_refuse(i, 408, "the request took too long to arrive");
        i++;
    }
    if (now - peers_checked < 100) /* the count by peer is quadratic: ten times a second is enough */
        return;
    peers_checked = now;
    for (int i = 0; i < door_n; i++) {
        if (door[i].linger_until || now - door[i].accepted_ms < SLOW_MS)
            continue;
        int slow = 0;
        for (int k = 0; k < door_n; k++)
            slow += !door[k].linger_until && now - door[k].accepted_ms >= SLOW_MS && same_peer(&door[k].peer, &door[i].peer);
        while (slow-- > PEER_SLOW_MAX) {
            int oldest = oldest_slow(&door[i].peer, now);
            if (oldest < 0)
                break;
            door_refuse(oldest, 408, "too many slow requests from this address");
        }
    }
}

/* A new connection: in the door, ending the oldest slow one when the door
 * is full; refused with 503 when none is slow. */
static void door_admit(int fd, const struct sockaddr_storage *peer, int64_t now)
{
    for (int i = 0; i < door_n && door_n == DOOR_MAX; i++)
        if (door[i].linger_until)
            door_drop(i); /* a drain is a courtesy: it goes first */
    int oldest = door_n == DOOR_MAX ? oldest_slow(NULL, now) : -1;
    if (oldest >= 0) {
        respond_error_by(door[oldest].fd, 408, "the request took too long to arrive", now);
        door_drop(oldest);
    }
    if (door_n == DOOR_MAX) {
        respond_error_by(fd, 503, "the server is busy: try again", now);
        shutdown(fd, SHUT_WR);
        close(fd);
        return;
    }
    door[door_n++] = (pending_t){.fd = fd, .accepted_ms = now, .peer = *peer};
}

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&S.stopping, true);
    int saved = errno;
    if (write(S.wake[1], "x", 1) < 0) { /* full: the door is awake already */
    }
    errno = saved;
}

/* Accepts and reads requests until SIGINT or SIGTERM. */
static void door_run(void)
{
    static struct pollfd fds[DOOR_MAX + 2];
    while (!atomic_load(&S.stopping)) {
        int64_t now = timeman_now_ms();
        door_sweep(now);
        int nfds = 0;
        fds[nfds++] = (struct pollfd){S.wake[0], POLLIN, 0};
        fds[nfds++] = (struct pollfd){S.listen_fd, POLLIN, 0};
        for (int i = 0; i < door_n; i++)
            fds[nfds++] = (struct pollfd){door[i].fd, POLLIN, 0};
        int r = poll(fds, (nfds_t)nfds, 100);
        if (r < 0 && errno != EINTR)
            break;
        if (r <= 0 || atomic_load(&S.stopping))
            continue;
        /* Connections first, by their fds: a dispatch or drop reorders the table. */
        int n_ready = 0;
        static int ready[DOOR_MAX];
        for (int k = 2; k < nfds; k++)
            if (fds[k].revents)
                ready[n_ready++] = fds[k].fd;
        for (int k = 0; k < n_ready; k++)
            for (int i = 0; i < door_n; i++)
                if (door[i].fd == ready[k]) {
                    door_read(i);
                    break;
                }
        if (fds[1].revents & POLLIN) {
            for (int accepted = 0; accepted < 64; accepted++) {
                struct sockaddr_storage peer;
                socklen_t plen = sizeof peer;
                int fd = accept4(S.listen_fd, (struct sockaddr *)&peer, &plen, SOCK_CLOEXEC | SOCK_NONBLOCK);
                if (fd < 0) {
                    if (errno == EMFILE || errno == ENFILE) { /* out of descriptors: let some close */
                        struct timespec nap = {0, 20 * 1000 * 1000};
                        nanosleep(&nap, NULL);
                    }
                    break;
                }
                door_admit(fd, &peer, timeman_now_ms());
            }
        }
    }
    for (int i = door_n - 1; i >= 0; i--)
        door_drop(i);
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
    if (fd < 0 || bind(fd, res->ai_addr, res->ai_addrlen) != 0 || listen(fd, 256) != 0) {
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
    for (int i = 0; i < WORKERS_MAX; i++)
        W.fd[i] = -1;
    ssize_t n = readlink("/proc/self/exe", S.engine_path, sizeof S.engine_path - 1);
    if (n <= 0) {
        log_line("denham serve: cannot find this program's own path for the engine; give --engine");
        if (!cfg->engine)
            return 1;
    } else {
        S.engine_path[n] = 0;
    }
    /* Two malloc arenas, not one per worker thread: each holds its freed
     * pages, and dozens of workers would hold megabytes. */
    mallopt(M_ARENA_MAX, 2);
    /* The door holds up to DOOR_MAX sockets, the workers theirs, each engine two pipes. */
    struct rlimit files;
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max && files.rlim_cur < 4096) {
        files.rlim_cur = files.rlim_max < 4096 ? files.rlim_max : 4096;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    S.listen_fd = listen_on(cfg->host, cfg->port, &S.port);
    if (S.listen_fd < 0)
        return 1;
    if (pipe2(S.wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        log_line("denham serve: cannot make a pipe: %s", strerror(errno));
        close(S.listen_fd);
        return 1;
    }
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
    /* The addresses to open: the board, and with --watch the match. */
    for (int page = 0; page < 1 + cfg->watching; page++)
        printf("http://%s%s%s:%d/%s\n", v6 && shown == cfg->host ? "[" : "", shown,
               v6 && shown == cfg->host ? "]" : "", S.port, page ? "watch" : "");
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
    door_run();
    close(S.listen_fd);
    workers_cut(); /* a worker blocked on its client ends now */
    sessions_stop(); /* every engine killed as a group and reaped before we go */
    /* Workers see the stop in their next wait (a tenth of a second at most). */
    for (int64_t until = timeman_now_ms() + STOP_WORKERS_MS; atomic_load(&S.workers) > 0 && timeman_now_ms() < until;) {
        struct timespec nap = {0, 10 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    watch_stop();
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

static long default_max_threads(void)
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
        else if (strcmp(a, "--watch") == 0 && watch_add(v))
            cfg.watching = true; /* watch.c keeps the path */
        else
            return refuse(a, v, "unknown option, or a value out of its range (below)");
        i++;
    }
    if (!cfg.max_hash_mb)
        cfg.max_hash_mb = default_max_hash_mb(cfg.max_sessions);
    if (!cfg.max_threads)
        cfg.max_threads = default_max_threads();
    return serve_run(&cfg);
}
