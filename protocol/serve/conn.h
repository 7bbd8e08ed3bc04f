/* conn.h: the connections of `denham serve` (conn.c), all served by the
 * server's one loop: accepted, their requests read within a budget of
 * buffered bytes, answered, streamed, drained and closed, no thread ever
 * parked on a socket. serve.c routes each whole request (conns_config_t's
 * on_request); sessions.c and watch.c answer, stream or hold connections
 * through these functions and see no field of a connection.
 *
 * Single-threaded: only the loop's thread calls these (a worker's result
 * comes back through the loop, workers.h). */
#ifndef DENHAM_CONN_H
#define DENHAM_CONN_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "evloop.h"
#include "http.h"

/* What the loop calls when a registered descriptor is ready: every tag
 * given to evloop_watch is one of these, first in its owner's struct. */
typedef struct serve_io {
    void (*ready)(struct serve_io *io, unsigned events);
} serve_io_t;

#define CONN_DOOR_MAX 512          /* connections whose request is still arriving */
#define CONN_REQUEST_MS 10000      /* from accept to the whole request; else 408 */
#define CONN_SLOW_MS 1000          /* a connection this far into its request is slow */
#define CONN_PEER_SLOW_MAX 16      /* slow connections one address may hold */
#define CONN_SEND_MS 10000         /* an answer, or a stream's event, not read for this long ends its connection */
#define CONN_LINGER_MS 1000        /* after an answer, what the client still sends is drained this long */
#define CONN_LINGER_BYTES (512 * 1024)
#define CONN_EVICTED_DRAIN (64 * 1024) /* a request given way: what of the rest of it is drained */
#define CONN_HOLD_MS 30000         /* a held request (its answer comes from other work) is answered 503 after this */
#define CONN_TURN_READ (256 * 1024) /* bytes of requests not whole at once (and of drains) read in one turn of the loop */
#define CONN_BUDGET (4 << 20)      /* bytes buffered for every connection (and the engines' input) together */

typedef struct conn conn_t;

/* A body shared by many answers (the watch page's snapshot): counted,
 * immutable once made, freed with its last holder (any thread). */
typedef struct shared {
    atomic_int refs;
    size_t len;
    char data[];
} shared_t;
shared_t *shared_new(size_t len); /* refs 1; NULL when out of memory */
shared_t *shared_ref(shared_t *s);
void shared_unref(shared_t *s);

typedef struct conns_config {
    evloop_t *loop;
    int listen_fd;
    volatile sig_atomic_t *stop; /* set by SIGTERM: no more is accepted */
    /* A whole request, parsed; body (body_len bytes) lives until it returns.
     * It answers c, or streams, or holds it. */
    void (*on_request)(conn_t *c, const http_request_t *req, const char *body, size_t body_len);
} conns_config_t;

bool conns_start(const conns_config_t *cfg);
/* The listening socket's tag: the loop takes its event first, so that a
 * new connection waits for no more than the turn under way. */
serve_io_t *conns_listener(void);
/* Deadlines (408, unread answers, drains, slow peers); about ten times a second. */
void conns_tick(int64_t now);
/* Frees the connections that ended since the last call: once per turn of
 * the loop, after its events (a later event may still name one). It also
 * opens the next turn's reading: see CONN_TURN_READ. */
void conns_collect(void);
/* Ends every connection (held and streamed ones told, as when they go). */
void conns_stop(void);
/* Connections open, those whose request is arriving, and bytes buffered. */
int conns_open(void);
int conns_arriving(void);
size_t conns_buffered(void);

/* The budget of buffered bytes, for what else holds a client's bytes (an
 * engine's input): true when `bytes` more fit, after ending the oldest
 * connections whose request is still arriving if need be. */
bool conns_budget_take(size_t bytes);
void conns_budget_give(size_t bytes);

/* ---- answering (each ends the request; the connection then closes) ---- */

/* A body copied (small answers: JSON). */
void conn_reply(conn_t *c, int status, const char *type, const char *body, size_t len);
/* A body that outlives the answer (the embedded files): not copied. */
void conn_reply_static(conn_t *c, int status, const char *type, const void *body, size_t len);
/* A shared body (a reference is taken). */
void conn_reply_shared(conn_t *c, int status, const char *type, shared_t *body);
/* A body made elsewhere (malloc'd): the connection frees it. */
void conn_reply_owned(conn_t *c, int status, const char *type, char *body, size_t len);
void conn_json(conn_t *c, int status, const char *json);
/* {"error": message, "status": N}. */
void conn_error(conn_t *c, int status, const char *message);

/* The answer comes later (a write to an engine, a worker's job): the
 * connection waits without being read. gone(ctx) is called if it ends
 * first (CONN_HOLD_MS, or the server stopping); then forget it. */
void conn_hold(conn_t *c, void (*gone)(void *ctx), void *ctx);

/* ---- event streams ---- */

typedef struct conn_stream_ops {
    void (*writable)(void *ctx); /* what was left to send can go on */
    void (*gone)(void *ctx);     /* the client went, did not read for CONN_SEND_MS, or the server stops */
} conn_stream_ops_t;

/* Sends the head of an event stream (text/event-stream); false (and the
 * connection answered 503) when it could not. */
bool conn_stream_begin(conn_t *c, const conn_stream_ops_t *ops, void *ctx);
/* Writes what the socket takes now; the bytes taken. When it took less,
 * ops->writable is called once it can take more; while it takes nothing
 * for CONN_SEND_MS the stream ends (ops->gone). -1: the client has gone
 * (ops->gone follows from the loop, not from here). */
ssize_t conn_stream_write(conn_t *c, const void *data, size_t len);
/* A heartbeat (a comment line, so that proxies and pages see the stream
 * live), between two events: it goes out before what is written next. */
void conn_stream_beat(conn_t *c);
/* The stream is over: what was written is read, then the connection closes. */
void conn_stream_end(conn_t *c);

#endif
