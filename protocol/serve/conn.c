/*
 * conn.c: see conn.h. A connection is in one state at a time:
 *   ARRIVING  its request is being read (kept in accept order: the oldest
 *             is the one evicted when the door or the budget is full);
 *   HELD      whole, its answer coming from other work;
 *   SENDING   an answer going out (a head, then a body: copied, static or
 *             shared);
 *   STREAM    an event stream, written by its owner as the socket takes it;
 *   DRAINING  answered: what the client still sends is read and dropped for
 *             a while, so that the close does not reset the answer (kept in
 *             order too: the first to go when connections run out);
 *   ENDED     closed, freed at the end of the loop's turn.
 * Buffers are made only for requests that do not arrive whole at once
 * (one shared read buffer serves the rest), grow with what arrives, and
 * count against CONN_BUDGET.
 *
 * May not reach into the engine, a session or any game: serve.c routes,
 * the owners of held and streamed connections answer.
 */
#define _GNU_SOURCE /* accept4 */
#include "conn.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../engine/core/timeman.h"

#define SCRATCH_BYTES (32 * 1024) /* one read of a request that may arrive whole */
#define PEEK_BYTES 4096           /* looked at, once a turn's reading is spent: a prompt request is whole in it */
#define READ_PER_TURN (32 * 1024) /* one connection's bytes read (or drained) per event: the others' turn comes */
#define ACCEPT_TURN_US 3000 /* accepting (and reading what came at once) this long a turn, then the others' turn */
#define HEAD_CAP 640               /* an answer's head */
#define BIG_CAP (HTTP_HEAD_MAX + HTTP_BODY_MAX) /* a request with a body past its head's buffer: its most */
#define POOL_MAX (CONN_BUDGET / BIG_CAP + 1) /* big buffers kept for reuse, ... */
#define POOL_IDLE_MS 2000                     /* ... until none was wanted for this long */

typedef enum { ARRIVING, HELD, SENDING, STREAM, DRAINING, ENDED } state_t;

struct conn {
    serve_io_t io; /* first: the loop's tag */
    int fd;
    state_t state;
    bool head_only; /* HEAD: the answer's length, no body */
    int64_t since_ms;    /* accepted (ARRIVING), held, or draining since */
    int64_t progress_ms; /* the last time the client took or sent bytes */
    unsigned char peer[16]; /* its address (IPv4 mapped into 16 bytes) */
    /* ARRIVING */
    char *in;
    size_t len, cap, need; /* need: head and body, once the head is read (0 before) */
    /* SENDING: head[0..head_len) then body */
    char *head;
    size_t head_len, head_off;
    const char *body;
    size_t body_len, body_off;
    char *owned;     /* the body, freed after */
    shared_t *shared; /* or the shared body, released after */
    size_t drained, drain_max; /* read after the answer; and the most that will be */
    /* HELD and STREAM: the owner */
    const conn_stream_ops_t *ops;
    void (*held_gone)(void *ctx);
    void *ctx;
    bool owner_holds; /* HELD by conn_hold (not only while routed) */
    size_t beat_left; /* a stream's heartbeat bytes still to send, before any data */
    bool blocked; /* a stream's write was short: waiting for the socket */
    bool gone_due; /* the stream's client went: gone() at the next collect */
    conn_t *gone_next;
    /* lists */
    conn_t *prev, *next;   /* every connection */
    conn_t *qprev, *qnext; /* the arriving, or the draining, in order */
};

typedef struct queue {
    conn_t *first, *last;
    int n;
} queue_t;

static struct conns {
    conns_config_t cfg;
    serve_io_t listen_io;
    conn_t *all;
    int n_open, max_open;
    queue_t arriving, draining;
    conn_t *ended; /* to free (linked by next) */
    conn_t *gone; /* streams whose write failed, their owners to be told (linked by gone_next) */
    char *pool[POOL_MAX]; /* big buffers free: hoarders given way and coming back cost no mapping */
    int pool_n;
    int64_t pool_wanted_ms;
    size_t buffered;
    size_t turn_read; /* bytes read this turn of requests begun before, and of drains */
    char scratch[SCRATCH_BYTES + 1];
} C;

/* ---- shared bodies ---- */

shared_t *shared_new(size_t len)
{
    shared_t *s = malloc(sizeof *s + len + 1);
    if (s) {
        atomic_init(&s->refs, 1);
        s->len = len;
    }
    return s;
}

shared_t *shared_ref(shared_t *s)
{
    atomic_fetch_add(&s->refs, 1);
    return s;
}

void shared_unref(shared_t *s)
{
    if (s && atomic_fetch_sub(&s->refs, 1) == 1)
        free(s);
}

/* ---- lists and the budget ---- */

static void enqueue(queue_t *q, conn_t *c)
{
    c->qnext = NULL;
    c->qprev = q->last;
    if (q->last)
        q->last->qnext = c;
    else
        q->first = c;
    q->last = c;
    q->n++;
}

static void dequeue(queue_t *q, conn_t *c)
{
    if (c->qprev)
        c->qprev->qnext = c->qnext;
    else
        q->first = c->qnext;
    if (c->qnext)
        c->qnext->qprev = c->qprev;
    else
        q->last = c->qprev;
    c->qprev = c->qnext = NULL;
    q->n--;
}

static queue_t *queue_of(conn_t *c) { return c->state == ARRIVING ? &C.arriving : c->state == DRAINING ? &C.draining : NULL; }

static void set_state(conn_t *c, state_t s)
{
    queue_t *q = queue_of(c);
    if (q)
        dequeue(q, c);
    c->state = s;
    c->since_ms = timeman_now_ms();
    if ((q = queue_of(c)))
        enqueue(q, c);
}

int conns_open(void) { return C.n_open; }
int conns_arriving(void) { return C.arriving.n; }
size_t conns_buffered(void) { return C.buffered; }

void conns_budget_give(size_t bytes) { C.buffered -= bytes; }

static void refuse(conn_t *c, int status, const char *message);
static void evict(conn_t *c, const char *message);

bool conns_budget_take(size_t bytes)
{
    /* The oldest requests still arriving give way, whatever their age: no
     * number of hoarders keeps the budget, and a prompt request, read
     * whole at once, is never the oldest for long. */
    for (conn_t *c = C.arriving.first, *next; c && C.buffered + bytes > CONN_BUDGET; c = next) {
        next = c->qnext;
        if (c->in)
            evict(c, "the server is busy (its memory for requests is full): try again");
    }
    if (C.buffered + bytes > CONN_BUDGET)
        return false;
    C.buffered += bytes;
    return true;
}

/* ---- ending ---- */

/* A request's buffer: a big one goes back to the pool. */
static void free_buffer(char *buf, size_t cap)
{
    if (!buf)
        return;
    conns_budget_give(cap);
    if (cap == BIG_CAP && C.pool_n < POOL_MAX)
        C.pool[C.pool_n++] = buf;
    else
        free(buf);
}

static void free_input(conn_t *c)
{
    free_buffer(c->in, c->cap);
    c->in = NULL;
    c->len = c->cap = c->need = 0;
}

static void free_answer(conn_t *c)
{
    if (c->head)
        conns_budget_give(HEAD_CAP);
    free(c->head);
    c->head = NULL;
    free(c->owned);
    c->owned = NULL;
    shared_unref(c->shared);
    c->shared = NULL;
    c->body = NULL;
}

/* Closes it now; its memory goes at the next conns_collect. */
static void end(conn_t *c)
{
    if (c->state == ENDED)
        return;
    evloop_forget(C.cfg.loop, c->fd);
    close(c->fd);
    c->fd = -1;
    free_input(c);
    free_answer(c);
    set_state(c, ENDED);
    if (c->prev)
        c->prev->next = c->next;
    else
        C.all = c->next;
    if (c->next)
        c->next->prev = c->prev;
    c->next = C.ended;
    C.ended = c;
    C.n_open--;
}

/* Ends it, telling its owner. */
static void end_owned(conn_t *c)
{
    void *ctx = c->ctx;
    void (*gone)(void *) = c->state == STREAM && c->ops ? c->ops->gone : c->state == HELD ? c->held_gone : NULL;
    c->ops = NULL;
    c->held_gone = NULL;
    end(c);
    if (gone)
        gone(ctx);
}

void conns_collect(void)
{
    C.turn_read = 0;
    while (C.gone) { /* streams whose write failed: their owners are told from here */
        conn_t *c = C.gone;
        C.gone = c->gone_next;
        if (c->state == STREAM)
            end_owned(c);
    }
    while (C.ended) {
        conn_t *c = C.ended;
        C.ended = c->next;
        free(c);
    }
}

/* Answered: no more from us; what the client still sends is read and
 * dropped for a while, then the close. */
static void drain(conn_t *c)
{
    free_input(c);
    free_answer(c);
    shutdown(c->fd, SHUT_WR);
    c->drained = 0;
    if (!c->drain_max)
        c->drain_max = CONN_LINGER_BYTES;
    set_state(c, DRAINING);
    if (!evloop_watch(C.cfg.loop, c->fd, EVLOOP_IN, c))
        end(c);
}

/* ---- answering ---- */

static void send_some(conn_t *c)
{
    while (c->state == SENDING) {
        struct iovec iov[2];
        int n = 0;
        if (c->head_off < c->head_len)
            iov[n++] = (struct iovec){c->head + c->head_off, c->head_len - c->head_off};
        if (c->body_off < c->body_len)
            iov[n++] = (struct iovec){(char *)c->body + c->body_off, c->body_len - c->body_off};
        if (n == 0) {
            drain(c);
            return;
        }
        struct msghdr m = {.msg_iov = iov, .msg_iovlen = (size_t)n};
        ssize_t w = sendmsg(c->fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (!evloop_watch(C.cfg.loop, c->fd, EVLOOP_OUT, c))
                end(c);
            return;
        }
        if (w <= 0) { /* the client went */
            end(c);
            return;
        }
        c->progress_ms = timeman_now_ms();
        size_t done = (size_t)w, h = c->head_len - c->head_off;
        size_t from_head = done < h ? done : h;
        c->head_off += from_head;
        c->body_off += done - from_head;
    }
}

static void answer(conn_t *c, int status, const char *type, const char *body, size_t len)
{
    free_input(c);
    if (!c->head) {
        c->head = malloc(HEAD_CAP);
        if (!c->head) {
            end(c);
            return;
        }
        C.buffered += HEAD_CAP; /* (over the budget by a head at most: an answer must go) */
    }
    c->head_len = http_response_head(c->head, HEAD_CAP, status, type, len);
    c->head_off = 0;
    c->body = body;
    c->body_len = c->head_only ? 0 : len;
    c->body_off = 0;
    c->ops = NULL;
    c->held_gone = NULL;
    c->progress_ms = timeman_now_ms();
    set_state(c, SENDING);
    send_some(c);
}

void conn_reply_static(conn_t *c, int status, const char *type, const void *body, size_t len)
{
    answer(c, status, type, body, len);
}

void conn_reply_owned(conn_t *c, int status, const char *type, char *body, size_t len)
{
    free(c->owned);
    c->owned = body;
    answer(c, status, type, body, len);
}

void conn_reply(conn_t *c, int status, const char *type, const char *body, size_t len)
{
    char *copy = malloc(len + 1);
    if (!copy) {
        end(c);
        return;
    }
    memcpy(copy, body, len);
    conn_reply_owned(c, status, type, copy, len);
}

void conn_reply_shared(conn_t *c, int status, const char *type, shared_t *body)
{
    shared_unref(c->shared);
    c->shared = shared_ref(body);
    answer(c, status, type, body->data, body->len);
}

void conn_json(conn_t *c, int status, const char *json) { conn_reply(c, status, "application/json", json, strlen(json)); }

void conn_error(conn_t *c, int status, const char *message)
{
    char body[512];
    size_t n = http_error_body(body, sizeof body, status, message);
    conn_reply(c, status, "application/json", body, n);
}

/* An answer from the door: the request is not taken. */
static void refuse(conn_t *c, int status, const char *message)
{
    evloop_watch(C.cfg.loop, c->fd, 0, c);
    conn_error(c, status, message);
}

/* The oldest arriving request gives way (503): what its client still
 * sends is drained up to CONN_EVICTED_DRAIN only (a hoarded body is not
 * read to its end: the close resets it). */
static void evict(conn_t *c, const char *message)
{
    c->drain_max = CONN_EVICTED_DRAIN;
    refuse(c, 503, message);
}

void conn_hold(conn_t *c, void (*gone)(void *ctx), void *ctx)
{
    free_input(c);
    set_state(c, HELD);
    c->owner_holds = true;
    c->held_gone = gone;
    c->ctx = ctx;
    evloop_watch(C.cfg.loop, c->fd, 0, c); /* not read while held: its bytes, or its close, wait */
}

/* ---- event streams ---- */

bool conn_stream_begin(conn_t *c, const conn_stream_ops_t *ops, void *ctx)
{
    static const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n"
                               "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\r\nretry: 2000\n\n";
    free_input(c);
    ssize_t w = send(c->fd, head, sizeof head - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w != (ssize_t)sizeof head - 1) { /* a new socket takes this much: it went, or is broken */
        end(c);
        return false;
    }
    set_state(c, STREAM);
    c->ops = ops;
    c->ctx = ctx;
    c->blocked = false;
    c->progress_ms = timeman_now_ms();
    if (!evloop_watch(C.cfg.loop, c->fd, EVLOOP_IN, c)) { /* its close is seen as it comes */
        end(c);
        return false;
    }
    return true;
}

static const char beat[] = ": keep-alive\n\n";

/* Sends what the socket takes now of data; its bytes taken, or -1. */
static ssize_t stream_send(conn_t *c, const void *data, size_t len)
{
    ssize_t w = len ? send(c->fd, data, len, MSG_NOSIGNAL | MSG_DONTWAIT) : 0;
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        w = 0;
    else if (w < 0) {
        c->gone_due = true;
        c->gone_next = C.gone;
        C.gone = c;
        return -1;
    }
    if (w > 0)
        c->progress_ms = timeman_now_ms();
    return w;
}

ssize_t conn_stream_write(conn_t *c, const void *data, size_t len)
{
    if (c->state != STREAM || c->gone_due)
        return -1;
    ssize_t w = 0;
    if (c->beat_left) { /* a heartbeat begun goes out whole first */
        w = stream_send(c, beat + sizeof beat - 1 - c->beat_left, c->beat_left);
        if (w < 0)
            return -1;
        c->beat_left -= (size_t)w;
        w = 0;
    }
    if (!c->beat_left && (w = stream_send(c, data, len)) < 0)
        return -1;
    bool short_write = c->beat_left || (size_t)w < len;
    if (short_write != c->blocked) {
        c->blocked = short_write;
        if (!c->blocked)
            c->progress_ms = timeman_now_ms();
        evloop_watch(C.cfg.loop, c->fd, EVLOOP_IN | (short_write ? EVLOOP_OUT : 0), c);
    }
    return w;
}

void conn_stream_beat(conn_t *c)
{
    if (c->state != STREAM || c->beat_left)
        return;
    c->beat_left = sizeof beat - 1;
    conn_stream_write(c, "", 0);
}

void conn_stream_end(conn_t *c)
{
    if (c->state != STREAM)
        return;
    c->ops = NULL;
    drain(c);
}

/* ---- reading a request ---- */

/* Parses what has arrived (the head again once a line ended): 0 while
 * more is to come, else the status to refuse with, or 200 when whole. */
static int examine(conn_t *c, const char *buf, size_t len, size_t fresh)
{
    if (!c->need) {
        if (!memchr(buf + len - fresh, '\n', fresh) && len <= HTTP_HEAD_MAX)
            return 0; /* no line ended: a trickled head costs no parse */
        http_request_t req;
        int status = http_parse(buf, len, &req);
        if (status == HTTP_INCOMPLETE)
            return len > HTTP_HEAD_MAX ? 431 : 0;
        if (status != 200)
            return status;
        c->need = req.head_len + (req.content_length > 0 ? (size_t)req.content_length : 0);
        c->head_only = strcmp(req.method, "HEAD") == 0;
    }
    return len >= c->need ? 200 : 0;
}

static void dispatch(conn_t *c, const char *buf)
{
    http_request_t req;
    http_parse(buf, c->need, &req); /* parsed before: 200 */
    evloop_watch(C.cfg.loop, c->fd, 0, c); /* what it sends after its request waits */
    /* The request's bytes stay until the router returns, whatever it
     * answers meanwhile; then they go. */
    char *in = c->in;
    size_t in_cap = c->cap;
    c->in = NULL;
    c->len = c->cap = 0;
    c->owner_holds = false;
    set_state(c, HELD); /* out of the door before the server answers */
    C.cfg.on_request(c, &req, buf + req.head_len, c->need - req.head_len);
    free_buffer(in, in_cap);
    if (c->state == HELD && !c->owner_holds) /* nobody answered: never */
        conn_error(c, 500, "no answer");
}

/* Room for more of the request in c->in, within the budget; false when
 * the connection was refused instead. */
static bool grow_input(conn_t *c, size_t at_least)
{
    size_t limit = c->need ? c->need : HTTP_HEAD_MAX + 1;
    size_t cap = c->cap ? c->cap * 2 : 2048;
    if (cap < at_least)
        cap = at_least;
    if (cap > limit)
        cap = limit;
    if (cap <= c->cap)
        return true;
    if (cap > HTTP_HEAD_MAX + 1) /* a body beyond the head's room: one big buffer, at once */
        cap = BIG_CAP;
    size_t more = cap - c->cap;
    if (!conns_budget_take(more)) {
        if (c->state == ARRIVING)
            refuse(c, 503, "the server is busy (its memory for requests is full): try again");
        return false;
    }
    if (c->state != ARRIVING) { /* it was the oldest itself, and gave way */
        conns_budget_give(more);
        return false;
    }
    char *grown;
    if (cap == BIG_CAP) {
        C.pool_wanted_ms = timeman_now_ms();
        grown = C.pool_n ? C.pool[--C.pool_n] : malloc(BIG_CAP + 1);
        if (grown && c->len)
            memcpy(grown, c->in, c->len);
        if (grown)
            free(c->in);
    } else {
        grown = realloc(c->in, cap + 1);
    }
    if (!grown) {
        conns_budget_give(more);
        refuse(c, 503, "out of memory");
        return false;
    }
    c->in = grown;
    c->cap = cap;
    return true;
}

/* Whether what c's client has sent is a whole request (or one to refuse),
 * looked at without taking it: the turn's reading is spent. */
static bool whole_at_once(conn_t *c)
{
    ssize_t n = recv(c->fd, C.scratch, PEEK_BYTES, MSG_PEEK);
    if (n <= 0) /* (nothing yet; or gone, or an error: the read says which) */
        return n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
    int status = examine(c, C.scratch, (size_t)n, (size_t)n);
    c->need = 0; /* (the read examines it again) */
    return status != 0;
}

/* A request that arrives whole at once (a prompt client's) is always
 * taken. Requests that need more (bodies, trickles) share CONN_TURN_READ
 * a turn, their first read too: the rest wait, still ready, for the next
 * turn, so that a turn of the loop stays short whatever number of them
 * send at once, and a prompt request waits for no queue of their reads. */
static void read_request(conn_t *c)
{
    size_t taken = 0;
    while (c->state == ARRIVING && taken < READ_PER_TURN) {
        if (C.turn_read >= CONN_TURN_READ && (c->in || !whole_at_once(c)))
            return;
        if (!c->in) { /* all at once, most often: no buffer of its own */
            ssize_t n = recv(c->fd, C.scratch, SCRATCH_BYTES, 0);
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
                return;
            if (n <= 0) { /* gone before its request was whole: nobody to answer */
                end(c);
                return;
            }
            c->progress_ms = timeman_now_ms();
            C.turn_read += (size_t)n;
            int status = examine(c, C.scratch, (size_t)n, (size_t)n);
            if (status == 200)
                return dispatch(c, C.scratch);
            if (status)
                return refuse(c, status, http_reason(status));
            if (!grow_input(c, (size_t)n))
                return;
            memcpy(c->in, C.scratch, (size_t)n);
            c->len = (size_t)n;
            taken += (size_t)n;
            continue;
        }
        if (c->len == c->cap && !grow_input(c, c->len + 1))
            return;
        size_t room = c->cap - c->len;
        ssize_t n = recv(c->fd, c->in + c->len, room < READ_PER_TURN ? room : READ_PER_TURN, 0);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            return;
        if (n <= 0) {
            end(c);
            return;
        }
        c->progress_ms = timeman_now_ms();
        c->len += (size_t)n;
        taken += (size_t)n;
        C.turn_read += (size_t)n;
        int status = examine(c, c->in, c->len, (size_t)n);
        if (status == 200)
            return dispatch(c, c->in);
        if (status)
            return refuse(c, status, http_reason(status));
    }
}

/* ---- the loop's events ---- */

static void drain_some(conn_t *c)
{
    if (C.turn_read >= CONN_TURN_READ) /* (its turn comes: it is still ready) */
        return;
    ssize_t n = recv(c->fd, C.scratch, READ_PER_TURN, MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return;
    if (n > 0)
        C.turn_read += (size_t)n;
    if (n <= 0 || (c->drained += (size_t)n) > c->drain_max)
        end(c); /* (the rest unread: the close resets the connection) */
}

/* A stream's client sends nothing after its request: what it sends is
 * dropped, and its end (or an error) ends the stream. */
static void stream_readable(conn_t *c)
{
    ssize_t n = recv(c->fd, C.scratch, SCRATCH_BYTES, MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
        end_owned(c);
}

static void conn_ready(serve_io_t *io, unsigned events)
{
    conn_t *c = (conn_t *)io;
    switch (c->state) {
    case ARRIVING:
        read_request(c);
        break;
    case SENDING:
        if (events & EVLOOP_HUP && !(events & EVLOOP_OUT))
            end(c);
        else
            send_some(c);
        break;
    case STREAM:
        if (events & (EVLOOP_IN | EVLOOP_HUP))
            stream_readable(c);
        if (c->state == STREAM && events & EVLOOP_OUT && c->blocked && c->ops && conn_stream_write(c, "", 0) == 0 &&
            !c->beat_left) {
            c->blocked = false; /* the owner writes again; a short write blocks it again */
            c->progress_ms = timeman_now_ms();
            evloop_watch(C.cfg.loop, c->fd, EVLOOP_IN, c);
            c->ops->writable(c->ctx);
        }
        break;
    case DRAINING:
        drain_some(c);
        break;
    case HELD:
    case ENDED:
        break;
    }
}

static void peer_of(conn_t *c, const struct sockaddr_storage *a)
{
    memset(c->peer, 0, sizeof c->peer);
    if (a->ss_family == AF_INET6) {
        memcpy(c->peer, &((const struct sockaddr_in6 *)a)->sin6_addr, 16);
    } else if (a->ss_family == AF_INET) {
        c->peer[10] = c->peer[11] = 0xff;
        memcpy(c->peer + 12, &((const struct sockaddr_in *)a)->sin_addr, 4);
    }
}

/* A new connection: room is made for it (the oldest drain first, then
 * the oldest request still arriving, whatever its age); refused with 503
 * when every connection is being answered. */
static void admit(int fd, const struct sockaddr_storage *peer)
{
    if (C.n_open >= C.max_open && C.draining.first)
        end(C.draining.first);
    if ((C.n_open >= C.max_open || C.arriving.n >= CONN_DOOR_MAX) && C.arriving.first)
        evict(C.arriving.first, "the server is busy (too many connections arriving): try again");
    if (C.n_open >= C.max_open && C.draining.first) /* (the one just refused drains: it goes) */
        end(C.draining.first);
    if (C.n_open >= C.max_open) {
        static const char busy[] = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                                   "Content-Length: 61\r\nConnection: close\r\n\r\n"
                                   "{\"error\":\"the server is busy: try again\",\"status\":503}      ";
        if (send(fd, busy, sizeof busy - 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) { /* a courtesy */
        }
        close(fd);
        return;
    }
    conn_t *c = calloc(1, sizeof *c);
    if (!c) {
        close(fd);
        return;
    }
    c->io.ready = conn_ready;
    c->fd = fd;
    c->state = ENDED; /* set_state below puts it in the door */
    peer_of(c, peer);
    c->next = C.all;
    if (C.all)
        C.all->prev = c;
    C.all = c;
    C.n_open++;
    set_state(c, ARRIVING);
    c->progress_ms = c->since_ms;
    if (!evloop_watch(C.cfg.loop, fd, EVLOOP_IN, c)) {
        end(c);
        return;
    }
    read_request(c); /* a prompt client's request is most often there already */
}

static void listen_ready(serve_io_t *io, unsigned events)
{
    (void)io;
    (void)events;
    /* Every connection waiting, most often: a prompt client's waits for no
     * queue of reconnecting ones; a burst of engines to start (a fork
     * each) yields to the others after ACCEPT_TURN_US. */
    for (int64_t until = timeman_now_us() + ACCEPT_TURN_US; !*C.cfg.stop && timeman_now_us() < until;) {
        struct sockaddr_storage peer;
        socklen_t plen = sizeof peer;
        int fd = accept4(C.cfg.listen_fd, (struct sockaddr *)&peer, &plen, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) {
            if ((errno == EMFILE || errno == ENFILE) && C.draining.first)
                end(C.draining.first); /* out of descriptors: a drain gives its own */
            return;
        }
        admit(fd, &peer);
    }
}

/* ---- deadlines ---- */

/* Ends, beyond CONN_PEER_SLOW_MAX per address, the oldest slow requests
 * still arriving (newest first: a peer's newest slow ones are kept). */
static void slow_peers(int64_t now)
{
    enum { SLOTS = 2048 };
    static struct {
        unsigned char peer[16];
        int n;
        bool used;
    } seen[SLOTS];
    memset(seen, 0, sizeof seen);
    for (conn_t *c = C.arriving.last, *prev; c; c = prev) {
        prev = c->qprev;
        if (now - c->since_ms < CONN_SLOW_MS)
            continue;
        unsigned h = 2166136261u;
        for (int i = 0; i < 16; i++)
            h = (h ^ c->peer[i]) * 16777619u;
        unsigned k = h % SLOTS;
        while (seen[k].used && memcmp(seen[k].peer, c->peer, 16) != 0)
            k = (k + 1) % SLOTS;
        if (!seen[k].used) {
            seen[k].used = true;
            memcpy(seen[k].peer, c->peer, 16);
        }
        if (++seen[k].n > CONN_PEER_SLOW_MAX)
            refuse(c, 408, "too many slow requests from this address");
    }
}

void conns_tick(int64_t now)
{
    for (conn_t *c = C.all, *next; c; c = next) {
        next = c->next;
        if (c->state == ARRIVING && now - c->since_ms >= CONN_REQUEST_MS)
            refuse(c, 408, "the request took too long to arrive");
        else if (c->state == SENDING && now - c->progress_ms >= CONN_SEND_MS)
            end(c);
        else if (c->state == DRAINING && now - c->since_ms >= CONN_LINGER_MS)
            end(c);
        else if (c->state == STREAM && c->blocked && now - c->progress_ms >= CONN_SEND_MS)
            end_owned(c);
        else if (c->state == HELD && c->held_gone && now - c->since_ms >= CONN_HOLD_MS) {
            void (*gone)(void *) = c->held_gone;
            void *ctx = c->ctx;
            c->held_gone = NULL;
            gone(ctx);
            if (c->state == HELD)
                conn_error(c, 503, "the answer took too long");
        }
    }
    slow_peers(now);
    if (C.pool_n && now - C.pool_wanted_ms >= POOL_IDLE_MS) /* the hoarders gone: the memory too */
        while (C.pool_n)
            free(C.pool[--C.pool_n]);
}

/* ---- start and stop ---- */

serve_io_t *conns_listener(void) { return &C.listen_io; }

bool conns_start(const conns_config_t *cfg)
{
    C.cfg = *cfg;
    /* Every descriptor but a few for the engines' pipes and the loop's own. */
    struct rlimit files;
    long limit = getrlimit(RLIMIT_NOFILE, &files) == 0 ? (long)files.rlim_cur : 1024;
    C.max_open = (int)(limit - 200 > 2048 ? 2048 : limit - 200 < 64 ? 64 : limit - 200);
    C.listen_io.ready = listen_ready;
    return evloop_watch(C.cfg.loop, cfg->listen_fd, EVLOOP_IN, &C.listen_io);
}

void conns_stop(void)
{
    evloop_forget(C.cfg.loop, C.cfg.listen_fd);
    while (C.all)
        end_owned(C.all);
    conns_collect();
}
