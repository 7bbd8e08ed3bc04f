/* bench.h: the search benchmark. A fixed list of positions searched to a
 * fixed depth on a cleared table: the total node count is a fingerprint of
 * the search, and changes only when the search's behaviour does.
 * Reaches the game through game_t and the searcher through search.h only.
 */
#ifndef DENHAM_BENCH_H
#define DENHAM_BENCH_H

#include "search.h"
#include "skill.h"

typedef struct bench_result {
    int positions;
    uint64_t nodes;
    int64_t time_us; /* the searches alone */
} bench_result_t;

/* Called after each position with its index, node count and best move. */
typedef void (*bench_progress_fn)(void *ctx, int index, const position_t *pos, const search_result_t *r);

/* The options of the search, as `go` has them: bench searches exactly as
 * `go` would, so that its node count fingerprints the search users get. */
typedef struct bench_options {
    multiplayer_t multiplayer;
    chance_pruning_t chance_pruning;
    int multipv; /* 1: the best line only */
    int skill;   /* SKILL_MAX: full strength */
} bench_options_t;

/* `go`'s options when none is set. */
bench_options_t bench_options_default(void);

/* depth <= 0 uses the game's own bench depth. False if a bench FEN is bad.
 * Stops after the position during which search_stop() was called; the
 * caller resets the stop flag before it starts. */
bool bench_run(const game_t *g, searcher_t *s, int depth, const bench_options_t *options,
               bench_progress_fn progress, void *ctx, bench_result_t *out);

#endif
