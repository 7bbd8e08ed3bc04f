/* tt.c */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(tt_entry_t) == 16, "four entries fill a cache line");

bool tt_resize(tt_t *tt, size_t mb)
{
    size_t bytes = mb * 1024 * 1024;
    size_t count = 1;
    while (count * 2 * sizeof(tt_bucket_t) <= bytes)
        count *= 2;
    tt_bucket_t *b = calloc(count, sizeof *b);
    if (!b)
        return false;
    free(tt->buckets);
    tt->buckets = b;
    tt->count = count;
    tt->generation = 0;
    tt->written = false;
    return true;
}

void tt_free(tt_t *tt)
{
    free(tt->buckets);
    tt->buckets = NULL;
    tt->count = 0;
}

void tt_clear(tt_t *tt)
{
    tt->generation = 0;
    if (!tt->written)
        return;
    /* Large blocks come from the system as zero pages that cost nothing
     * until touched: writing zeros over 4 GiB took 8 s. */
    tt_bucket_t *fresh = calloc(tt->count, sizeof *fresh);
    if (fresh) {
        free(tt->buckets);
        tt->buckets = fresh;
    } else {
        memset(tt->buckets, 0, tt->count * sizeof *tt->buckets);
    }
    tt->written = false;
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

static tt_bucket_t *bucket_of(const tt_t *tt, uint64_t key)
{
    return &tt->buckets[key & (tt->count - 1)];
}

bool tt_probe(const tt_t *tt, uint64_t key, int ply, tt_hit_t *hit)
{
    tt_bucket_t *b = bucket_of(tt, key);
    uint32_t check = (uint32_t)(key >> 32);
    for (int i = 0; i < TT_BUCKET; i++) {
        tt_entry_t *e = &b->e[i];
        if (e->key == check && (e->bound_gen & 3) != TT_NONE) {
            hit->move = e->move;
            hit->score = score_from_tt(e->score, ply);
            hit->depth = e->depth;
            hit->bound = e->bound_gen & 3;
            return true;
        }
    }
    return false;
}

void tt_store(tt_t *tt, uint64_t key, int ply, move_t move, score_t score, int depth, int bound)
{
    tt->written = true;
    tt_bucket_t *b = bucket_of(tt, key);
    uint32_t check = (uint32_t)(key >> 32);
    tt_entry_t *victim = &b->e[0];
    int victim_worth = 1 << 30;
    for (int i = 0; i < TT_BUCKET; i++) {
        tt_entry_t *e = &b->e[i];
        if ((e->bound_gen & 3) == TT_NONE || e->key == check) {
            victim = e;
            break;
        }
        int age = (tt->generation - (e->bound_gen >> 2)) & 63;
        int worth = e->depth - 8 * age;
        if (worth < victim_worth) {
            victim_worth = worth;
            victim = e;
        }
    }
    /* Keep a deeper entry's move when this store has none. */
    if (move == MOVE_NONE && victim->key == check)
        move = victim->move;
    victim->key = check;
    victim->move = move;
    victim->score = (int16_t)score_to_tt(score, ply);
    victim->depth = (uint8_t)(depth < 0 ? 0 : depth > 255 ? 255 : depth);
    victim->bound_gen = (uint8_t)(bound | (tt->generation << 2));
}

int tt_hashfull(const tt_t *tt)
{
    int used = 0, sampled = 0;
    for (size_t i = 0; i < tt->count && sampled < 1000; i++)
        for (int j = 0; j < TT_BUCKET && sampled < 1000; j++, sampled++) {
            const tt_entry_t *e = &tt->buckets[i].e[j];
            used += (e->bound_gen & 3) != TT_NONE && (e->bound_gen >> 2) == tt->generation;
        }
    return sampled ? used * 1000 / sampled : 0;
}
