/* bench.c: the search benchmark (bench.h). It knows no game: the positions
 * and the depth are the game's own. */
#include "bench.h"

#include <stdlib.h>

bench_options_t bench_options_default(void)
{
    return (bench_options_t){SEARCH_MULTIPLAYER_DEFAULT, SEARCH_CHANCE_DEFAULT, 1, SKILL_MAX};
}

bool bench_run(const game_t *g, searcher_t *s, int depth, const bench_options_t *options,
               bench_progress_fn progress, void *ctx, bench_result_t *out)
{
    *out = (bench_result_t){0, 0, 0};
    /* Skill Level's lines; its choice among them does not change the
     * search, and a fixed seed keeps even the choice repeatable. */
    pv_line_t *lines = options->skill < SKILL_MAX ? malloc(sizeof *lines * SEARCH_MULTIPV_MAX) : NULL;
    if (options->skill < SKILL_MAX && !lines)
        return false;
    rng_t rng = {0x5DEECE66Dull};
    bool ok = true;
    game_prepare(g); /* the solved endings, as after isready: the same count on every run */
    for (int i = 0; g->bench_fens[i]; i++) {
        if (search_stopped(s)) /* a stop ends the bench */
            break;
        search_request_t req = {0};
        char err[128];
        if (!g->parse_fen(&req.root, g->bench_fens[i], err, sizeof err)) {
            ok = false;
            break;
        }
        req.game = g;
        limits_init(&req.limits);
        req.limits.depth = depth > 0 ? depth : g->bench_depth;
        req.multiplayer = options->multiplayer;
        req.chance_pruning = options->chance_pruning;
        req.multipv = options->multipv;
        /* The stop flag is the caller's: resetting it here would lose a
         * stop sent before this position began. */
        searcher_clear(s);
        /* Timed: the searches, not the clearing between them (as in
         * Stockfish's bench), so that nodes/s measures the search. */
        int64_t start = timeman_now_us();
        search_result_t r = skill_search(s, &req, options->skill, lines, &rng);
        out->time_us += timeman_now_us() - start;
        out->positions++;
        out->nodes += r.nodes;
        if (progress)
            progress(ctx, i, &req.root, &r);
    }
    free(lines);
    return ok;
}
