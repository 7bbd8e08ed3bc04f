/*
 * serve.c: `denham serve`, the board in the browser. An HTTP/1.1 server
 * (sockets and threads, nothing else) that serves the web app embedded in
 * the binary (web/, see web_assets.h) and gives each browser tab an engine
 * of its own: a child process speaking PROTOCOL.md on pipes, whose output
 * goes to the page as Server-Sent Events and whose input is the page's
 * commands, one protocol line each.
 *
 * Safe by default: loopback unless told otherwise, Host and Origin checked
 * on every request, every size, count and wait bounded, only the embedded
 * files served, and no child process left behind (each engine dies with
 * the server, and every one is reaped).
 *
 * May not reach into the engine or any game: it only relays lines.
 */
#define _GNU_SOURCE /* pipe2, accept4 */
#include "serve.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
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
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../engine/core/json.h"
#include "../engine/core/number.h"
#include "../engine/core/timeman.h"
#include "http.h"
#include "web_assets.h"

#define SESSIONS_LIMIT 64        /* the most --max-sessions allows */
#define CONNECTIONS_MAX 64       /* requests served at once; more get 503 at once */
#define RING_LINES 4096          /* engine lines kept per session, for a page that reconnects */
#define RING_BYTES (512 * 1024)  /* and their size */
#define LINE_MAX_BYTES 65536     /* a longer engine line is cut into pieces */
#define IO_TIMEOUT_S 10          /* a client that sends or reads nothing for this long is dropped */
#define HEARTBEAT_MS 15000       /* an event stream's comment line, so that proxies and pages see it live */
#define ALONE_GRACE_MS 10000     /* a session whose page went away lives this long (a reload comes back) */
#define RESTARTS_PER_MINUTE 5    /* an engine that crashes more often is left down */
#define THREAD_STACK (256 * 1024)

typedef struct entry {
    unsigned long long seq;
    char *event; /* NULL: an engine line */
    char *data;
} entry_t;

typedef struct session {
    /* Under the server's lock: */
    bool used;
    int users;    /* requests holding the session (event streams among them) */
    int listeners; /* event streams */
    char id[33];
    /* Under the session's lock: */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    entry_t ring[RING_LINES];
    unsigned long long next_seq;   /* the first seq is 1 */
    unsigned long long oldest_seq; /* the oldest entry still held */
    size_t ring_bytes;
    pid_t pid;
    int to_fd, from_fd;
    bool closing;
    bool restart_asked;
    int64_t last_active_ms, alone_since_ms;
    int64_t restart_times[RESTARTS_PER_MINUTE];
    pthread_mutex_t write_lock; /* one command at a time on the pipe */
    pthread_t reader;
    bool reader_running;
    int spawn_state; /* the first engine: 0 starting, 1 running, -1 failed */
} session_t;

static struct server {
    serve_config_t cfg;
    char engine_path[4096]; /* this binary, for the default engine */
    int listen_fd;
    int port;
    pthread_mutex_t lock;
    session_t *sessions[SESSIONS_LIMIT];
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

/* ---- the engine child ---- */

/* Starts the engine for s: its stdin and stdout are pipes to us, its
 * stderr goes nowhere, and it dies with the server. */
static bool engine_spawn(session_t *s)
{
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0)
        return false;
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        return false;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return false;
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        int null = open("/dev/null", O_WRONLY);
        if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0 || (null >= 0 && dup2(null, 2) < 0))
            _exit(127);
        signal(SIGPIPE, SIG_DFL);
        if (S.cfg.engine)
            execl("/bin/sh", "sh", "-c", S.cfg.engine, (char *)NULL);
        else
            execl(S.engine_path, "denham", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    pthread_mutex_lock(&s->lock);
    s->pid = pid;
    pthread_mutex_unlock(&s->lock);
    pthread_mutex_lock(&s->write_lock);
    s->to_fd = in[1];
    pthread_mutex_unlock(&s->write_lock);
    s->from_fd = out[0];
    return true;
}

/* Kills the engine, if one runs. Under the session's lock, as the reader
 * clears the pid before it reaps: the pid of a reaped engine may already
 * name another process. */
static void engine_kill(session_t *s)
{
    pthread_mutex_lock(&s->lock);
    if (s->pid > 0)
        kill(s->pid, SIGKILL);
    pthread_mutex_unlock(&s->lock);
}

/* Waits for the engine's end, forgets its pid, then reaps it: its status
 * into *status. Only the reader thread writes the pid. */
static void engine_reap(session_t *s, int *status)
{
    siginfo_t info;
    while (waitid(P_PID, (id_t)s->pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR)
        ;
    pthread_mutex_lock(&s->lock);
    pid_t pid = s->pid;
    s->pid = 0;
    pthread_mutex_unlock(&s->lock);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
}

/* Closes the engine's input, once, under the lock commands write with. */
static void close_input(session_t *s)
{
    pthread_mutex_lock(&s->write_lock);
    if (s->to_fd >= 0)
        close(s->to_fd);
    s->to_fd = -1;
    pthread_mutex_unlock(&s->write_lock);
}

/* Ends the engine: closes its input and kills it; the reader thread
 * reaps it. */
static void engine_stop(session_t *s)
{
    close_input(s);
    engine_kill(s);
}

/* ---- a session's lines ---- */

static size_t entry_size(const entry_t *e) { return strlen(e->data) + (e->event ? strlen(e->event) : 0); }

/* Forgets the oldest entry held (s->lock held). */
static void drop_oldest(session_t *s)
{
    entry_t *o = &s->ring[s->oldest_seq % RING_LINES];
    if (o->data && o->seq == s->oldest_seq) {
        s->ring_bytes -= entry_size(o);
        free(o->data);
        free(o->event);
        *o = (entry_t){0};
    }
    s->oldest_seq++;
}

/* Appends an entry (s->lock held), forgetting the oldest ones past the
 * limits: a page that reconnects gets what is left. */
static void push_locked(session_t *s, const char *event, const char *data)
{
    entry_t e = {s->next_seq, event ? strdup(event) : NULL, strdup(data)};
    if (!e.data || (event && !e.event)) {
        free(e.data);
        free(e.event);
        return;
    }
    size_t need = entry_size(&e);
    while (s->oldest_seq < s->next_seq &&
           (s->next_seq - s->oldest_seq >= RING_LINES || s->ring_bytes + need > RING_BYTES))
        drop_oldest(s);
    s->ring[s->next_seq % RING_LINES] = e;
    s->ring_bytes += need;
    s->next_seq++;
    pthread_cond_broadcast(&s->changed);
}

static void push(session_t *s, const char *event, const char *data)
{
    pthread_mutex_lock(&s->lock);
    push_locked(s, event, data);
    pthread_mutex_unlock(&s->lock);
}

/* An `engine` event: {"state": ..., "detail": ...}, the detail escaped
 * (it may hold the --engine command). */
static void push_engine_state(session_t *s, const char *state, const char *detail)
{
    json_t j;
    json_init(&j);
    json_object(&j);
    json_kstring(&j, "state", state);
    json_kstring(&j, "detail", detail);
    json_end(&j);
    if (!j.failed)
        push(s, "engine", j.buf);
    json_free(&j);
}

/* May the engine be started again: fewer than RESTARTS_PER_MINUTE starts
 * in the last minute. */
static bool restart_allowed(session_t *s)
{
    int64_t now = timeman_now_ms();
    int recent = 0, oldest = 0;
    for (int i = 0; i < RESTARTS_PER_MINUTE; i++) {
        if (now - s->restart_times[i] < 60000)
            recent++;
        if (s->restart_times[i] < s->restart_times[oldest])
            oldest = i;
    }
    if (recent >= RESTARTS_PER_MINUTE)
        return false;
    s->restart_times[oldest] = now;
    return true;
}

/* The reader: starts the engine, passes its lines into the ring, and at
 * its end reaps it and, unless the session is closing, starts another.
 * Engines are started here and only here: an engine dies with the thread
 * that started it (PR_SET_PDEATHSIG follows the thread), and this thread
 * lives exactly as long as the session. */
/* A session closed while its engine was down (before the first start, or
 * between a crash and the restart) found no engine to stop: the one just
 * started is stopped here, so that the reader sees its end and returns.
 * True when it was. */
static bool stop_if_closed(session_t *s)
{
    pthread_mutex_lock(&s->lock);
    bool closing = s->closing;
    pthread_mutex_unlock(&s->lock);
    if (closing || atomic_load(&S.stopping))
        engine_stop(s);
    return closing || atomic_load(&S.stopping);
}

static void *reader_thread(void *arg)
{
    session_t *s = arg;
    char *buf = malloc(LINE_MAX_BYTES + 1);
    bool started = buf && engine_spawn(s);
    pthread_mutex_lock(&s->lock);
    s->spawn_state = started ? 1 : -1;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    if (!started) {
        free(buf);
        return NULL;
    }
    stop_if_closed(s);
    for (;;) {
        size_t len = 0;
        for (;;) {
            ssize_t got = read(s->from_fd, buf + len, LINE_MAX_BYTES - len);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0)
                break;
            len += (size_t)got;
            buf[len] = 0;
            char *start = buf, *nl;
            while ((nl = memchr(start, '\n', len - (size_t)(start - buf)))) {
                *nl = 0;
                if (nl > start && nl[-1] == '\r')
                    nl[-1] = 0;
                push(s, NULL, start);
                start = nl + 1;
            }
            len -= (size_t)(start - buf);
            memmove(buf, start, len);
            if (len == LINE_MAX_BYTES) { /* no line break in 64 KiB: passed on in pieces */
                buf[len] = 0;
                push(s, NULL, buf);
                len = 0;
            }
        }
        close(s->from_fd);
        s->from_fd = -1;
        int status = 0;
        engine_reap(s, &status);
        close_input(s);
        pthread_mutex_lock(&s->lock);
        bool closing = s->closing, asked = s->restart_asked;
        s->restart_asked = false;
        pthread_mutex_unlock(&s->lock);
        if (closing || atomic_load(&S.stopping))
            break;
        char detail[96];
        if (asked)
            snprintf(detail, sizeof detail, "restarted on request");
        else if (WIFSIGNALED(status))
            snprintf(detail, sizeof detail, "the engine died of signal %d", WTERMSIG(status));
        else
            snprintf(detail, sizeof detail, "the engine exited with status %d", WEXITSTATUS(status));
        push_engine_state(s, asked ? "stopped" : "crashed", detail);
        if (!restart_allowed(s) || !engine_spawn(s)) {
            push_engine_state(s, "down", "the engine could not be started again");
            break;
        }
        if (stop_if_closed(s))
            continue; /* its end is read, reaped and ends the loop */
        push_engine_state(s, "restarted", "a new engine is running: send the game again");
    }
    free(buf);
    return NULL;
}

/* ---- sessions ---- */

static void random_id(char out[33])
{
    unsigned char bytes[16];
    FILE *f = fopen("/dev/urandom", "rb");
    bool ok = f && fread(bytes, 1, sizeof bytes, f) == sizeof bytes;
    if (f)
        fclose(f);
    if (!ok) { /* never expected; still unguessable enough for a local server */
        uint64_t x = (uint64_t)timeman_now_us() * 0x9E3779B97F4A7C15ull ^ (uint64_t)getpid();
        for (int i = 0; i < 16; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            bytes[i] = (unsigned char)x;
        }
    }
    for (int i = 0; i < 16; i++)
        snprintf(out + 2 * i, 3, "%02x", bytes[i]);
}

static int sessions_in_use(void)
{
    int n = 0;
    for (int i = 0; i < S.cfg.max_sessions; i++)
        n += S.sessions[i] && S.sessions[i]->used;
    return n;
}

/* A new session with its engine running, held once (release it), or NULL
 * when every slot is taken (*full) or the engine cannot start. */
static session_t *session_open(bool *full)
{
    *full = false;
    pthread_mutex_lock(&S.lock);
    session_t *s = NULL;
    for (int i = 0; i < S.cfg.max_sessions && !s; i++)
        if (!S.sessions[i]->used && S.sessions[i]->users == 0)
            s = S.sessions[i];
    if (!s) {
        *full = true;
        pthread_mutex_unlock(&S.lock);
        return NULL;
    }
    s->used = true;
    s->users = 1;
    s->listeners = 0;
    random_id(s->id);
    pthread_mutex_unlock(&S.lock);

    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < RING_LINES; i++) {
        free(s->ring[i].data);
        free(s->ring[i].event);
        s->ring[i] = (entry_t){0};
    }
    s->next_seq = s->oldest_seq = 1;
    s->ring_bytes = 0;
    s->closing = s->restart_asked = false;
    s->last_active_ms = s->alone_since_ms = timeman_now_ms();
    memset(s->restart_times, 0, sizeof s->restart_times);
    s->spawn_state = 0;
    pthread_mutex_unlock(&s->lock);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, THREAD_STACK);
    bool ok = pthread_create(&s->reader, &attr, reader_thread, s) == 0;
    pthread_attr_destroy(&attr);
    s->reader_running = ok;
    if (ok) { /* the reader starts the engine: wait for it */
        pthread_mutex_lock(&s->lock);
        while (s->spawn_state == 0)
            pthread_cond_wait(&s->changed, &s->lock);
        ok = s->spawn_state > 0;
        pthread_mutex_unlock(&s->lock);
        if (!ok) {
            pthread_join(s->reader, NULL);
            s->reader_running = false;
        }
    }
    if (!ok) {
        pthread_mutex_lock(&S.lock);
        s->used = false;
        s->users = 0;
        pthread_mutex_unlock(&S.lock);
        return NULL;
    }
    push_engine_state(s, "started", S.cfg.engine ? S.cfg.engine : "denham");
    return s;
}

/* The session with this id, held (release it), or NULL. */
static session_t *session_find(const char *id)
{
    pthread_mutex_lock(&S.lock);
    session_t *found = NULL;
    for (int i = 0; i < S.cfg.max_sessions && !found; i++) {
        session_t *s = S.sessions[i];
        if (s->used && strlen(id) == 32 && strcmp(s->id, id) == 0) {
            found = s;
            s->users++;
        }
    }
    pthread_mutex_unlock(&S.lock);
    return found;
}

static void session_release(session_t *s)
{
    pthread_mutex_lock(&S.lock);
    s->users--;
    pthread_mutex_unlock(&S.lock);
}

/* Ends the session's engine and marks it for the reaper, which frees the
 * slot once nobody holds it. */
static void session_close(session_t *s, const char *why)
{
    pthread_mutex_lock(&s->lock);
    bool already = s->closing;
    s->closing = true;
    if (!already) {
        json_t j;
        json_init(&j);
        json_object(&j);
        json_kstring(&j, "state", "closed");
        json_kstring(&j, "detail", why);
        json_end(&j);
        if (!j.failed)
            push_locked(s, "engine", j.buf);
        json_free(&j);
    }
    pthread_mutex_unlock(&s->lock);
    if (!already)
        engine_stop(s);
}

/* Every half second: closes sessions whose page has gone or that were idle
 * too long, and frees the slots of closed ones (their engine reaped). */
static void *reaper_thread(void *arg)
{
    (void)arg;
    while (!atomic_load(&S.stopping)) {
        struct timespec nap = {0, 500 * 1000 * 1000};
        nanosleep(&nap, NULL);
        int64_t now = timeman_now_ms();
        for (int i = 0; i < S.cfg.max_sessions; i++) {
            session_t *s = S.sessions[i];
            pthread_mutex_lock(&S.lock);
            bool used = s->used, idle_free = s->used && s->users == 0;
            int listeners = s->listeners;
            pthread_mutex_unlock(&S.lock);
            if (!used)
                continue;
            pthread_mutex_lock(&s->lock);
            bool closing = s->closing;
            int64_t alone = s->alone_since_ms, active = s->last_active_ms;
            pthread_mutex_unlock(&s->lock);
            if (!closing && listeners == 0 && now - alone > ALONE_GRACE_MS)
                session_close(s, "the page went away");
            else if (!closing && now - active > S.cfg.idle_ms)
                session_close(s, "idle for too long");
            if (closing && idle_free) {
                if (s->reader_running) {
                    pthread_join(s->reader, NULL);
                    s->reader_running = false;
                }
                pthread_mutex_lock(&S.lock);
                if (s->users == 0)
                    s->used = false;
                pthread_mutex_unlock(&S.lock);
            }
        }
    }
    return NULL;
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
    pthread_mutex_lock(&S.lock);
    s->listeners++;
    pthread_mutex_unlock(&S.lock);
    char *frame = malloc(LINE_MAX_BYTES + 256);
    unsigned long long next = last_seen + 1;
    while (frame && !atomic_load(&S.stopping)) {
        pthread_mutex_lock(&s->lock);
        if (next >= s->next_seq && !s->closing) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_sec += HEARTBEAT_MS / 1000;
            pthread_cond_timedwait(&s->changed, &s->lock, &until);
        }
        bool closed = s->closing && next >= s->next_seq;
        if (next < s->oldest_seq) /* entries forgotten meanwhile are skipped */
            next = s->oldest_seq;
        size_t len = 0;
        bool have = false;
        if (next < s->next_seq) {
            entry_t *e = &s->ring[next % RING_LINES];
            if (e->data && e->seq == next) {
                len = http_sse_frame(frame, LINE_MAX_BYTES + 256, e->seq, e->event, e->data);
                have = true;
            }
            next++;
        }
        pthread_mutex_unlock(&s->lock);
        if (have && len > 0 && !send_all(fd, frame, len))
            break;
        if (!have && !closed && !send_all(fd, ": keep-alive\n\n", 14))
            break;
        if (closed)
            break;
    }
    free(frame);
    pthread_mutex_lock(&S.lock);
    s->listeners--;
    bool alone = s->listeners == 0;
    pthread_mutex_unlock(&S.lock);
    if (alone) {
        pthread_mutex_lock(&s->lock);
        s->alone_since_ms = timeman_now_ms();
        pthread_mutex_unlock(&s->lock);
    }
}

/* One protocol line from the page to the engine. */
static void send_command(int fd, session_t *s, const char *body, size_t len)
{
    const char *why;
    if (!http_command_ok(body, len, &why)) {
        respond_error(fd, 400, why);
        return;
    }
    pthread_mutex_lock(&s->lock);
    s->last_active_ms = timeman_now_ms();
    pthread_mutex_unlock(&s->lock);
    pthread_mutex_lock(&s->write_lock);
    bool ok = false;
    if (s->to_fd >= 0) {
        ok = true;
        for (size_t off = 0; ok && off < len;) {
            ssize_t n = write(s->to_fd, body + off, len - off);
            if (n < 0 && errno == EINTR)
                continue;
            ok = n > 0;
            off += ok ? (size_t)n : 0;
        }
        ok = ok && write(s->to_fd, "\n", 1) == 1;
    }
    pthread_mutex_unlock(&s->write_lock);
    if (ok)
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
        pthread_mutex_lock(&S.lock);
        int in_use = sessions_in_use();
        pthread_mutex_unlock(&S.lock);
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
        snprintf(json, sizeof json, "{\"id\":\"%s\"}", s->id);
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
    pthread_mutex_lock(&s->lock);
    bool closing = s->closing;
    pthread_mutex_unlock(&s->lock);
    if (closing && strcmp(action, "events") != 0) {
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
        pthread_mutex_lock(&s->lock);
        s->restart_asked = true;
        s->last_active_ms = timeman_now_ms();
        pthread_mutex_unlock(&s->lock);
        engine_kill(s);
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
    pthread_mutex_init(&S.lock, NULL);
    for (int i = 0; i < cfg->max_sessions; i++) {
        S.sessions[i] = calloc(1, sizeof *S.sessions[i]);
        if (!S.sessions[i]) {
            log_line("denham serve: out of memory");
            return 1;
        }
        pthread_mutex_init(&S.sessions[i]->lock, NULL);
        pthread_mutex_init(&S.sessions[i]->write_lock, NULL);
        pthread_cond_init(&S.sessions[i]->changed, NULL);
        S.sessions[i]->to_fd = S.sessions[i]->from_fd = -1;
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

    pthread_t reaper;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, THREAD_STACK);
    pthread_create(&reaper, &attr, reaper_thread, NULL);
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
    /* Every engine ended and reaped before we go. */
    for (int i = 0; i < cfg->max_sessions; i++) {
        session_t *s = S.sessions[i];
        if (s->used)
            session_close(s, "the server is stopping");
        pthread_mutex_lock(&s->lock);
        pthread_cond_broadcast(&s->changed);
        pthread_mutex_unlock(&s->lock);
    }
    pthread_join(reaper, NULL);
    for (int i = 0; i < cfg->max_sessions; i++)
        if (S.sessions[i]->reader_running)
            pthread_join(S.sessions[i]->reader, NULL);
    /* Connection threads end within IO_TIMEOUT_S; give them that. */
    for (int waited = 0; atomic_load(&S.connections) > 0 && waited < (IO_TIMEOUT_S + 1) * 10; waited++) {
        struct timespec nap = {0, 100 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    log_line("denham serve: stopped");
    return 0;
}

static int usage(const char *why)
{
    fprintf(stderr,
            "denham serve: %s\nusage: denham serve [--port N] [--host ADDR] [--engine CMD] [--max-sessions N] "
            "[--idle-seconds N]\n",
            why);
    return 2;
}

int serve_main(int argc, char **argv)
{
    serve_config_t cfg = {.host = "127.0.0.1", .port = 8080, .max_sessions = 8, .idle_ms = 600000};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long long x;
        if (!v)
            return usage("every option takes a value");
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
        else
            return usage("unknown option or bad value (--port 0-65535, --max-sessions 1-64, --idle-seconds 1-86400)");
        i++;
    }
    return serve_run(&cfg);
}
