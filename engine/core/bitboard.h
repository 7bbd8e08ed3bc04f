/*
 * bitboard.h: 64-bit set operations shared by the games.
 * Core: includes nothing above engine/core/ and names no game.
 */
#ifndef DENHAM_BITBOARD_H
#define DENHAM_BITBOARD_H

#include <stdint.h>

typedef uint64_t bb64_t;

static inline int bb_popcount(bb64_t b) { return __builtin_popcountll(b); }

/* Index of the lowest set bit; b must not be 0. */
static inline int bb_lsb(bb64_t b) { return __builtin_ctzll(b); }

/* Index of the highest set bit; b must not be 0. */
static inline int bb_msb(bb64_t b) { return 63 - __builtin_clzll(b); }

/* Removes and returns the lowest set bit's index; *b must not be 0. */
static inline int bb_pop(bb64_t *b)
{
    int sq = __builtin_ctzll(*b);
    *b &= *b - 1;
    return sq;
}

static inline bb64_t bb_bit(int sq) { return (bb64_t)1 << sq; }

#endif
