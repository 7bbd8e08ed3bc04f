/*
 * dfpn_table.h: the proof-number search's own table (solve.h).
 *
 * Memory: 32-byte entries in buckets of four (128 bytes, two cache lines,
 * aligned), as many buckets as fit in the size asked for, a power of two.
 * An entry holds a position's full 64-bit key, its proof and disproof
 * numbers, the plies to the end of a proof (dist) and the work spent on it
 * (positions searched below it, saturating); or, for a disproof that holds
 * only on lines through one or two given positions (a cycle back to them),
 * their keys.
 *
 * Replacement: a position already in its bucket is updated in place, its
 * work added up; a new one takes an empty entry, or else the entry of least
 * work in the bucket (cheapest to find again), whatever it holds. Proofs
 * and disproofs have no other protection: the proof writer searches again
 * any it finds gone (proof.c).
 *
 * Clearing moves a generation number on, which makes every entry written
 * before it empty (one clear in 255 clears the memory).
 *
 * Threads: no locks. An entry is four 64-bit words, each read and written
 * whole (relaxed atomics: plain moves on the machines we build for); the
 * first holds the key XORed with the other three, so an entry torn by two
 * threads writing it at once fails the check and reads as empty (Hyatt's
 * lockless hashing). A lost write loses work, never correctness. Locks
 * were measured costing half of two threads' nodes per processor second
 * on this machine (a lock's holder preempted leaves the other spinning).
 *
 * Knows no game and no search: keys and numbers only.
 */
#ifndef DENHAM_DFPN_TABLE_H
#define DENHAM_DFPN_TABLE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An entry as it is read and written: key ^ w[1] ^ w[2] ^ w[3] (0: empty);
 * pn | dn << 32; work | dist << 32 | flags << 48 | generation << 56; dep.
 * A disproof that holds only on lines through certain positions (flag
 * DFPN_ON_LINE) keeps their keys in pn:dn and dep instead. */
typedef struct dfpn_entry {
    _Atomic uint64_t w[4];
} dfpn_entry_t;

#define DFPN_ON_LINE 1

#define DFPN_BUCKET_WAYS 4

typedef struct dfpn_bucket {
    _Alignas(128) dfpn_entry_t e[DFPN_BUCKET_WAYS];
} dfpn_bucket_t;

typedef struct dfpn_table {
    dfpn_bucket_t *buckets;
    uint64_t mask;       /* buckets - 1 */
    size_t bytes;
    uint8_t generation;  /* a clear moves it on; at 0 the memory is cleared */
} dfpn_table_t;

/* What a probe finds. With DFPN_ON_LINE: a disproof that holds where the
 * line holds the positions of keys dep[0 .. deps-1]. */
typedef struct dfpn_hit {
    uint32_t pn, dn;
    uint16_t dist;
    uint16_t flags;
    int deps;
    uint64_t dep[2];
} dfpn_hit_t;

/* Sizes the table to at most mb MiB (at least one bucket); false when out
 * of memory (the table is then empty and unusable). */
bool dfpn_table_init(dfpn_table_t *t, size_t mb);
void dfpn_table_free(dfpn_table_t *t);
void dfpn_table_clear(dfpn_table_t *t);
bool dfpn_table_probe(dfpn_table_t *t, uint64_t key, dfpn_hit_t *hit);
void dfpn_table_store(dfpn_table_t *t, uint64_t key, uint32_t pn, uint32_t dn, uint16_t dist, uint64_t work);
/* A disproof that holds on lines through the positions of these keys (one
 * or two). */
void dfpn_table_store_on_line(dfpn_table_t *t, uint64_t key, const uint64_t *deps, int n, uint64_t work);
/* Per mille of a sample of entries in use. */
int dfpn_table_permille(const dfpn_table_t *t);

static inline void dfpn_table_prefetch(const dfpn_table_t *t, uint64_t key)
{
    __builtin_prefetch(&t->buckets[key & t->mask]);
}

#endif
