/*
 * bb128.h: a portable 128-bit set, a pair of uint64_t, for boards of up to
 * 128 points (Brax's 81 points, Bolix's 80 cells). Every operation is an
 * inline function on two words; no compiler-specific 128-bit integer
 * appears in the interface.
 * Core: includes nothing above engine/core/ and names no game.
 */
#ifndef DENHAM_BB128_H
#define DENHAM_BB128_H

#include <stdbool.h>
#include <stdint.h>

typedef struct bb128 {
    uint64_t lo, hi; /* bits 0-63, bits 64-127 */
} bb128_t;

static inline bb128_t bb128_zero(void) { return (bb128_t){0, 0}; }

/* The word of bit i chosen by a conditional move, not a branch: which word
 * a point falls in is no pattern a branch predictor learns. */
static inline bb128_t bb128_bit(int i)
{
    uint64_t b = (uint64_t)1 << (i & 63);
    return (bb128_t){i < 64 ? b : 0, i < 64 ? 0 : b};
}

static inline bb128_t bb128_and(bb128_t a, bb128_t b) { return (bb128_t){a.lo & b.lo, a.hi & b.hi}; }
static inline bb128_t bb128_or(bb128_t a, bb128_t b) { return (bb128_t){a.lo | b.lo, a.hi | b.hi}; }
static inline bb128_t bb128_xor(bb128_t a, bb128_t b) { return (bb128_t){a.lo ^ b.lo, a.hi ^ b.hi}; }
static inline bb128_t bb128_andnot(bb128_t a, bb128_t b) { return (bb128_t){a.lo & ~b.lo, a.hi & ~b.hi}; }
/* Every bit not in a, those above the board's cells too. */
static inline bb128_t bb128_not(bb128_t a) { return (bb128_t){~a.lo, ~a.hi}; }
static inline bool bb128_empty(bb128_t a) { return (a.lo | a.hi) == 0; }
static inline bool bb128_eq(bb128_t a, bb128_t b) { return a.lo == b.lo && a.hi == b.hi; }

static inline bool bb128_test(bb128_t a, int i)
{
    return ((i < 64 ? a.lo : a.hi) >> (i & 63)) & 1;
}

static inline int bb128_popcount(bb128_t a) { return __builtin_popcountll(a.lo) + __builtin_popcountll(a.hi); }

/* Index of the lowest set bit; a must not be empty. */
static inline int bb128_lsb(bb128_t a) { return a.lo ? __builtin_ctzll(a.lo) : 64 + __builtin_ctzll(a.hi); }

/* Index of the highest set bit; a must not be empty. */
static inline int bb128_msb(bb128_t a) { return a.hi ? 127 - __builtin_clzll(a.hi) : 63 - __builtin_clzll(a.lo); }

/* Removes and returns the lowest set bit's index; *a must not be empty. */
static inline int bb128_pop(bb128_t *a)
{
    if (a->lo) {
        int i = __builtin_ctzll(a->lo);
        a->lo &= a->lo - 1;
        return i;
    }
    int i = 64 + __builtin_ctzll(a->hi);
    a->hi &= a->hi - 1;
    return i;
}

#endif
