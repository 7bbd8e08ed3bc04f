/*
 * sessions.c: the sessions of `denham serve`. Each is an engine child
 * process speaking PROTOCOL.md on pipes, the reader thread that started it
 * and passes its lines on, and a ring of those lines (with the server's
 * own `engine` events) that an event stream reads from any point still
 * held, so that a page that reconnects misses nothing recent. A reaper
 * thread closes sessions whose page went away or that stayed idle, and
 * frees their slots once every engine is reaped.
 *
 * Locks: the table's lock guards the slots' use and holders; each
 * session's lock guards its ring, its state and its engine's pid; its
 * write lock, the engine's input.
 *
 * May not reach into the engine or any game, nor speak HTTP: it only keeps
 * lines (http.h only frames them for the stream).
 */
#define _GNU_SOURCE /* pipe2 */
#include "sessions.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../engine/core/json.h"
#include "../../engine/core/timeman.h"
#include "http.h"

#define RING_LINES 4096          /* engine lines kept per session, for a page that reconnects */
#define RING_BYTES (512 * 1024)  /* and their size */
#define ALONE_GRACE_MS 10000     /* a session whose page went away lives this long (a reload comes back) */
#define RESTARTS_PER_MINUTE 5    /* an engine that crashes more often is left down */
#define THREAD_STACK (256 * 1024)

typedef struct entry {
    unsigned long long seq;
    char *event; /* NULL: an engine line */
    char *data;
} entry_t;

struct session {
    /* Under the table's lock: */
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
};

static struct sessions {
    sessions_config_t cfg;
    pthread_mutex_t lock;
    session_t *sessions[SESSIONS_LIMIT];
    pthread_t reaper;
    bool reaper_running;
    atomic_bool stopping; /* sessions_stop: the reaper ends */
} P;

/* The server is stopping, or the sessions are: start no engine again. */
static bool stopping(void) { return atomic_load(P.cfg.stopping) || atomic_load(&P.stopping); }

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
        if (P.cfg.engine)
            execl("/bin/sh", "sh", "-c", P.cfg.engine, (char *)NULL);
        else
            execl(P.cfg.engine_path, "denham", (char *)NULL);
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
 * (it may hold the --engine command); s->lock held. */
static void push_engine_state_locked(session_t *s, const char *state, const char *detail)
{
    json_t j;
    json_init(&j);
    json_object(&j);
    json_kstring(&j, "state", state);
    json_kstring(&j, "detail", detail);
    json_end(&j);
    if (!j.failed)
        push_locked(s, "engine", j.buf);
    json_free(&j);
}

static void push_engine_state(session_t *s, const char *state, const char *detail)
{
    pthread_mutex_lock(&s->lock);
    push_engine_state_locked(s, state, detail);
    pthread_mutex_unlock(&s->lock);
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

/* A session closed while its engine was down (before the first start, or
 * between a crash and the restart) found no engine to stop: the one just
 * started is stopped here, so that the reader sees its end and returns.
 * True when it was. */
static bool stop_if_closed(session_t *s)
{
    pthread_mutex_lock(&s->lock);
    bool closing = s->closing;
    pthread_mutex_unlock(&s->lock);
    bool stop = closing || stopping();
    if (stop)
        engine_stop(s);
    return stop;
}

/* The reader: starts the engine, passes its lines into the ring, and at
 * its end reaps it and, unless the session is closing, starts another.
 * Engines are started here and only here: an engine dies with the thread
 * that started it (PR_SET_PDEATHSIG follows the thread), and this thread
 * lives exactly as long as the session. */
static void *reader_thread(void *arg)
{
    session_t *s = arg;
    char *buf = malloc(SESSION_LINE_MAX + 1);
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
            ssize_t got = read(s->from_fd, buf + len, SESSION_LINE_MAX - len);
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
            if (len == SESSION_LINE_MAX) { /* no line break in 64 KiB: passed on in pieces */
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
        if (closing || stopping())
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

int sessions_in_use(void)
{
    pthread_mutex_lock(&P.lock);
    int n = 0;
    for (int i = 0; i < P.cfg.max_sessions; i++)
        n += P.sessions[i] && P.sessions[i]->used;
    pthread_mutex_unlock(&P.lock);
    return n;
}

session_t *session_open(bool *full)
{
    *full = false;
    pthread_mutex_lock(&P.lock);
    session_t *s = NULL;
    for (int i = 0; i < P.cfg.max_sessions && !s; i++)
        if (!P.sessions[i]->used && P.sessions[i]->users == 0)
            s = P.sessions[i];
    if (!s) {
        *full = true;
        pthread_mutex_unlock(&P.lock);
        return NULL;
    }
    s->used = true;
    s->users = 1;
    s->listeners = 0;
    random_id(s->id);
    pthread_mutex_unlock(&P.lock);

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
        pthread_mutex_lock(&P.lock);
        s->used = false;
        s->users = 0;
        pthread_mutex_unlock(&P.lock);
        return NULL;
    }
    push_engine_state(s, "started", P.cfg.engine ? P.cfg.engine : "denham");
    return s;
}

session_t *session_find(const char *id)
{
    pthread_mutex_lock(&P.lock);
    session_t *found = NULL;
    for (int i = 0; i < P.cfg.max_sessions && !found; i++) {
        session_t *s = P.sessions[i];
        if (s->used && strlen(id) == 32 && strcmp(s->id, id) == 0) {
            found = s;
            s->users++;
        }
    }
    pthread_mutex_unlock(&P.lock);
    return found;
}

void session_release(session_t *s)
{
    pthread_mutex_lock(&P.lock);
    s->users--;
    pthread_mutex_unlock(&P.lock);
}

/* Ends the session's engine and marks it for the reaper, which frees the
 * slot once nobody holds it. */
void session_close(session_t *s, const char *why)
{
    pthread_mutex_lock(&s->lock);
    bool already = s->closing;
    s->closing = true;
    if (!already)
        push_engine_state_locked(s, "closed", why);
    pthread_mutex_unlock(&s->lock);
    if (!already)
        engine_stop(s);
}

/* Every half second: closes sessions whose page has gone or that were idle
 * too long, and frees the slots of closed ones (their engine reaped). */
static void *reaper_thread(void *arg)
{
    (void)arg;
    while (!stopping()) {
        struct timespec nap = {0, 500 * 1000 * 1000};
        nanosleep(&nap, NULL);
        int64_t now = timeman_now_ms();
        for (int i = 0; i < P.cfg.max_sessions; i++) {
            session_t *s = P.sessions[i];
            pthread_mutex_lock(&P.lock);
            bool used = s->used, idle_free = s->used && s->users == 0;
            int listeners = s->listeners;
            pthread_mutex_unlock(&P.lock);
            if (!used)
                continue;
            pthread_mutex_lock(&s->lock);
            bool closing = s->closing;
            int64_t alone = s->alone_since_ms, active = s->last_active_ms;
            pthread_mutex_unlock(&s->lock);
            if (!closing && listeners == 0 && now - alone > ALONE_GRACE_MS)
                session_close(s, "the page went away");
            else if (!closing && now - active > P.cfg.idle_ms)
                session_close(s, "idle for too long");
            if (closing && idle_free) {
                if (s->reader_running) {
                    pthread_join(s->reader, NULL);
                    s->reader_running = false;
                }
                pthread_mutex_lock(&P.lock);
                if (s->users == 0)
                    s->used = false;
                pthread_mutex_unlock(&P.lock);
            }
        }
    }
    return NULL;
}

/* ---- what serve.c asks of a session ---- */

const char *session_id(const session_t *s) { return s->id; }

bool session_closing(session_t *s)
{
    pthread_mutex_lock(&s->lock);
    bool closing = s->closing;
    pthread_mutex_unlock(&s->lock);
    return closing;
}

static void touch(session_t *s)
{
    pthread_mutex_lock(&s->lock);
    s->last_active_ms = timeman_now_ms();
    pthread_mutex_unlock(&s->lock);
}

void session_restart(session_t *s)
{
    pthread_mutex_lock(&s->lock);
    s->restart_asked = true;
    s->last_active_ms = timeman_now_ms();
    pthread_mutex_unlock(&s->lock);
    engine_kill(s);
}

bool session_send_line(session_t *s, const char *line, size_t len)
{
    touch(s);
    pthread_mutex_lock(&s->write_lock);
    bool ok = false;
    if (s->to_fd >= 0) {
        ok = true;
        for (size_t off = 0; ok && off < len;) {
            ssize_t n = write(s->to_fd, line + off, len - off);
            if (n < 0 && errno == EINTR)
                continue;
            ok = n > 0;
            off += ok ? (size_t)n : 0;
        }
        ok = ok && write(s->to_fd, "\n", 1) == 1;
    }
    pthread_mutex_unlock(&s->write_lock);
    return ok;
}

void session_listen_begin(session_t *s)
{
    pthread_mutex_lock(&P.lock);
    s->listeners++;
    pthread_mutex_unlock(&P.lock);
}

/* The last listener gone starts the grace time the reaper counts. */
void session_listen_end(session_t *s)
{
    pthread_mutex_lock(&P.lock);
    s->listeners--;
    bool alone = s->listeners == 0;
    pthread_mutex_unlock(&P.lock);
    if (alone) {
        pthread_mutex_lock(&s->lock);
        s->alone_since_ms = timeman_now_ms();
        pthread_mutex_unlock(&s->lock);
    }
}

session_wait_t session_next_frame(session_t *s, unsigned long long *next, int wait_ms, char *frame, size_t cap,
                                  size_t *len)
{
    *len = 0;
    pthread_mutex_lock(&s->lock);
    if (*next >= s->next_seq && !s->closing) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += wait_ms / 1000;
        until.tv_nsec += (long)(wait_ms % 1000) * 1000000L;
        if (until.tv_nsec >= 1000000000L)
            until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&s->changed, &s->lock, &until);
    }
    bool ended = s->closing && *next >= s->next_seq;
    if (*next < s->oldest_seq) /* entries forgotten meanwhile are skipped */
        *next = s->oldest_seq;
    bool have = false;
    if (*next < s->next_seq) {
        entry_t *e = &s->ring[*next % RING_LINES];
        if (e->data && e->seq == *next) {
            *len = http_sse_frame(frame, cap, e->seq, e->event, e->data);
            have = true;
        }
        (*next)++;
    }
    pthread_mutex_unlock(&s->lock);
    return have ? SESSION_FRAME : ended ? SESSION_ENDED : SESSION_QUIET;
}

/* ---- the table ---- */

bool sessions_start(const sessions_config_t *cfg)
{
    P.cfg = *cfg;
    pthread_mutex_init(&P.lock, NULL);
    for (int i = 0; i < cfg->max_sessions; i++) {
        P.sessions[i] = calloc(1, sizeof *P.sessions[i]);
        if (!P.sessions[i])
            return false;
        pthread_mutex_init(&P.sessions[i]->lock, NULL);
        pthread_mutex_init(&P.sessions[i]->write_lock, NULL);
        pthread_cond_init(&P.sessions[i]->changed, NULL);
        P.sessions[i]->to_fd = P.sessions[i]->from_fd = -1;
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, THREAD_STACK);
    P.reaper_running = pthread_create(&P.reaper, &attr, reaper_thread, NULL) == 0;
    pthread_attr_destroy(&attr);
    return P.reaper_running;
}

void sessions_stop(void)
{
    atomic_store(&P.stopping, true);
    for (int i = 0; i < P.cfg.max_sessions; i++) {
        session_t *s = P.sessions[i];
        if (!s)
            continue;
        pthread_mutex_lock(&P.lock);
        bool used = s->used;
        pthread_mutex_unlock(&P.lock);
        if (used)
            session_close(s, "the server is stopping");
        pthread_mutex_lock(&s->lock);
        pthread_cond_broadcast(&s->changed);
        pthread_mutex_unlock(&s->lock);
    }
    if (P.reaper_running)
        pthread_join(P.reaper, NULL);
    P.reaper_running = false;
    for (int i = 0; i < P.cfg.max_sessions; i++)
        if (P.sessions[i] && P.sessions[i]->reader_running) {
            pthread_join(P.sessions[i]->reader, NULL);
            P.sessions[i]->reader_running = false;
        }
}
