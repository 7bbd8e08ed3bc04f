/* ring.h: what a session of `denham serve` keeps of its engine's lines
 * (ring.c), for its event streams: entries numbered from 1 (the streams'
 * event ids), each an engine line or one of the server's `engine` events.
 *
 * Bounded, with back-pressure instead of loss: an entry that no page has
 * been sent yet is never dropped. A push that does not fit is refused (the
 * session then stops reading its engine, which blocks on its own pipe)
 * until the streams have taken enough. Entries every open stream has been
 * sent are dropped as room is needed, a little of them kept (`history`)
 * for a page that reconnects with Last-Event-ID. Memory grows with what is
 * held and shrinks back when it is taken.
 *
 * Pure: no lock, socket or thread (the server's loop owns it); the tests
 * reach it directly. May not reach into the engine, the server or HTTP. */
#ifndef DENHAM_RING_H
#define DENHAM_RING_H

#include <stdbool.h>
#include <stddef.h>

enum { RING_LINE = 0, RING_EVENT = 1 };

/* A stream's place: the entry it sends next and that entry's offset. */
typedef struct ring_pos {
    unsigned long long seq, off;
} ring_pos_t;

typedef struct ring_entry {
    unsigned long long seq;
    int kind; /* RING_LINE or RING_EVENT */
    const char *data;
    size_t len;
} ring_entry_t;

typedef struct ring {
    char *buf;
    size_t cap, start, end;  /* the entries held: buf[start, end) */
    unsigned long long base; /* the offset of buf[0] */
    unsigned long long first, next; /* the seq of the entry at start; the seq the next one gets */
    ring_pos_t sent;         /* the furthest any stream has been sent */
    size_t max;              /* the bytes it may hold (a server's event may pass it a little) */
    size_t history;          /* bytes of sent entries kept for a page that reconnects */
} ring_t;

#define RING_ENTRY_OVERHEAD 5 /* bytes besides the data an entry holds */

void ring_init(ring_t *r, size_t max, size_t history);
/* Frees its memory; empty again, numbered from 1. */
void ring_clear(ring_t *r);
/* Appends an entry; false when it does not fit (it is not appended): the
 * caller holds it and stops reading. floor: entries before it may be
 * dropped, the place of the stream that is furthest behind, or r->sent
 * when no stream is open. force (the server's own events): appended even
 * past max. */
bool ring_push(ring_t *r, int kind, const char *data, size_t len, ring_pos_t floor, bool force);
/* Whether an entry of len bytes would fit, with that floor. */
bool ring_fits(ring_t *r, size_t len, ring_pos_t floor);
/* Drops what floor allows beyond the history, and gives memory back. */
void ring_reclaim(ring_t *r, ring_pos_t floor);
/* The place of entry seq, or of the oldest held when it is gone, or of
 * the end when it is not there yet. */
ring_pos_t ring_seek(const ring_t *r, unsigned long long seq);
/* The entry at *pos (moved to the oldest held when it was dropped); false
 * when there is none yet. */
bool ring_get(const ring_t *r, ring_pos_t *pos, ring_entry_t *e);
/* Moves *pos past e (got at *pos): it was sent. */
void ring_advance(ring_t *r, ring_pos_t *pos, const ring_entry_t *e);
/* The bytes it holds allocated. */
size_t ring_allocated(const ring_t *r);

#endif
