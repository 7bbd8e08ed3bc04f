/*
 * tt.c: the transposition table (tt.h).
 * Core: includes nothing above engine/core/ and names no game. Stores what
 * the search gives it; never reads a position.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "tt.h"

#include "bigmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifndef __wasi__
#include <sys/mman.h>
#endif

_Static_assert(sizeof(tt_entry_t) == 16, "four entries fill a cache line");

/* Tables come straight from the system (bigmem.h: zero pages, huge pages
 * where the kernel gives them). NULL when refused. */
static tt_bucket_t *buckets_alloc(size_t count) { return bigmem_alloc(count * sizeof(tt_bucket_t)); }

static void buckets_free(tt_bucket_t *b, size_t count) { bigmem_free(b, count * sizeof *b); }

/* Up to this size a table is cleared in place, used or not: fresh pages
 * would only move the cost of zeroing into the next search, as page
 * faults (half the time of a short bench). A larger table is cleared in
 * place once all of it is in memory (4 GiB in 57 ms), and otherwise
 * replaced by fresh pages, so that clearing never brings in memory the
 * table has not used (issue 14, defect 7: a 4 GiB clear that did took
 * 8 s). */
#define TT_CLEAR_IN_PLACE_BYTES ((size_t)64 << 20)
/* The background filler's step (a huge page): how long a resize or
 * tt_free may wait for it. */
#define FILL_CHUNK ((size_t)2 << 20)

/* Pages of a fresh table that are not yet in memory are faulted in by the
 * searches that first touch them, under their clock: on huge pages each
 * such fault zeroes 2 MiB, and with a 1 GiB table the first search of
 * `go movetime 80` took 452 ms for 512 nodes. So the pages are brought in
 * before they are needed, by a thread that asks the kernel to fault them
 * in a huge page at a time (16 MiB in a few ms, 1 GiB in 0.9 s, 4 GiB in
 * 2.8 s) while the engine answers and even searches. MADV_POPULATE_WRITE
 * neither reads nor writes the memory, so it cannot race with the
 * searches' stores. Until it is done the searches use only the part of
 * a table over 64 MiB already in (tt->usable): a search that faulted in
 * the rest itself, at a store, still crawled (with 1 GiB, 512 nodes in
 * 123 ms of a `movetime 80`). Zeroing a small table at once instead halved the
 * protocol fuzz target's rate (every engine it starts sizes a table).
 * Where the kernel lacks it (before Linux 5.14) the pages come in as they
 * are used, as before. */
static void usable_raise(tt_t *tt, size_t buckets)
{
    size_t now = atomic_load_explicit(&tt->usable, memory_order_relaxed);
    while (now < buckets && !atomic_compare_exchange_weak(&tt->usable, &now, buckets))
        ;
}

static void *fill_pages(void *arg)
{
    tt_t *tt = arg;
#ifdef MADV_POPULATE_WRITE
    char *p = (char *)tt->buckets;
    for (size_t left = tt->count * sizeof *tt->buckets; left > 0;) {
        if (atomic_load_explicit(&tt->fill_stop, memory_order_relaxed))
            return NULL; /* the table is going away */
        size_t n = left < FILL_CHUNK ? left : FILL_CHUNK;
        if (madvise(p, n, MADV_POPULATE_WRITE) != 0)
            break; /* not in this kernel: the rest comes in as it is used */
        p += n;
        left -= n;
        usable_raise(tt, (size_t)(p - (char *)tt->buckets) / sizeof *tt->buckets);
        if (left == 0)
            atomic_store(&tt->resident, true);
    }
#endif
    usable_raise(tt, tt->count);
    return NULL;
}

/* Whether a table of this size may be brought in ahead of use: not one
 * larger than half the machine's memory, which would push everything else
 * out at once; such a table fills as it is used, as before. */
static bool fits_in_memory(size_t bytes)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 && bytes <= (size_t)pages / 2 * (size_t)page;
}

static void fill_start(tt_t *tt)
{
    size_t bytes = tt->count * sizeof *tt->buckets;
    atomic_store(&tt->resident, false);
    atomic_store(&tt->fill_stop, false);
    /* A table up to TT_CLEAR_IN_PLACE_BYTES is usable at once: it is in
     * within milliseconds, and a search that then faults in a few pages
     * itself stays repeatable node for node, which a search that sees
     * the filler's progress is not. */
    atomic_store(&tt->usable, bytes <= TT_CLEAR_IN_PLACE_BYTES ? tt->count : 0);
    tt->filling = fits_in_memory(bytes) && thr_create(&tt->filler, fill_pages, tt);
    if (!tt->filling) /* too large to bring in ahead, or no threads: all of it, faulted in as used */
        atomic_store(&tt->usable, tt->count);
}

/* Before the pages go back to the system. */
static void fill_stop(tt_t *tt)
{
    if (!tt->filling)
        return;
    atomic_store(&tt->fill_stop, true);
    thr_join(tt->filler);
    tt->filling = false;
}

bool tt_resize(tt_t *tt, size_t mb)
{
    size_t bytes = mb * 1024 * 1024;
    size_t count = 1;
    while (count * 2 * sizeof(tt_bucket_t) <= bytes)
        count *= 2;
    tt_bucket_t *b = buckets_alloc(count);
    if (!b)
        return false;
    fill_stop(tt);
    buckets_free(tt->buckets, tt->count);
    tt->buckets = b;
    tt->count = count;
    tt->generation = 0;
    atomic_store(&tt->written, false);
    fill_start(tt);
    return true;
}

void tt_free(tt_t *tt)
{
    fill_stop(tt);
    buckets_free(tt->buckets, tt->count);
    tt->buckets = NULL;
    tt->count = 0;
}

void tt_clear(tt_t *tt)
{
    tt->generation = 0;
    size_t bytes = tt->count * sizeof *tt->buckets;
    if (bytes <= TT_CLEAR_IN_PLACE_BYTES || (atomic_load(&tt->written) && atomic_load(&tt->resident))) {
        /* usable is whole already: a small table's from the start, a
         * resident one's since its filler finished. */
        memset(tt->buckets, 0, bytes);
    } else if (atomic_load(&tt->written)) {
        tt_bucket_t *fresh = buckets_alloc(tt->count);
        if (fresh) {
            fill_stop(tt);
            buckets_free(tt->buckets, tt->count);
            tt->buckets = fresh;
            fill_start(tt);
        } else {
            memset(tt->buckets, 0, bytes);
            usable_raise(tt, tt->count);
        }
    }
    atomic_store(&tt->written, false);
}

void tt_new_search(tt_t *tt) { tt->generation = (uint8_t)((tt->generation + 1) & 63); }

/* Win scores count plies from the root; stored, they count from this node,
 * so the same position found at another ply reads the right distance. */
static score_t score_to_tt(score_t s, int ply)
{
    return s >= SCORE_WIN_BOUND ? s + ply : s <= -SCORE_WIN_BOUND ? s - ply : s;
}

static score_t score_from_tt(score_t s, int ply)
{
    return s >= SCORE_WIN_BOUND ? s - ply : s <= -SCORE_WIN_BOUND ? s + ply : s;
}

/* A store of the same key keeps the entry when it is this much deeper. */
#define TT_KEEP_DEEPER 3

/* The fields of an entry's data word. */
static move_t data_move(uint64_t d) { return (move_t)d; }
static score_t data_score(uint64_t d) { return (int16_t)(d >> 32); }
static int data_depth(uint64_t d) { return (int)((d >> 48) & 0xff); }
static int data_bound(uint64_t d) { return (int)((d >> 56) & 3); }
static int data_generation(uint64_t d) { return (int)(d >> 58); }

static uint64_t data_pack(move_t move, score_t score, int depth, int bound, int generation)
{
    return (uint64_t)move | (uint64_t)(uint16_t)(int16_t)score << 32 | (uint64_t)depth << 48 |
           (uint64_t)(bound | generation << 2) << 56;
}

/* An entry's data when its key is `key`, else 0 (never a valid entry:
 * its bound is TT_NONE). Relaxed loads: a torn pair fails the check. */
static uint64_t entry_read(const tt_entry_t *e, uint64_t *key)
{
    uint64_t d = atomic_load_explicit(&((tt_entry_t *)e)->data, memory_order_relaxed);
    uint64_t k = atomic_load_explicit(&((tt_entry_t *)e)->check, memory_order_relaxed);
    *key = k ^ d;
    return d;
}

/* The bucket of a key, or NULL while its page is not yet in memory. */
static tt_bucket_t *bucket_in_memory(const tt_t *tt, uint64_t key)
{
    size_t i = key & (tt->count - 1);
    if (i >= atomic_load_explicit(&((tt_t *)tt)->usable, memory_order_relaxed))
        return NULL;
    return &tt->buckets[i];
}

bool tt_probe(const tt_t *tt, uint64_t key, int ply, tt_hit_t *hit)
{
    tt_bucket_t *b = bucket_in_memory(tt, key);
    if (!b)
        return false;
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t k, d = entry_read(&b->e[i], &k);
        if (k == key && data_bound(d) != TT_NONE) {
            hit->move = data_move(d);
            hit->score = score_from_tt(data_score(d), ply);
            hit->depth = data_depth(d);
            hit->bound = data_bound(d);
            return true;
        }
    }
    return false;
}

void tt_store(tt_t *tt, uint64_t key, int ply, move_t move, score_t score, int depth, int bound)
{
    if (!atomic_load_explicit(&tt->written, memory_order_relaxed))
        atomic_store_explicit(&tt->written, true, memory_order_relaxed);
    tt_bucket_t *b = bucket_in_memory(tt, key);
    if (!b)
        return;
    int victim = 0, victim_worth = 1 << 30;
    uint64_t victim_key = 0, victim_data = 0;
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t k, d = entry_read(&b->e[i], &k);
        if (data_bound(d) == TT_NONE || k == key) {
            victim = i;
            victim_key = k;
            victim_data = d;
            break;
        }
        int age = (tt->generation - data_generation(d)) & 63;
        int worth = data_depth(d) - 8 * age;
        if (worth < victim_worth) {
            victim_worth = worth;
            victim = i;
            victim_key = k;
            victim_data = d;
        }
    }
    if (victim_key == key && data_bound(victim_data) != TT_NONE) {
        /* The same position: a much shallower bound must not wipe out a
         * deep result of this search (a quiescence store over a depth-12
         * exact entry); an exact score or an older entry always yields. */
        if (bound != TT_EXACT && depth < data_depth(victim_data) - TT_KEEP_DEEPER &&
            data_generation(victim_data) == tt->generation)
            return;
        /* Keep the old move when this store has none. */
        if (move == MOVE_NONE)
            move = data_move(victim_data);
    }
    uint64_t d = data_pack(move, score_to_tt(score, ply), depth < 0 ? 0 : depth > 255 ? 255 : depth, bound,
                           tt->generation);
    atomic_store_explicit(&b->e[victim].data, d, memory_order_relaxed);
    atomic_store_explicit(&b->e[victim].check, key ^ d, memory_order_relaxed);
}

int tt_hashfull(const tt_t *tt)
{
    int used = 0, sampled = 0;
    for (size_t i = 0; i < tt->count && sampled < 1000; i++)
        for (int j = 0; j < TT_BUCKET && sampled < 1000; j++, sampled++) {
            uint64_t k, d = entry_read(&tt->buckets[i].e[j], &k);
            used += data_bound(d) != TT_NONE && data_generation(d) == tt->generation;
        }
    return sampled ? used * 1000 / sampled : 0;
}
