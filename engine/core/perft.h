/* perft.h: counting move sequences, the test and benchmark of move generation.
 * Per docs/rules/README.md: a finished game has no moves, repetition is
 * ignored, and a roll of the die is no ply (perft N at a chance node sums
 * perft N over the outcomes, each a branch, unweighted).
 * Reaches a game through game_t only; includes nothing above engine/core/.
 */
#ifndef DENHAM_PERFT_H
#define DENHAM_PERFT_H

#include "game.h"
#include "thread.h"

/* Leaves at depth, counted in bulk at the last ply. */
uint64_t perft(const game_t *g, position_t *pos, int depth);

typedef struct perft_stats {
    uint64_t nodes;    /* move sequences of length depth */
    uint64_t captures; /* of those, the ones whose last move captures */
} perft_stats_t;

/* Leaves and captures, making every last move. */
perft_stats_t perft_stats(const game_t *g, position_t *pos, int depth);

/* Perft per root move: calls each(ctx, move text, count) in generation
 * order and returns the total. With a stop flag (NULL: none), a perft
 * asked to stop returns early; *stopped then tells that its counts are
 * partial. Its stop checks are thr_poll's: in the single-threaded build
 * the command loop takes its turns there. */
typedef void (*perft_divide_fn)(void *ctx, const char *move, uint64_t count);
uint64_t perft_divide(const game_t *g, position_t *pos, int depth, perft_divide_fn each, void *ctx);
uint64_t perft_divide_stoppable(const game_t *g, position_t *pos, int depth, perft_divide_fn each, void *ctx,
                                const thr_flag_t *stop, bool *stopped);

#endif
