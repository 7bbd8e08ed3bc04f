/*
 * verdict.c: solving a position for both teams (solve_both, solve.h): the
 * side to move's win first, then the other's, in rounds of doubling budget
 * so that neither question waits on the other's harder one. Knows no game.
 */
#include "dfpn_ctx.h"

#include "../core/timeman.h"

#define FIRST_ROUND_NODES 20000
#define FIRST_ROUND_MS 50

/* Progress from each round, counted from the start of the whole. */
typedef struct relay {
    const solve_request_t *req;
    uint64_t nodes; /* before this round */
    int64_t start;
} relay_t;

static void relay(void *ctx, const solve_progress_t *p)
{
    const relay_t *r = ctx;
    solve_progress_t q = *p;
    q.nodes += r->nodes;
    q.ms = timeman_now_ms() - r->start;
    r->req->progress(r->req->progress_ctx, &q);
}

solve_both_t solve_both(solver_t *s, const solve_request_t *req)
{
    solve_both_t b = {.verdict = VERDICT_UNKNOWN, .winner = -1, .no_win = -1};
    const game_t *g = req->game;
    int first = g->team_of[g->to_move(&req->root)];
    int64_t start = timeman_now_ms();
    bool by_time = req->ms > 0 && req->nodes == 0;
    uint64_t chunk = by_time ? FIRST_ROUND_MS : FIRST_ROUND_NODES;
    for (int t = 0; t < 2; t++)
        b.side[t] = (solve_result_t){.status = SOLVE_OPEN, .pn = 1, .dn = 1};
    for (;;) {
        for (int i = 0; i < 2; i++) {
            int t = i == 0 ? first : !first;
            if (b.side[t].status != SOLVE_OPEN || b.side[t].pn >= DFPN_CAP || b.side[t].dn >= DFPN_CAP ||
                (req->one_side && t != req->side))
                continue; /* settled, or its numbers overflowed (it can go no further), or not asked */
            solve_request_t r = *req;
            relay_t rl = {req, b.nodes, start};
            r.side = t;
            r.nodes = r.ms = 0;
            if (req->progress) {
                r.progress = relay;
                r.progress_ctx = &rl;
                r.progress_from_ms = start;
            }
            if (by_time) {
                int64_t left = req->ms - (timeman_now_ms() - start);
                r.ms = (int64_t)chunk < left ? (int64_t)chunk : left;
                if (r.ms <= 0)
                    continue;
            } else {
                uint64_t left = !req->nodes ? chunk : req->nodes > b.nodes ? req->nodes - b.nodes : 0;
                r.nodes = chunk < left ? chunk : left;
                if (r.nodes == 0)
                    continue;
            }
            solve_result_t res = solver_run(s, &r);
            uint64_t nodes = b.side[t].nodes + res.nodes;
            b.nodes += res.nodes;
            b.cpu_us_max += res.cpu_us_max;
            b.cpu_us_total += res.cpu_us_total;
            b.side[t] = res;
            b.side[t].nodes = nodes;
            if (res.status == SOLVE_PROVEN)
                break;
        }
        b.ms = timeman_now_ms() - start;
        for (int t = 0; t < 2; t++)
            if (b.side[t].status == SOLVE_PROVEN) {
                b.verdict = VERDICT_WIN;
                b.winner = t;
                return b;
            }
        bool no0 = b.side[0].status == SOLVE_DISPROVEN, no1 = b.side[1].status == SOLVE_DISPROVEN;
        if (no0 && no1) {
            b.verdict = VERDICT_DRAW;
            return b;
        }
        if (no0 || no1) {
            b.verdict = VERDICT_NO_WIN;
            b.no_win = no0 ? 0 : 1;
        }
        bool stuck = true;
        for (int t = 0; t < 2; t++)
            stuck &= b.side[t].status != SOLVE_OPEN || b.side[t].pn >= DFPN_CAP || b.side[t].dn >= DFPN_CAP ||
                     (req->one_side && t != req->side);
        bool spent = stuck || (by_time ? b.ms >= req->ms : req->nodes && b.nodes >= req->nodes);
        if (spent || atomic_load(&s->stop))
            return b;
        chunk *= 2;
    }
}
