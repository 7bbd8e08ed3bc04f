/*
 * ring.c: see ring.h. One buffer, entries side by side (a length, a kind,
 * the bytes), the oldest at `start`: dropping one moves `start`, and the
 * held bytes move to the front when the end has no room (their offsets,
 * which streams keep, do not change: `base` moves instead).
 */
#include "ring.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RING_MIN_CAP 1024

void ring_init(ring_t *r, size_t max, size_t history)
{
    memset(r, 0, sizeof *r);
    r->first = r->next = 1;
    r->sent.seq = 1;
    r->max = max;
    r->history = history;
}

void ring_clear(ring_t *r)
{
    size_t max = r->max, history = r->history;
    free(r->buf);
    ring_init(r, max, history);
}

static size_t entry_len(const ring_t *r, size_t at)
{
    uint32_t len;
    memcpy(&len, r->buf + at, sizeof len);
    return (size_t)len;
}

/* Forgets the oldest entry held. */
static void drop_first(ring_t *r)
{
    assert(r->start < r->end);
    r->start += RING_ENTRY_OVERHEAD + entry_len(r, r->start);
    r->first++;
    if (r->start == r->end) { /* empty: begin again at the front */
        r->base += r->end;
        r->start = r->end = 0;
    }
}

/* The bytes of entries before floor still held (they may be dropped). */
static size_t droppable(const ring_t *r, ring_pos_t floor)
{
    unsigned long long lo = r->base + r->start, hi = r->base + r->end;
    if (floor.seq <= r->first || floor.off <= lo)
        return 0;
    return (size_t)((floor.off < hi ? floor.off : hi) - lo);
}

/* Moves the held bytes to the front. */
static void compact(ring_t *r)
{
    if (r->start == 0)
        return;
    memmove(r->buf, r->buf + r->start, r->end - r->start);
    r->base += r->start;
    r->end -= r->start;
    r->start = 0;
}

void ring_reclaim(ring_t *r, ring_pos_t floor)
{
    for (size_t d = droppable(r, floor); d > r->history; d = droppable(r, floor))
        drop_first(r);
    size_t held = r->end - r->start;
    if (r->cap > RING_MIN_CAP && held < r->cap / 4) { /* a flood taken: its memory goes back */
        compact(r);
        size_t cap = r->cap / 2;
        while (cap > RING_MIN_CAP && held < cap / 4)
            cap /= 2;
        char *smaller = realloc(r->buf, cap);
        if (smaller) {
            r->buf = smaller;
            r->cap = cap;
        }
    }
}

bool ring_fits(ring_t *r, size_t len, ring_pos_t floor)
{
    size_t held = r->end - r->start;
    return held + RING_ENTRY_OVERHEAD + len <= r->max + droppable(r, floor);
}

bool ring_push(ring_t *r, int kind, const char *data, size_t len, ring_pos_t floor, bool force)
{
    size_t need = RING_ENTRY_OVERHEAD + len;
    if (len > UINT32_MAX || (!force && !ring_fits(r, len, floor)))
        return false;
    ring_reclaim(r, floor);
    while (r->end - r->start + need > r->max && droppable(r, floor) > 0)
        drop_first(r);
    if (r->end + need > r->cap) {
        compact(r);
        if (r->end + need > r->cap) {
            size_t cap = r->cap ? r->cap : RING_MIN_CAP;
            while (cap < r->end + need)
                cap *= 2;
            char *grown = realloc(r->buf, cap);
            if (!grown)
                return false;
            r->buf = grown;
            r->cap = cap;
        }
    }
    uint32_t n = (uint32_t)len;
    memcpy(r->buf + r->end, &n, sizeof n);
    r->buf[r->end + 4] = (char)kind;
    memcpy(r->buf + r->end + RING_ENTRY_OVERHEAD, data, len);
    r->end += need;
    r->next++;
    return true;
}

ring_pos_t ring_seek(const ring_t *r, unsigned long long seq)
{
    ring_pos_t p = {r->first, r->base + r->start};
    if (seq >= r->next)
        return (ring_pos_t){r->next, r->base + r->end};
    for (size_t at = r->start; p.seq < seq; p.seq++) {
        size_t step = RING_ENTRY_OVERHEAD + entry_len(r, at);
        at += step;
        p.off += step;
    }
    return p;
}

bool ring_get(const ring_t *r, ring_pos_t *pos, ring_entry_t *e)
{
    if (pos->seq < r->first)
        *pos = (ring_pos_t){r->first, r->base + r->start};
    if (pos->seq >= r->next)
        return false;
    size_t at = (size_t)(pos->off - r->base);
    assert(at >= r->start && at < r->end);
    e->seq = pos->seq;
    e->len = entry_len(r, at);
    e->kind = r->buf[at + 4];
    e->data = r->buf + at + RING_ENTRY_OVERHEAD;
    return true;
}

void ring_advance(ring_t *r, ring_pos_t *pos, const ring_entry_t *e)
{
    pos->off += RING_ENTRY_OVERHEAD + e->len;
    pos->seq++;
    if (pos->seq > r->sent.seq)
        r->sent = *pos;
}

size_t ring_allocated(const ring_t *r) { return r->cap; }
