/*
 * sessions.c: the sessions of `denham serve`, in the server's one loop.
 * Each is an engine child process (engine_proc.h: its own process group,
 * killed as a group, always reaped) whose output the loop reads into the
 * session's ring and whose input it writes from a queue, and up to
 * SESSION_STREAMS_MAX event streams that send the ring to the page.
 *
 * Back-pressure, never loss: a line that does not fit in the ring (every
 * entry in it not yet sent to a page) stops the reading of that engine,
 * which then blocks on its own pipe, until a stream has taken enough; a
 * command the engine does not read within ENGINE_WRITE_MS is answered 503.
 * Searches: every `go` counts its session's Threads against
 * --max-search-threads; one that would pass it waits (its line and those
 * after it held, in order) until a search ends (`bestmove`, or its engine's
 * end), or is released at once by `stop` or `quit`.
 *
 * May not reach into the engine or any game, nor parse HTTP beyond
 * http.h's command checks: it only relays lines.
 */
#define _GNU_SOURCE /* getrandom */
#include "sessions.h"

#include <errno.h>
#include <fcntl.h>
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
#include "ring.h"

#define RINGS_BUDGET (4 << 20)   /* every session's ring together, at most (then each holds less) */
#define RING_HISTORY (16 << 10)  /* lines a page was sent, kept for its reconnection */
#define ALONE_GRACE_MS 10000     /* a session whose page went away lives this long (a reload comes back) */
#define RESTARTS_PER_MINUTE 5    /* an engine that crashes more often is left down */
#define EXIT_GRACE_MS 200        /* an engine whose output closed has this long to exit before its group is killed */
#define STOP_WAIT_MS 1000        /* sessions_stop waits this long for the engines to be reaped */
#define HEARTBEAT_MS 15000       /* an event stream's comment line, so that proxies and pages see it live */
#define LINE_BUF_MIN 4096        /* the engine's output buffer begins this small and grows to SESSION_LINE_MAX */
#define INPUT_MAX (HTTP_BODY_MAX + 4096) /* bytes waiting for one engine to read them */
#define WAITERS_MAX 8            /* commands of one session waiting for its engine at once */
#define FRAME_SCRATCH (32 * 1024) /* event frames go out this much at a time */
#define ENGINE_NICE 5            /* engines run below the server: a search on every core delays no answer */

typedef struct session_io {
    serve_io_t io; /* first: the loop's tag */
    session_t *s;
} session_io_t;

typedef struct stream {
    conn_t *conn; /* NULL: a free slot */
    session_t *s;
    ring_pos_t pos;   /* the entry it sends next */
    size_t frame_off; /* bytes of that entry's frame already sent */
    bool blocked;     /* its socket is full */
    int64_t last_ms;  /* when it last sent */
} stream_t;

typedef struct waiter {
    conn_t *conn; /* NULL: a free slot */
    session_t *s;
    unsigned long long from, to; /* its line's bytes in the engine's input */
    int64_t deadline_ms;
    bool capped;
} waiter_t;

struct session {
    bool used;
    char id[33];
    ring_t ring;
    stream_t streams[SESSION_STREAMS_MAX];
    int n_streams;
    waiter_t waiters[WAITERS_MAX];
    int n_waiters;
    /* the engine */
    eproc_t eng;
    bool running;             /* a process there, not yet reaped */
    bool out_open, out_paused; /* its output: read (unless paused: the ring is full) */
    int64_t out_closed_ms;
    bool restart_asked, closed_output;
    session_io_t out_io, in_io;
    char *line; /* what it wrote, not yet lines: line[line_off, line_len) */
    size_t line_off, line_len, line_cap;
    /* its input: in[in_off, in_len) are the bytes from `written` on */
    char *in;
    size_t in_off, in_len, in_cap;
    unsigned long long written, queued;
    bool writing_watched, stalled, broken, in_closed;
    /* searching */
    long threads;            /* its Threads (1) */
    long counted;            /* threads counted for its search, while it searches */
    bool searching, search_waiting;
    unsigned long long hold_at; /* while waiting: input from here on is held */
    /* life */
    bool closing, down;
    int64_t last_active_ms, alone_since_ms;
    int64_t restart_times[RESTARTS_PER_MINUTE];
};

static struct sessions {
    sessions_config_t cfg;
    session_t *s[SESSIONS_LIMIT];
    size_t ring_max;
    long search_threads; /* counted for every search running */
    session_t *waiting[SESSIONS_LIMIT]; /* searches waiting, in order */
    int n_waiting;
    bool stopping;
    char scratch[FRAME_SCRATCH];
} P;

static void pump(stream_t *st);
static void engine_check(session_t *s, int64_t now);
static void write_input(session_t *s);

/* ---- the ring and its streams ---- */

/* Entries before this may go: every open stream is past them (or, with
 * none open, a page has been sent them). */
static ring_pos_t floor_of(const session_t *s)
{
    ring_pos_t f = s->ring.sent;
    bool any = false;
    for (int i = 0; i < SESSION_STREAMS_MAX; i++) {
        const stream_t *st = &s->streams[i];
        if (st->conn && (!any || st->pos.seq < f.seq)) {
            f = st->pos;
            any = true;
        }
    }
    return f;
}

static bool take_lines(session_t *s);

/* Sends the streams what they have not been sent, as far as their sockets
 * take it; the room that makes in the ring goes to a paused engine's
 * lines, and its output is read again once they are all in. */
static void pump_all(session_t *s)
{
    for (int round = 0; round < 64; round++) {
        for (int i = 0; i < SESSION_STREAMS_MAX; i++)
            if (s->streams[i].conn && !s->streams[i].blocked)
                pump(&s->streams[i]);
        ring_reclaim(&s->ring, floor_of(s));
        if (!s->out_paused || !s->out_open || s->closing)
            return;
        size_t waiting = s->line_len - s->line_off;
        if (!take_lines(s)) {
            if (s->line_len - s->line_off == waiting)
                return; /* no room yet: the streams' sockets are full, or nobody reads */
            continue;   /* some went in: send them, then the rest */
        }
        s->out_paused = false;
        evloop_watch(P.cfg.loop, s->eng.from_fd, EVLOOP_IN, &s->out_io);
        if (eproc_exited(&s->eng)) /* its leader ended meanwhile: what it left is read now */
            engine_check(s, timeman_now_ms());
    }
}

/* The streams took entries, or one went: room may be back. */
static void room_made(session_t *s) { pump_all(s); }

/* Appends an entry; false when it does not fit (never for the server's
 * own, `force`). Its callers pump the streams once a batch is in. */
static bool push(session_t *s, int kind, const char *data, size_t len, bool force)
{
    return ring_push(&s->ring, kind, data, len, floor_of(s), force);
}

/* An `engine` event: {"state": ..., "detail": ...}, the detail escaped
 * (it may hold the --engine command). */
static void push_state(session_t *s, const char *state, const char *detail)
{
    json_t j;
    json_init(&j);
    json_object(&j);
    json_kstring(&j, "state", state);
    json_kstring(&j, "detail", detail);
    json_end(&j);
    if (!j.failed)
        push(s, RING_EVENT, j.buf, j.len, true);
    json_free(&j);
    pump_all(s);
}

static void push_note(session_t *s, const char *line)
{
    push(s, RING_LINE, line, strlen(line), true);
    pump_all(s);
}

static void stream_gone(void *ctx)
{
    stream_t *st = ctx;
    session_t *s = st->s;
    st->conn = NULL;
    if (--s->n_streams == 0)
        s->alone_since_ms = timeman_now_ms();
    room_made(s);
}

static void stream_writable(void *ctx)
{
    stream_t *st = ctx;
    session_t *s = st->s;
    st->blocked = false;
    pump(st);
    room_made(s);
}

static const conn_stream_ops_t stream_ops = {stream_writable, stream_gone};

/* The frame of entry e: its head in head[], the data, then "\n\n". */
static size_t frame_head(const ring_entry_t *e, char *head, size_t cap)
{
    return http_sse_head(head, cap, e->seq, e->kind == RING_EVENT ? "engine" : NULL);
}

/* Sends what the stream has not been sent, as much as its socket takes;
 * ends it once the session is closed and everything went. (The room this
 * makes in the ring is its callers' to use: a push pumps.) */
static void pump(stream_t *st)
{
    session_t *s = st->s;
    for (;;) {
        /* Frames into the scratch, from where the stream is... */
        ring_pos_t p = st->pos;
        size_t off = st->frame_off, used = 0;
        ring_entry_t e;
        char head[64];
        while (used < FRAME_SCRATCH && ring_get(&s->ring, &p, &e)) {
            size_t h = frame_head(&e, head, sizeof head), total = h + e.len + 2;
            const char *parts[3] = {head, e.data, "\n\n"};
            size_t lens[3] = {h, e.len, 2}, at = 0;
            for (int k = 0; k < 3 && used < FRAME_SCRATCH; k++) {
                if (off < at + lens[k]) {
                    size_t from = off - at, n = lens[k] - from;
                    if (n > FRAME_SCRATCH - used)
                        n = FRAME_SCRATCH - used;
                    memcpy(P.scratch + used, parts[k] + from, n);
                    used += n;
                    off += n;
                }
                at += lens[k];
            }
            if (off < total)
                break; /* the scratch is full mid-frame */
            p.seq++;
            p.off += RING_ENTRY_OVERHEAD + e.len;
            off = 0;
        }
        if (used == 0)
            break;
        /* ... sent, and the stream moved past what went. */
        ssize_t w = conn_stream_write(st->conn, P.scratch, used);
        if (w < 0)
            return;
        st->last_ms = timeman_now_ms();
        for (size_t left = (size_t)w; left > 0;) {
            ring_get(&s->ring, &st->pos, &e);
            size_t total = frame_head(&e, head, sizeof head) + e.len + 2, take = total - st->frame_off;
            if (take > left)
                take = left;
            st->frame_off += take;
            left -= take;
            if (st->frame_off == total) {
                ring_advance(&s->ring, &st->pos, &e);
                st->frame_off = 0;
            }
        }
        if ((size_t)w < used) {
            st->blocked = true;
            break;
        }
    }
    if (s->closing && st->pos.seq >= s->ring.next && !st->blocked) {
        conn_t *c = st->conn;
        st->conn = NULL;
        if (--s->n_streams == 0)
            s->alone_since_ms = timeman_now_ms();
        conn_stream_end(c);
    }
}

/* ---- the engine's output ---- */

/* A search has ended (its bestmove, or its engine): its threads are free
 * for the searches waiting, which start in order while they fit. */
static void search_start(session_t *s)
{
    s->searching = true;
    s->counted = s->threads;
    P.search_threads += s->counted;
}

static bool search_fits(long threads)
{
    return P.search_threads == 0 || P.search_threads + threads <= P.cfg.max_search_threads;
}

static void unqueue(session_t *s)
{
    for (int i = 0; i < P.n_waiting; i++)
        if (P.waiting[i] == s) {
            memmove(P.waiting + i, P.waiting + i + 1, sizeof P.waiting[0] * (size_t)(P.n_waiting - i - 1));
            P.n_waiting--;
            break;
        }
    s->search_waiting = false;
}

static void search_end(session_t *s)
{
    if (s->searching) {
        s->searching = false;
        P.search_threads -= s->counted;
        s->counted = 0;
    }
    while (P.n_waiting > 0 && search_fits(P.waiting[0]->threads)) {
        session_t *next = P.waiting[0];
        unqueue(next);
        search_start(next);
        write_input(next); /* its held lines go to its engine now */
    }
}

/* One line the engine wrote (or a piece of a long one); false when the
 * ring is full. */
static bool take_line(session_t *s, char *line, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (line[i] == '\r') /* a line break in an event's data would end it early */
            line[i] = ' ';
    if (!push(s, RING_LINE, line, len, false))
        return false;
    if (len >= 8 && memcmp(line, "bestmove", 8) == 0 && (len == 8 || line[8] == ' '))
        search_end(s);
    return true;
}

/* The whole lines in the buffer into the ring, while they fit; false when
 * one did not (reading stops). */
static bool take_lines(session_t *s)
{
    bool fits = true;
    while (s->line_off < s->line_len) {
        char *at = s->line + s->line_off;
        size_t have = s->line_len - s->line_off;
        char *nl = memchr(at, '\n', have);
        if (!nl && have < SESSION_LINE_MAX)
            break;
        size_t n = nl ? (size_t)(nl - at) : SESSION_LINE_MAX, len = n;
        if (len && at[len - 1] == '\r')
            len--;
        if (!take_line(s, at, len)) {
            fits = false;
            break;
        }
        s->line_off += n + (nl != NULL);
    }
    if (s->line_off == s->line_len)
        s->line_off = s->line_len = 0;
    return fits;
}

/* Reads what the engine wrote (one read: the other descriptors' turn comes). */
static void read_output(session_t *s)
{
    if (!s->out_open || s->out_paused || s->closing)
        return;
    if (s->line_len == s->line_cap) {
        if (s->line_off > 0) {
            memmove(s->line, s->line + s->line_off, s->line_len - s->line_off);
            s->line_len -= s->line_off;
            s->line_off = 0;
        } else {
            size_t cap = s->line_cap ? s->line_cap * 2 : LINE_BUF_MIN;
            char *grown = cap <= SESSION_LINE_MAX ? realloc(s->line, cap) : NULL;
            if (!grown)
                return;
            s->line = grown;
            s->line_cap = cap;
        }
    }
    ssize_t n = read(s->eng.from_fd, s->line + s->line_len, s->line_cap - s->line_len);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return;
    if (n <= 0) { /* its output closed */
        evloop_forget(P.cfg.loop, s->eng.from_fd);
        s->out_open = false;
        s->out_closed_ms = timeman_now_ms();
        engine_check(s, s->out_closed_ms);
        return;
    }
    s->line_len += (size_t)n;
    if (!take_lines(s)) {
        s->out_paused = true; /* the engine blocks on its pipe until the page takes some */
        evloop_watch(P.cfg.loop, s->eng.from_fd, 0, &s->out_io);
    }
    pump_all(s);
}

static void output_ready(serve_io_t *io, unsigned events)
{
    (void)events;
    read_output(((session_io_t *)io)->s);
}

/* ---- the engine's input ---- */

/* Answers a waiting command and frees its slot. */
static void waiter_answer(waiter_t *w, int status, const char *message)
{
    conn_t *c = w->conn;
    w->conn = NULL;
    w->s->n_waiters--;
    if (status == 202)
        conn_json(c, 202, w->capped ? "{\"ok\":true,\"capped\":true}" : "{\"ok\":true}");
    else
        conn_error(c, status, message);
}

static void waiters_fail(session_t *s, int status, const char *message)
{
    for (int i = 0; i < WAITERS_MAX; i++)
        if (s->waiters[i].conn)
            waiter_answer(&s->waiters[i], status, message);
}

/* Drops the input from `at` on (not yet written), and every command
 * whose line was there with 503; a search held there waits no more. */
static void drop_input(session_t *s, unsigned long long at)
{
    if (at < s->written)
        at = s->written;
    s->in_len = s->in_off + (size_t)(at - s->written);
    s->queued = at;
    for (int i = 0; i < WAITERS_MAX; i++)
        if (s->waiters[i].conn && s->waiters[i].to > at)
            waiter_answer(&s->waiters[i], 503, "the engine is not reading its input (it may be hung): restart it");
    if (s->search_waiting && s->hold_at >= at)
        unqueue(s);
}

static void free_input(session_t *s)
{
    if (s->in)
        conns_budget_give(s->in_cap);
    free(s->in);
    s->in = NULL;
    s->in_off = s->in_len = s->in_cap = 0;
}

/* Writes what may go (up to a held search's line) as the pipe takes it. */
static void write_input(session_t *s)
{
    unsigned long long limit = s->search_waiting ? s->hold_at : s->queued;
    while (s->running && !s->in_closed && s->written < limit) {
        ssize_t w = write(s->eng.to_fd, s->in + s->in_off, (size_t)(limit - s->written));
        if (w > 0) {
            s->in_off += (size_t)w;
            s->written += (size_t)w;
            s->stalled = false;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        s->in_closed = true; /* EPIPE: its input is closed */
    }
    for (int i = 0; i < WAITERS_MAX; i++)
        if (s->waiters[i].conn && s->waiters[i].to <= s->written)
            waiter_answer(&s->waiters[i], 202, NULL);
    if (s->in_closed) {
        waiters_fail(s, 409, "the engine is not running (it may be restarting)");
        drop_input(s, s->written);
    }
    bool more = s->running && !s->in_closed && s->written < limit;
    if (more != s->writing_watched) {
        s->writing_watched = more;
        evloop_watch(P.cfg.loop, s->eng.to_fd, more ? EVLOOP_OUT : 0, &s->in_io);
    }
    if (s->in_off == s->in_len) {
        s->in_off = s->in_len = 0;
        if (s->in_cap > 4096)
            free_input(s);
    }
}

static void input_ready(serve_io_t *io, unsigned events)
{
    (void)events;
    write_input(((session_io_t *)io)->s);
}

/* Appends a line for the engine; false when too much waits already. */
static bool append_input(session_t *s, const char *line, size_t len)
{
    size_t need = len + 1;
    if (s->in_len - s->in_off + need > INPUT_MAX)
        return false;
    if (s->in_len + need > s->in_cap && s->in_off > 0) {
        memmove(s->in, s->in + s->in_off, s->in_len - s->in_off);
        s->in_len -= s->in_off;
        s->in_off = 0;
    }
    if (s->in_len + need > s->in_cap) {
        size_t cap = s->in_cap ? s->in_cap * 2 : 1024;
        while (cap < s->in_len + need)
            cap *= 2;
        if (!conns_budget_take(cap - s->in_cap))
            return false;
        char *grown = realloc(s->in, cap);
        if (!grown) {
            conns_budget_give(cap - s->in_cap);
            return false;
        }
        s->in = grown;
        s->in_cap = cap;
    }
    memcpy(s->in + s->in_len, line, len);
    s->in[s->in_len + len] = '\n';
    s->in_len += need;
    s->queued += need;
    return true;
}

static void waiter_gone(void *ctx)
{
    waiter_t *w = ctx;
    w->conn = NULL;
    w->s->n_waiters--;
}

/* A command's wait is over: the engine did not take its line. */
static void command_timed_out(session_t *s, waiter_t *w)
{
    if (s->written > w->from) { /* part of its line went in: nothing more may follow */
        s->broken = true;
        drop_input(s, s->written);
    } else {
        drop_input(s, w->from); /* it, and every line after it, were never begun */
    }
    s->stalled = true;
    if (w->conn)
        waiter_answer(w, 503, "the engine is not reading its input (it may be hung): restart it");
}

/* ---- the engine's life ---- */

static void end_detail(char *out, size_t cap, bool asked, bool closed_output, int status)
{
    if (asked)
        snprintf(out, cap, "restarted on request");
    else if (closed_output)
        snprintf(out, cap, "the engine closed its output and did not exit: it was ended");
    else if (WIFSIGNALED(status))
        snprintf(out, cap, "the engine died of signal %d", WTERMSIG(status));
    else
        snprintf(out, cap, "the engine exited with status %d", WEXITSTATUS(status));
}

/* Starts the engine (in its own process group, dying with the server). */
static bool spawn(session_t *s)
{
    eproc_spec_t spec = {.cmd = P.cfg.engine,
                         .path = P.cfg.engine_path,
                         .die_with_parent = true,
                         .caller_reads = true,
                         .nice = ENGINE_NICE};
    if (!eproc_spawn(&s->eng, &spec))
        return false;
    fcntl(s->eng.from_fd, F_SETFL, fcntl(s->eng.from_fd, F_GETFL) | O_NONBLOCK); /* ours only */
    s->running = s->out_open = true;
    s->out_paused = s->restart_asked = s->closed_output = false;
    s->in_closed = s->stalled = s->broken = s->writing_watched = false;
    s->written = s->queued = 0;
    s->in_off = s->in_len = 0;
    s->line_off = s->line_len = 0;
    s->threads = 1;
    if (!evloop_watch(P.cfg.loop, s->eng.from_fd, EVLOOP_IN, &s->out_io)) {
        eproc_kill_group(&s->eng);
        s->out_open = false; /* (reaped as any ended engine) */
    }
    return true;
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

/* The engine has exited: reaped, reported, and started again unless the
 * session is closing (or it crashes too often). */
static void reaped(session_t *s)
{
    evloop_forget(P.cfg.loop, s->eng.from_fd);
    evloop_forget(P.cfg.loop, s->eng.to_fd);
    int status = 0;
    eproc_end_now(&s->eng, &status);
    s->running = s->out_open = s->out_paused = false;
    waiters_fail(s, 409, "the engine is not running (it may be restarting)");
    drop_input(s, s->written);
    free_input(s);
    free(s->line);
    s->line = NULL;
    s->line_cap = s->line_off = s->line_len = 0;
    if (s->search_waiting)
        unqueue(s);
    search_end(s);
    bool asked = s->restart_asked;
    s->restart_asked = false;
    if (s->closing || P.stopping)
        return;
    char detail[96];
    end_detail(detail, sizeof detail, asked, s->closed_output, status);
    push_state(s, asked ? "stopped" : "crashed", detail);
    if (!restart_allowed(s) || !spawn(s)) {
        s->down = true;
        push_state(s, "down", "the engine could not be started again");
        return;
    }
    push_state(s, "restarted", "a new engine is running: send the game again");
}

/* Has the engine ended? Its output read to the end (what it said before
 * exiting reaches the page), stragglers of its group killed, reaped. An
 * engine that closes its output and stays has EXIT_GRACE_MS to exit. */
static void engine_check(session_t *s, int64_t now)
{
    if (!s->running)
        return;
    bool exited = eproc_exited(&s->eng);
    if (s->out_open && !s->closing) {
        if (!exited || s->out_paused)
            return; /* running, or its last lines wait for the page to take the ones before */
        for (int i = 0; i < 16 && s->out_open && !s->out_paused; i++)
            read_output(s); /* (read_output reaps it when its output closes) */
        if (!s->running || s->out_paused)
            return;
        /* Something of its group still holds the pipe: it goes with the rest. */
        eproc_kill_group(&s->eng);
        reaped(s);
        return;
    }
    if (exited) {
        reaped(s);
        return;
    }
    if (s->closing || now - s->out_closed_ms < EXIT_GRACE_MS)
        return;
    if (!s->restart_asked)
        s->closed_output = true;
    eproc_kill_group(&s->eng); /* its exit comes with SIGCHLD */
}

void sessions_child_exited(void)
{
    int64_t now = timeman_now_ms();
    for (int i = 0; i < P.cfg.max_sessions; i++)
        if (P.s[i]->used)
            engine_check(P.s[i], now);
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
    int n = 0;
    for (int i = 0; i < P.cfg.max_sessions; i++)
        n += P.s[i]->used;
    return n;
}

long sessions_searching_threads(void) { return P.search_threads; }
int sessions_waiting_searches(void) { return P.n_waiting; }

static void free_if_done(session_t *s);

static session_t *unused_slot(void)
{
    for (int i = 0; i < P.cfg.max_sessions; i++)
        if (!P.s[i]->used)
            return P.s[i];
    return NULL;
}

/* A free slot, or NULL. When every one is taken, the closed sessions
 * whose engines have exited give theirs now rather than at the next tick:
 * a client that saw an engine end must find its slot free. */
static session_t *free_slot(void)
{
    session_t *s = unused_slot();
    if (s)
        return s;
    int64_t now = timeman_now_ms();
    for (int i = 0; i < P.cfg.max_sessions; i++)
        if (P.s[i]->closing) {
            engine_check(P.s[i], now);
            free_if_done(P.s[i]);
        }
    return unused_slot();
}

session_t *session_open(const char **why)
{
    char id[33];
    if (P.stopping) {
        *why = "the server is stopping";
        return NULL;
    }
    session_t *s = free_slot();
    if (!s) {
        *why = "every engine is taken (--max-sessions): close another tab or try later";
        return NULL;
    }
    if (!random_id(id)) {
        *why = "no random session id could be made (getrandom failed)";
        return NULL;
    }
    memcpy(s->id, id, sizeof id);
    ring_init(&s->ring, P.ring_max, RING_HISTORY);
    memset(s->streams, 0, sizeof s->streams);
    memset(s->waiters, 0, sizeof s->waiters);
    s->n_streams = s->n_waiters = 0;
    s->closing = s->down = s->searching = s->search_waiting = false;
    s->counted = 0;
    s->last_active_ms = s->alone_since_ms = timeman_now_ms();
    memset(s->restart_times, 0, sizeof s->restart_times);
    if (!spawn(s)) {
        ring_clear(&s->ring);
        *why = "the engine could not be started";
        return NULL;
    }
    s->used = true;
    push_state(s, "started", P.cfg.engine ? P.cfg.engine : "denham");
    return s;
}

session_t *session_find(const char *id)
{
    if (strlen(id) != 32)
        return NULL;
    for (int i = 0; i < P.cfg.max_sessions; i++)
        if (P.s[i]->used && strcmp(P.s[i]->id, id) == 0)
            return P.s[i];
    return NULL;
}

const char *session_id(const session_t *s) { return s->id; }
bool session_closing(const session_t *s) { return s->closing; }

void session_close(session_t *s, const char *why)
{
    if (s->closing)
        return;
    s->closing = true;
    push_state(s, "closed", why);
    waiters_fail(s, 404, "no such session: it was closed (idle, or its page went away)");
    drop_input(s, s->written);
    if (s->search_waiting)
        unqueue(s);
    search_end(s);
    if (s->running) {
        if (s->out_open) /* no more of what it says: it is ending */
            evloop_forget(P.cfg.loop, s->eng.from_fd);
        eproc_kill_group(&s->eng);
    }
    pump_all(s); /* streams end once they sent "closed" */
}

bool session_restart(session_t *s)
{
    s->last_active_ms = timeman_now_ms();
    if (s->down)
        return false;
    if (s->running) {
        s->restart_asked = true;
        eproc_kill_group(&s->eng);
    }
    return true;
}

void session_command(session_t *s, conn_t *c, const char *line, size_t len, const char *note)
{
    s->last_active_ms = timeman_now_ms();
    if (!s->running || s->in_closed)
        return conn_error(c, 409, "the engine is not running (it may be restarting)");
    if (s->broken)
        return conn_error(c, 503, "the engine is not reading its input (it may be hung): restart it");
    if (s->n_waiters == WAITERS_MAX)
        return conn_error(c, 503, "too many commands are waiting for this engine to read them");
    if (note)
        push_note(s, note);
    long threads = http_command_threads(line, len);
    int kind = http_command_kind(line, len);
    unsigned long long from = s->queued;
    if (!append_input(s, line, len))
        return conn_error(c, 503, "too many commands are waiting for this engine to read them");
    if (threads > 0)
        s->threads = threads;
    if (kind == HTTP_COMMAND_GO && !s->searching && !s->search_waiting) {
        if (search_fits(s->threads)) {
            search_start(s);
        } else {
            char text[200];
            snprintf(text, sizeof text,
                     "info string denham serve: every core is searching (%ld of %ld threads, --max-search-threads): "
                     "this search starts when one ends (%d waiting before it)",
                     P.search_threads, P.cfg.max_search_threads, P.n_waiting);
            push_note(s, text);
            s->search_waiting = true;
            s->hold_at = from;
            P.waiting[P.n_waiting++] = s;
        }
    } else if ((kind == HTTP_COMMAND_STOP || kind == HTTP_COMMAND_QUIT) && s->search_waiting) {
        unqueue(s); /* released: it starts, and stops at once */
        search_start(s);
    }
    if (s->search_waiting) { /* held behind its search: the engine reads it when the search starts */
        write_input(s);
        return conn_json(c, 202, note ? "{\"ok\":true,\"capped\":true,\"queued\":true}" : "{\"ok\":true,\"queued\":true}");
    }
    write_input(s);
    if (s->written >= s->queued && !s->in_closed)
        return conn_json(c, 202, note ? "{\"ok\":true,\"capped\":true}" : "{\"ok\":true}");
    if (!s->running || s->in_closed)
        return conn_error(c, 409, "the engine is not running (it may be restarting)");
    waiter_t *w = NULL;
    for (int i = 0; i < WAITERS_MAX && !w; i++)
        if (!s->waiters[i].conn)
            w = &s->waiters[i];
    *w = (waiter_t){c, s, from, s->queued, timeman_now_ms() + ENGINE_WRITE_MS, note != NULL};
    s->n_waiters++;
    conn_hold(c, waiter_gone, w);
    if (s->stalled) /* it did not read before: try, but wait no more */
        command_timed_out(s, w);
}

void session_stream(session_t *s, conn_t *c, unsigned long long last_seen)
{
    stream_t *st = NULL;
    for (int i = 0; i < SESSION_STREAMS_MAX && !st; i++)
        if (!s->streams[i].conn)
            st = &s->streams[i];
    if (!st)
        return conn_error(c, 429, "too many event streams on this session: close other tabs of it");
    *st = (stream_t){.s = s, .pos = ring_seek(&s->ring, last_seen + 1), .last_ms = timeman_now_ms()};
    if (!conn_stream_begin(c, &stream_ops, st))
        return;
    st->conn = c;
    s->n_streams++;
    pump(st);
    room_made(s);
}

/* A closed session's slot is free once its engine is reaped and nobody
 * reads or waits on it. */
static void free_if_done(session_t *s)
{
    if (!s->closing || s->running || s->n_streams || s->n_waiters)
        return;
    ring_clear(&s->ring);
    free_input(s);
    free(s->line);
    s->line = NULL;
    s->line_cap = 0;
    s->used = false;
}

void sessions_tick(int64_t now)
{
    for (int i = 0; i < P.cfg.max_sessions; i++) {
        session_t *s = P.s[i];
        if (!s->used)
            continue;
        if (s->running && !s->out_open) /* (an exit comes with SIGCHLD: only the grace after a closed output is timed) */
            engine_check(s, now);
        for (int k = 0; k < WAITERS_MAX; k++)
            if (s->waiters[k].conn && now >= s->waiters[k].deadline_ms)
                command_timed_out(s, &s->waiters[k]);
        if (!s->closing && s->n_streams == 0 && now - s->alone_since_ms > ALONE_GRACE_MS)
            session_close(s, "the page went away");
        else if (!s->closing && now - s->last_active_ms > P.cfg.idle_ms)
            session_close(s, "idle for too long");
        for (int k = 0; k < SESSION_STREAMS_MAX; k++) {
            stream_t *st = &s->streams[k];
            if (st->conn && !st->blocked && !st->frame_off && now - st->last_ms >= HEARTBEAT_MS) {
                conn_stream_beat(st->conn);
                st->last_ms = now;
            }
        }
        free_if_done(s);
    }
}

/* ---- start and stop ---- */

bool sessions_start(const sessions_config_t *cfg)
{
    P.cfg = *cfg;
    size_t share = RINGS_BUDGET / (size_t)cfg->max_sessions;
    P.ring_max = share < SESSION_LINE_MAX + 8192 ? SESSION_LINE_MAX + 8192 : share > (256 << 10) ? 256 << 10 : share;
    for (int i = 0; i < cfg->max_sessions; i++) {
        session_t *s = P.s[i] = calloc(1, sizeof *P.s[i]);
        if (!s)
            return false;
        eproc_init(&s->eng);
        s->out_io = (session_io_t){{output_ready}, s};
        s->in_io = (session_io_t){{input_ready}, s};
    }
    return true;
}

void sessions_stop(void)
{
    P.stopping = true;
    for (int i = 0; i < P.cfg.max_sessions; i++)
        if (P.s[i] && P.s[i]->used)
            session_close(P.s[i], "the server is stopping");
    /* Every engine killed as a group, then reaped (a killed process ends
     * at once, stopped or not). */
    int64_t until = timeman_now_ms() + STOP_WAIT_MS;
    for (bool left = true; left && timeman_now_ms() < until;) {
        left = false;
        for (int i = 0; i < P.cfg.max_sessions; i++) {
            session_t *s = P.s[i];
            if (!s || !s->running)
                continue;
            if (eproc_exited(&s->eng))
                reaped(s);
            else {
                eproc_kill_group(&s->eng);
                left = true;
            }
        }
        if (left) {
            struct timespec nap = {0, 5 * 1000 * 1000};
            nanosleep(&nap, NULL);
        }
    }
}
