/*
 * tt.h: the transposition table, shared by every game and by every search
 * thread.
 * Core: includes nothing above engine/core/ and names no game.
 *
 * Buckets of four entries, one cache line each. An entry is two 64-bit
 * words: the data (move, score, draft, bound and generation) and the key
 * xor the data. Threads read and write entries without locks; an entry torn
 * by two writers fails the key check and reads as a miss (Hyatt and Mann's
 * lockless hashing), so no thread ever acts on a mix of two entries.
 * Replacement prefers an empty slot, then the same key (unless the entry is
 * of this search, much deeper, and the new result not exact), then the
 * shallowest entry of an older search.
 */
#ifndef DENHAM_TT_H
#define DENHAM_TT_H

#include <stdatomic.h>
#include <stddef.h>

#include "thread.h"
#include "types.h"

enum tt_bound { TT_NONE = 0, TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3 };

typedef struct tt_entry {
    _Atomic uint64_t check; /* key ^ data */
    _Atomic uint64_t data;  /* move | score << 32 | depth << 48 | bound_gen << 56 */
} tt_entry_t;

#define TT_BUCKET 4

typedef struct tt_bucket {
    tt_entry_t e[TT_BUCKET];
} tt_bucket_t;

typedef struct tt {
    tt_bucket_t *buckets;
    size_t count; /* a power of two */
    uint8_t generation;
    atomic_bool written; /* anything stored since the table was last zeroed */
    /* A fresh table's pages are faulted in by a thread of their own
     * (tt.c); it is stopped before the pages are given back. */
    thr_t filler;
    bool filling;
    atomic_bool fill_stop;
    atomic_bool resident; /* every page is in memory: a clear writes in place */
    /* Buckets [0, usable) may be used. While the filler brings in a table
     * over 64 MiB, probes of the buckets it has not reached miss and stores
     * there are dropped: a search that faulted in a huge page per store
     * crawled (tt.c). A smaller table is usable at once. */
    _Atomic size_t usable;
} tt_t;

/* Sizes the table to the largest power of two of buckets within mb MiB;
 * false when the memory cannot be had (the old table stays). The pages of
 * the new table are brought into memory by a background thread (unless
 * the table is larger than half the machine's memory). */
bool tt_resize(tt_t *tt, size_t mb);
void tt_free(tt_t *tt);
/* Empties the table without bringing in memory it never used: a table
 * never written is already zero; a used one is zeroed in place when it is
 * at most 64 MiB or all in memory, and otherwise gets fresh zeroed pages
 * (brought in as by tt_resize). Not while a search runs. */
void tt_clear(tt_t *tt);
/* Starts a new search: older entries become preferred victims. */
void tt_new_search(tt_t *tt);

/* Asks the processor for key's bucket ahead of its probe (the searcher's
 * push_move). Never faults; nothing without a table. */
static inline void tt_prefetch(const tt_t *tt, uint64_t key)
{
    if (tt->count > 0)
        __builtin_prefetch(&tt->buckets[key & (tt->count - 1)]);
}

typedef struct tt_hit {
    move_t move;
    score_t score; /* already adjusted to the probing ply */
    int depth;
    int bound;
} tt_hit_t;

bool tt_probe(const tt_t *tt, uint64_t key, int ply, tt_hit_t *hit);
void tt_store(tt_t *tt, uint64_t key, int ply, move_t move, score_t score, int depth, int bound);
/* Permille of sampled entries written by the current search. */
int tt_hashfull(const tt_t *tt);

#endif
