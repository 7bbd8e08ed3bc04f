/* bench.c */
#include "bench.h"

bool bench_run(const game_t *g, searcher_t *s, int depth, bench_progress_fn progress, void *ctx,
               bench_result_t *out)
{
    *out = (bench_result_t){0, 0, 0};
    for (int i = 0; g->bench_fens[i]; i++) {
        if (search_stopped(s)) /* a stop ends the bench */
            break;
        search_request_t req = {0};
        char err[128];
        if (!g->parse_fen(&req.root, g->bench_fens[i], err, sizeof err))
            return false;
        req.game = g;
        limits_init(&req.limits);
        req.limits.depth = depth > 0 ? depth : g->bench_depth;
        /* The stop flag is the caller's: resetting it here would lose a
         * stop sent before this position began. */
        searcher_clear(s);
        /* Timed: the searches, not the clearing between them (as in
         * Stockfish's bench), so that nodes/s measures the search. */
        int64_t start = timeman_now_us();
        search_result_t r = search_run(s, &req);
        out->time_us += timeman_now_us() - start;
        out->positions++;
        out->nodes += r.nodes;
        if (progress)
            progress(ctx, i, &req.root, &r);
    }
    return true;
}
