/*
 * tt.h: the transposition table, shared by every game.
 *
 * Buckets of four entries, one cache line each. An entry keeps the upper 32
 * bits of the key (the lower bits chose the bucket), the best move, the score
 * with its bound, and the draft. Replacement prefers an empty slot, then the
 * same key, then the shallowest entry of an older search.
 */
#ifndef DENHAM_TT_H
#define DENHAM_TT_H

#include <stddef.h>

#include "types.h"

enum tt_bound { TT_NONE = 0, TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3 };

typedef struct tt_entry {
    uint32_t key;
    move_t move;
    int16_t score;
    uint8_t depth;
    uint8_t bound_gen; /* bound in the low 2 bits, generation above */
    uint8_t pad[4];
} tt_entry_t;

#define TT_BUCKET 4

typedef struct tt_bucket {
    tt_entry_t e[TT_BUCKET];
} tt_bucket_t;

typedef struct tt {
    tt_bucket_t *buckets;
    size_t count; /* a power of two */
    uint8_t generation;
    bool written; /* anything stored since the table was last zeroed */
} tt_t;

/* Sizes the table to the largest power of two of buckets within mb MiB;
 * false when the memory cannot be had (the old table stays). */
bool tt_resize(tt_t *tt, size_t mb);
void tt_free(tt_t *tt);
/* Empties the table without touching memory it never used: a table never
 * written is already zero, and a used one gets fresh zeroed pages. */
void tt_clear(tt_t *tt);
/* Starts a new search: older entries become preferred victims. */
void tt_new_search(tt_t *tt);

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
