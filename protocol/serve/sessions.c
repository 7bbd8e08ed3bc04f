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
 * session's lock guards its ring and its state; the engine (engine_proc.h)
 * guards its own pid and input. No request ever waits on an engine longer
 * than ENGINE_WRITE_MS, and no thread is joined before it has ended.
 *
 * May not reach into the engine or any game, nor speak HTTP: it only keeps
 * lines (http.h only frames them for the stream).
 */
#define _GNU_SOURCE /* getrandom */
#include "sessions.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../engine/core/json.h"
#include "../../engine/core/timeman.h"
#include "../common/engine_proc.h"
#include "http.h"

#define RING_LINES 4096          /* engine lines kept per session, for a page that reconnects */
#define RING_BYTES (256 * 1024)  /* and their size with malloc's overhead (8 sessions: 2 MB of the server's 10) */
#define ALONE_GRACE_MS 10000     /* a session whose page went away lives this long (a reload comes back) */
#define RESTARTS_PER_MINUTE 5    /* an engine that crashes more often is left down */
#define THREAD_STACK (256 * 1024)
#define READ_SLICE_MS 250        /* the reader looks up from the pipe this often: has the engine itself ended? */
#define EXIT_GRACE_MS 200        /* an engine whose output closed has this long to exit before its group is killed */
#define STOP_WAIT_MS 1000        /* sessions_stop waits this long for the readers (every engine is killed first) */

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
    bool closing;
    bool restart_asked; /* set only while an engine runs, and cleared at its end */
    bool down;          /* the reader has ended: no engine will run again */
    int64_t last_active_ms, alone_since_ms;
    int64_t restart_times[RESTARTS_PER_MINUTE];
    int spawn_state; /* the first engine: 0 starting, 1 running, -1 failed */
    /* The reader thread's (its start and join are the reaper's and sessions_stop's): */
    eproc_t eng;
    pthread_t reader;
    bool reader_running; /* created and not yet joined */
    atomic_bool reader_done; /* it has returned: a join does not wait */
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

/* Starts the engine for s (engine_proc.h): its own process group, its
 * stderr nowhere, and it dies with the reader thread that starts it. */
static bool engine_spawn(session_t *s)
{
    eproc_spec_t spec = {.cmd = P.cfg.engine,
                         .path = P.cfg.engine_path,
                         .die_with_parent = true,
                         .line_max = SESSION_LINE_MAX};
    return eproc_spawn(&s->eng, &spec);
}

/* Ends the engine at once: the whole group killed, whatever it does; the
 * reader thread sees its end and reaps it. Never waits on the engine. */
static void engine_stop(session_t *s) { eproc_kill_group(&s->eng); }

/* ---- a session's lines ---- */

/* What an entry holds of memory: its text and, roughly, malloc's headers. */
static size_t entry_size(const entry_t *e) { return strlen(e->data) + (e->event ? strlen(e->event) + 16 : 0) + 16; }

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

/* How the engine's run ended, for the page. */
static void end_detail(char *out, size_t cap, bool asked, int status)
{
    if (asked)
        snprintf(out, cap, "restarted on request");
    else if (WIFSIGNALED(status))
        snprintf(out, cap, "the engine died of signal %d", WTERMSIG(status));
    else
        snprintf(out, cap, "the engine exited with status %d", WEXITSTATUS(status));
}

/* The reader: starts the engine, passes its lines into the ring, and at
 * its end reaps it and, unless the session is closing, starts another.
 * Engines are started here and only here: an engine dies with the thread
 * that started it (PR_SET_PDEATHSIG follows the thread), and this thread
 * lives exactly as long as the session. It never blocks for long: it reads
 * in slices, and an engine whose leader has exited while something of its
 * group still holds the pipe is ended as a group. */
static void *reader_thread(void *arg)
{
    session_t *s = arg;
    char *line = malloc(SESSION_LINE_MAX + 1);
    bool started = line && engine_spawn(s);
    pthread_mutex_lock(&s->lock);
    s->spawn_state = started ? 1 : -1;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    if (started)
        stop_if_closed(s);
    while (started) {
        int got = eproc_read_line(&s->eng, line, SESSION_LINE_MAX + 1, timeman_now_ms() + READ_SLICE_MS);
        if (got == EPROC_LINE) {
            push(s, NULL, line);
            continue;
        }
        if (got == EPROC_TIMEOUT && !eproc_exited(&s->eng))
            continue;
        int status = 0;
        eproc_end(&s->eng, EXIT_GRACE_MS, &status);
        pthread_mutex_lock(&s->lock);
        bool closing = s->closing, asked = s->restart_asked;
        s->restart_asked = false;
        pthread_mutex_unlock(&s->lock);
        if (closing || stopping())
            break;
        char detail[96];
        end_detail(detail, sizeof detail, asked, status);
        push_engine_state(s, asked ? "stopped" : "crashed", detail);
        if (!restart_allowed(s) || !engine_spawn(s)) {
            pthread_mutex_lock(&s->lock); /* down before the page hears it: a restart it asks is refused */
            s->down = true;
            push_engine_state_locked(s, "down", "the engine could not be started again");
            pthread_mutex_unlock(&s->lock);
            break;
        }
        if (stop_if_closed(s))
            continue; /* its end is read, reaped and ends the loop */
        push_engine_state(s, "restarted", "a new engine is running: send the game again");
    }
    free(line);
    pthread_mutex_lock(&s->lock);
    s->down = true;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    atomic_store(&s->reader_done, true);
    return NULL;
}

/* ---- sessions ---- */

/* A session id: 16 bytes from the kernel's generator, or false (the
 * session is refused: an id must not be guessable). */
static bool random_id(char out[33])
{
    unsigned char bytes[16];
    size_t got = 0;
    while (got < sizeof bytes) {
        ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        got += (size_t)n;
    }
    for (int i = 0; i < 16; i++)
        snprintf(out + 2 * i, 3, "%02x", bytes[i]);
    return true;
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

session_t *session_open(const char **why)
{
    char id[33];
    if (!random_id(id)) {
        *why = "no random session id could be made (getrandom failed)";
        return NULL;
    }
    pthread_mutex_lock(&P.lock);
    session_t *s = NULL;
    /* Under the table's lock, as sessions_stop sets P.stopping: a session
     * is either open before it looks, or never opened. */
    if (atomic_load(&P.stopping) || atomic_load(P.cfg.stopping)) {
        pthread_mutex_unlock(&P.lock);
        *why = "the server is stopping";
        return NULL;
    }
    for (int i = 0; i < P.cfg.max_sessions && !s; i++)
        if (!P.sessions[i]->used && P.sessions[i]->users == 0 && !P.sessions[i]->reader_running)
            s = P.sessions[i];
    if (!s) {
        pthread_mutex_unlock(&P.lock);
        *why = "every engine is taken (--max-sessions): close another tab or try later";
        return NULL;
    }
    s->used = true;
    s->users = 1;
    s->listeners = 0;
    memcpy(s->id, id, sizeof id);
    /* Its state is new before the table's lock goes: a sessions_stop that
     * finds the slot used closes it after this, never before. */
    pthread_mutex_lock(&s->lock);
    s->closing = s->restart_asked = s->down = false;
    pthread_mutex_unlock(&s->lock);
    pthread_mutex_unlock(&P.lock);

    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < RING_LINES; i++) {
        free(s->ring[i].data);
        free(s->ring[i].event);
        s->ring[i] = (entry_t){0};
    }
    s->next_seq = s->oldest_seq = 1;
    s->ring_bytes = 0;
    s->last_active_ms = s->alone_since_ms = timeman_now_ms();
    memset(s->restart_times, 0, sizeof s->restart_times);
    s->spawn_state = 0;
    pthread_mutex_unlock(&s->lock);
    atomic_store(&s->reader_done, false);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, THREAD_STACK);
    pthread_mutex_lock(&P.lock); /* reader_running: under the table's lock, as the reaper reads it */
    bool ok = pthread_create(&s->reader, &attr, reader_thread, s) == 0;
    s->reader_running = ok;
    pthread_mutex_unlock(&P.lock);
    pthread_attr_destroy(&attr);
    if (ok) { /* the reader starts the engine: wait for it (a fork and an exec) */
        pthread_mutex_lock(&s->lock);
        while (s->spawn_state == 0)
            pthread_cond_wait(&s->changed, &s->lock);
        ok = s->spawn_state > 0;
        pthread_mutex_unlock(&s->lock);
    }
    if (!ok) {
        /* The reader (if any) has returned, or is about to: the reaper joins it. */
        pthread_mutex_lock(&s->lock);
        s->closing = true;
        pthread_mutex_unlock(&s->lock);
        pthread_mutex_lock(&P.lock);
        s->users = 0;
        pthread_mutex_unlock(&P.lock);
        *why = "the engine could not be started";
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

/* Joins the reader of s if it has returned (never waits on one that has
 * not), and frees the slot once nobody holds it. */
static void free_if_done(session_t *s)
{
    pthread_mutex_lock(&P.lock);
    bool join = s->reader_running && atomic_load(&s->reader_done);
    pthread_mutex_unlock(&P.lock);
    if (join)
        pthread_join(s->reader, NULL);
    pthread_mutex_lock(&P.lock);
    if (join)
        s->reader_running = false;
    if (!s->reader_running && s->users == 0)
        s->used = false;
    pthread_mutex_unlock(&P.lock);
}

/* Every half second: closes sessions whose page has gone or that were idle
 * too long, and frees the slots of closed ones (their engine reaped). */
static void *reaper_thread(void *arg)
{
    (void)arg;
    while (!stopping()) {
        struct timespec nap = {0, 250 * 1000 * 1000};
        nanosleep(&nap, NULL);
        int64_t now = timeman_now_ms();
        for (int i = 0; i < P.cfg.max_sessions; i++) {
            session_t *s = P.sessions[i];
            pthread_mutex_lock(&P.lock);
            bool used = s->used;
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
            if (closing)
                free_if_done(s);
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

bool session_restart(session_t *s)
{
    pthread_mutex_lock(&s->lock);
    s->last_active_ms = timeman_now_ms();
    bool down = s->down;
    pthread_mutex_unlock(&s->lock);
    if (down)
        return false;
    /* Asked only of a running engine: between a crash and the next start
     * a new engine is on its way, and the flag would name a later crash. */
    pthread_mutex_lock(&s->lock);
    bool running = eproc_running(&s->eng);
    if (running)
        s->restart_asked = true;
    pthread_mutex_unlock(&s->lock);
    if (running)
        engine_stop(s);
    return true;
}

session_send_t session_send_line(session_t *s, const char *line, size_t len)
{
    touch(s);
    char *buf = malloc(len + 1);
    if (!buf)
        return SESSION_NO_ENGINE;
    memcpy(buf, line, len);
    buf[len] = '\n';
    int r = eproc_write(&s->eng, buf, len + 1, timeman_now_ms() + ENGINE_WRITE_MS);
    free(buf);
    return r == EPROC_OK ? SESSION_SENT : r == EPROC_TIMEOUT ? SESSION_NOT_READING : SESSION_NO_ENGINE;
}

void session_note(session_t *s, const char *line) { push(s, NULL, line); }

bool session_listen_begin(session_t *s)
{
    pthread_mutex_lock(&P.lock);
    bool ok = s->listeners < SESSION_STREAMS_MAX;
    if (ok)
        s->listeners++;
    pthread_mutex_unlock(&P.lock);
    return ok;
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
        pthread_cond_init(&P.sessions[i]->changed, NULL);
        eproc_init(&P.sessions[i]->eng);
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
    pthread_mutex_lock(&P.lock); /* session_open looks under this lock */
    atomic_store(&P.stopping, true);
    pthread_mutex_unlock(&P.lock);
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
        pthread_join(P.reaper, NULL); /* it naps a quarter of a second at most */
    P.reaper_running = false;
    /* Every engine is killed: its reader sees the end at once (or within a
     * read slice, when a straggler holds the pipe) and reaps it. */
    int64_t until = timeman_now_ms() + STOP_WAIT_MS;
    for (int i = 0; i < P.cfg.max_sessions; i++) {
        session_t *s = P.sessions[i];
        if (!s)
            continue;
        pthread_mutex_lock(&P.lock);
        bool running = s->reader_running;
        pthread_mutex_unlock(&P.lock);
        while (running && !atomic_load(&s->reader_done) && timeman_now_ms() < until) {
            eproc_kill_group(&s->eng);
            struct timespec nap = {0, 10 * 1000 * 1000};
            nanosleep(&nap, NULL);
        }
        if (running && atomic_load(&s->reader_done)) {
            pthread_join(s->reader, NULL);
            pthread_mutex_lock(&P.lock);
            s->reader_running = false;
            pthread_mutex_unlock(&P.lock);
        }
    }
}
