/* rng.h: a small, seedable pseudo-random generator (SplitMix64).
 * Used for Zobrist keys (fixed seeds, so hashes and bench node counts are
 * the same on every run) and for random playouts in tests.
 * Core: includes nothing above engine/core/ and names no game.
 */
#ifndef DENHAM_RNG_H
#define DENHAM_RNG_H

#include <stdint.h>

typedef struct rng {
    uint64_t state;
} rng_t;

static inline uint64_t rng_next(rng_t *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0. The bias is below 2^-32 for the n we use. */
static inline uint32_t rng_below(rng_t *r, uint32_t n)
{
    return (uint32_t)((rng_next(r) >> 32) * n >> 32);
}

#endif
