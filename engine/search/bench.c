/* bench.c */
#include "bench.h"

bool bench_run(const game_t *g, searcher_t *s, int depth, bench_progress_fn progress, void *ctx,
               bench_result_t *out)
{
    *out = (bench_result_t){0, 0, 0};
    int64_t start = timeman_now_ms();
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
        search_result_t r = search_run(s, &req);
        out->positions++;
        out->nodes += r.nodes;
        if (progress)
            progress(ctx, i, &req.root, &r);
    }
    out->time_ms = timeman_now_ms() - start;
    return true;
}
