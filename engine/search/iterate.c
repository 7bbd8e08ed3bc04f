/*
 * iterate.c: iterative deepening, aspiration windows, MultiPV lines, time
 * use, the reports, and search_run, the way in, which runs the same
 * iterations on Lazy SMP's helper threads beside the main one. May not
 * reach into a node's search (negamax.c) or the threads' hand-over
 * (threads.c) but through their functions.
 */
#include <assert.h>
#include <string.h>

#include "search_ctx.h"

static void report(ctx_t *c, const search_request_t *req, int line, int depth, score_t score, const move_t *pv,
                   int pv_len, search_bound_t bound)
{
    if (!req->report)
        return;
    search_info_t info;
    info.multipv = req->multipv > 1 ? line + 1 : 0;
    info.bound = bound;
    info.depth = depth;
    /* Table cut-offs can end every line short of the nominal depth. */
    info.seldepth = c->seldepth > depth ? c->seldepth : depth;
    info.score = score;
    counts_t counts = ctx_total_counts(c);
    info.nodes = counts.nodes;
    info.time_ms = elapsed(c);
    info.nps = info.nodes * 1000 / (uint64_t)(info.time_ms > 0 ? info.time_ms : 1);
    info.hashfull = tt_hashfull(&c->s->tt);
    info.tables = has_endings(c);
    info.tbhits = counts.tbhits;
    info.pv_len = pv_len;
    memcpy(info.pv, pv, (size_t)pv_len * sizeof *pv);
    info.mate = c->dice ? 0 : search_mate_moves(c->g, &req->root, score, pv, pv_len);
    req->report(req->report_ctx, &req->root, &info);
}

/* A root move that wins on the spot, or MOVE_NONE. Checked before any
 * search, so that no limit, however short, and no quiescence however
 * large, can make the engine miss a win in one. */
static move_t winning_move(ctx_t *c, const move_t *moves, int n)
{
    int side = side_to_move(c);
    for (int i = 0; i < n; i++) {
        undo_t u;
        c->g->make(&c->pos, moves[i], &u);
        outcome_t o;
        bool won = c->g->decided(&c->pos, &o) && o.kind == OUTCOME_WIN && (o.players & ctx_side_players(c, side));
        c->g->unmake(&c->pos, moves[i], &u);
        if (won)
            return moves[i];
    }
    return MOVE_NONE;
}

/* A failed aspiration window, reported with its bound: a fail high with
 * the line of the move that failed high, a fail low with the line it had
 * (one line searched only: MultiPV lines are reported whole). */
static void report_bound(ctx_t *c, int depth, score_t sc, bool high, const line_t *prev)
{
    if (!ctx_in_progress(c) || c->req->multipv > 1)
        return;
    if (high)
        report(c, c->req, 0, depth, sc, c->pv[0], c->pv_len[0], SEARCH_LOWER);
    else
        report(c, c->req, 0, depth, sc, prev->pv, prev->pv_len, SEARCH_UPPER);
}

/* One iteration at the root: aspiration windows around the last score
 * (prev, the line of the iteration before), widened on failure until the
 * score lands inside them. */
static score_t aspirate(ctx_t *c, int depth, const line_t *prev)
{
    score_t delta = 25, alpha = -SCORE_INF, beta = SCORE_INF;
    if (depth >= 4 && prev->score > -SCORE_WIN_BOUND && prev->score < SCORE_WIN_BOUND) {
        alpha = prev->score - delta;
        beta = prev->score + delta;
    }
    for (;;) {
        score_t sc = negamax(c, depth, 0, alpha, beta, true);
        /* A full window's answer is final, even at its very edge (a score
         * of -SCORE_INF): searching it again would answer the same, for ever. */
        if (c->stopped || (alpha <= -SCORE_INF && beta >= SCORE_INF))
            return sc;
        if (sc <= alpha || sc >= beta)
            report_bound(c, depth, sc, sc >= beta, prev);
        if (sc <= alpha) {
            beta = (alpha + beta) / 2;
            alpha = sc - delta > -SCORE_INF ? sc - delta : -SCORE_INF;
        } else if (sc >= beta) {
            beta = sc + delta < SCORE_INF ? sc + delta : SCORE_INF;
        } else {
            return sc;
        }
        delta += delta;
        if (delta > 1000) {
            alpha = -SCORE_INF;
            beta = SCORE_INF;
        }
    }
}

/* Sorts the lines by score, best first; equal ones keep their order. */
static void sort_lines(line_t *lines, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && lines[j].score > lines[j - 1].score; j--) {
            line_t t = lines[j];
            lines[j] = lines[j - 1];
            lines[j - 1] = t;
        }
}

/* When not even one root move was searched: the move whose position the
 * evaluation likes best, rather than whichever came first. */
static move_t fallback_move(ctx_t *c, score_t *score)
{
    move_t moves[MAX_MOVES];
    int n = ctx_allowed_root_moves(c->req, moves, c->g->gen_moves(&c->pos, moves));
    int team = side_to_move(c);
    move_t best = n > 0 ? moves[0] : MOVE_NONE;
    score_t best_score = -SCORE_INF;
    for (int i = 0; i < n; i++) {
        undo_t u;
        c->g->make(&c->pos, moves[i], &u);
        score_t v = ctx_static_eval(c);
        if (side_to_move(c) != team)
            v = -v;
        c->g->unmake(&c->pos, moves[i], &u);
        if (v > best_score)
            best_score = v, best = moves[i];
    }
    *score = best_score;
    return best;
}

/* When to start no new iteration: the budget's soft limit, stretched up
 * to 2.5 times (never past the hard limit) while the answer is unsettled:
 * the best move changed in recent iterations, or the score fell. */
static int64_t soft_limit(const ctx_t *c, score_t score, score_t prev)
{
    int64_t percent = 100 + c->best_changes / 2 + (prev - score >= 30 ? 50 : 0);
    if (percent > 250)
        percent = 250;
    int64_t soft = c->budget.soft_ms * percent / 100;
    return c->budget.hard_ms >= 0 && soft > c->budget.hard_ms ? c->budget.hard_ms : soft;
}

int search_max_depth(const search_limits_t *l)
{
    int cap = MAX_PLY - 1;
    if (l->depth > 0 && l->depth < cap)
        return l->depth;
    if (l->mate > 0 && l->mate <= cap / SEARCH_PLIES_PER_MOVE)
        return SEARCH_PLIES_PER_MOVE * l->mate;
    return cap;
}

static bool mate_proven(score_t score, int depth)
{
    score_t a = score < 0 ? -score : score;
    return a >= SCORE_WIN_BOUND && SCORE_WIN - a <= depth;
}

/* Searches MultiPV line k of this depth into lines[k]; false when the
 * search stopped before it gave anything worth keeping. A stopped search
 * proves nothing about the root moves it did not reach, but a root move
 * it finished (the first, or one proven better than the first) is better
 * founded than the last iteration's answer. At depth 1 there is no such
 * answer: then the search keeps whatever it has. */
static bool search_line(ctx_t *c, int depth, int k, line_t *line)
{
    score_t sc = aspirate(c, depth, line);
    if (c->stopped) {
        if (k > 0 || (c->pv_len[0] == 0 && depth > 1))
            return false;
        if (c->pv_len[0] == 0) { /* depth 1, not one root move finished */
            c->pv[0][0] = fallback_move(c, &c->root_score);
            c->pv_len[0] = c->pv[0][0] != MOVE_NONE;
        }
        sc = c->root_score;
    }
    line->score = sc;
    line->pv_len = c->pv_len[0];
    memcpy(line->pv, c->pv[0], (size_t)c->pv_len[0] * sizeof(move_t));
    if (line->pv_len > 0)
        c->excluded[c->n_excluded++] = line->pv[0];
    return line->pv_len > 0;
}

/* The value of the position after move m in a solved ending, from the
 * next mover's side (the end of the game counts as a loss in 0 plies). */
static bool child_ending(const game_t *g, position_t *pos, move_t m, ending_t *out)
{
    undo_t u;
    outcome_t o;
    g->make(pos, m, &u);
    bool known = true;
    if (g->decided(pos, &o))
        *out = (ending_t){o.kind == OUTCOME_WIN ? ENDING_LOSS : ENDING_DRAW, 0};
    else
        known = g->probe_ending(pos, out);
    g->unmake(pos, m, &u);
    return known;
}

/* A line that ends in a won or lost solved ending goes on along the
 * table's moves (the winner's shortest way, the loser's longest) to the
 * end of the game, so that its pv shows the mate its score reports. */
static void extend_solved(const ctx_t *c, line_t *line)
{
    const game_t *g = c->g;
    if (!probes_endings(c))
        return;
    position_t pos = c->req->root;
    for (int i = 0; i < line->pv_len; i++) {
        undo_t u;
        g->make(&pos, line->pv[i], &u);
    }
    ending_t e;
    while (line->pv_len < MAX_PLY && g->probe_ending(&pos, &e) && e.result != ENDING_DRAW && e.plies > 0) {
        move_t moves[MAX_MOVES], next = MOVE_NONE;
        int n = g->gen_moves(&pos, moves);
        for (int i = 0; i < n && next == MOVE_NONE; i++) {
            ending_t child;
            if (child_ending(g, &pos, moves[i], &child) && child.result == -e.result && child.plies == e.plies - 1)
                next = moves[i];
        }
        assert(next != MOVE_NONE && "a solved value is reached by one of the moves");
        if (next == MOVE_NONE)
            return;
        undo_t u;
        g->make(&pos, next, &u);
        line->pv[line->pv_len++] = next;
    }
}

/* The main thread's completed iteration: lines 0..done-1 become the
 * result and are reported. */
static void publish(ctx_t *c, search_result_t *res, line_t *lines, int done, int depth, bool handed)
{
    res->from_helper = handed;
    sort_lines(lines, done);
    for (int k = 0; k < done; k++)
        extend_solved(c, &lines[k]);
    if (depth > 1 && lines[0].pv[0] != res->best)
        c->best_changes += 100;
    res->best = lines[0].pv[0];
    res->ponder = lines[0].pv_len > 1 ? lines[0].pv[1] : MOVE_NONE;
    res->score = lines[0].score;
    res->mate = c->dice ? 0 : search_mate_moves(c->g, &c->req->root, lines[0].score, lines[0].pv, lines[0].pv_len);
    res->depth = depth;
    for (int k = 0; k < done; k++)
        report(c, c->req, k, depth, lines[k].score, lines[k].pv, lines[k].pv_len, SEARCH_EXACT);
}

/* Iterative deepening, on every thread. Only the main thread keeps time,
 * reports, searches more than one line (MultiPV: line k is the best of
 * the root moves the lines before it did not take) and fills *res; n is
 * the number of root moves. */
void iterate(ctx_t *c, int n, search_result_t *res, line_t *lines)
{
    bool main_thread = c->id == 0;
    int max_depth = search_max_depth(&c->limits);
    bool timed = c->budget.soft_ms >= 0;
    int n_lines = main_thread && c->req->multipv > 1 ? c->req->multipv : 1;
    if (n_lines > n)
        n_lines = n;
    for (int k = 0; k < n_lines; k++)
        lines[k].score = 0;
    score_t prev_score = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        c->n_excluded = 0;
        int done = 0, handed = threads_take_handed(c, depth, &lines[0]);
        if (!handed) {
            depth = c->root_depth = threads_next_depth(c, depth, max_depth);
            c->seldepth = 0;
            while (done < n_lines && search_line(c, depth, done, &lines[done]))
                done++;
            if (c->overtaken) { /* another thread completed this depth first */
                c->stopped = c->overtaken = false;
                if (!main_thread)
                    continue;
                handed = threads_take_handed(c, depth, &lines[0]);
                assert(handed >= depth);
            }
        }
        if (handed) {
            assert(handed <= max_depth && n_lines == 1);
            depth = c->root_depth = handed;
            done = 1;
        }
        /* Stopped: lines 0..done-1 are new; a later depth's lines mixed
         * with an earlier one's would be out of order. */
        if (c->stopped && (done == 0 || (depth > 1 && done < n_lines)))
            break;
        if (!main_thread) {
            if (c->stopped)
                break;
            threads_hand_over(c, depth, &lines[0]);
            continue;
        }
        if (c->leapfrogs && !c->stopped)
            atomic_raise(&c->s->completed_depth, depth);
        publish(c, res, lines, done, depth, handed != 0);
        if (c->stopped)
            break;
        /* A win or loss proven within the full-width depth: deeper
         * iterations would only repeat it. */
        if (n_lines == 1 && mate_proven(lines[0].score, depth))
            break;
        if (c->limits.mate && res->mate > 0 && res->mate <= c->limits.mate)
            break;
        if (timed && !ctx_still_pondering(c) && (budget_used(c) >= soft_limit(c, lines[0].score, prev_score) || n == 1))
            break;
        prev_score = lines[0].score;
        c->best_changes /= 2;
    }
    /* Stopped while a helper had completed a deeper iteration. */
    int handed = main_thread && c->stopped ? threads_take_handed(c, res->depth + 1, &lines[0]) : 0;
    if (handed)
        publish(c, res, lines, 1, handed, true);
}

static void *helper_main(void *arg)
{
    ctx_t *c = arg;
    search_result_t unused;
    line_t line;
    move_t moves[MAX_MOVES];
    iterate(c, ctx_allowed_root_moves(c->req, moves, c->g->gen_moves(&c->pos, moves)), &unused, &line);
    return NULL;
}

/* Starts the helper threads (as many as can be had). */
static void start_helpers(searcher_t *s, const search_request_t *req)
{
    atomic_store(&s->helpers_stop, false);
    atomic_store(&s->handed_depth, 0);
    atomic_store(&s->started_depth, 0);
    atomic_store(&s->completed_depth, 0);
    for (int i = 1; i < s->threads; i++) {
        worker_t *w = &s->workers[i];
        w->running = false;
        if (!ctx_ensure_history(w, req->game->move_keys))
            continue;
        ctx_init(w->ctx, s, req, i);
        w->ctx->leapfrogs = true;
        w->running = thr_create(&w->thread, helper_main, w->ctx);
    }
}

/* Stops and joins the helpers; what they counted. */
static counts_t stop_helpers(searcher_t *s)
{
    atomic_store(&s->helpers_stop, true);
    counts_t n = {0, 0};
    for (int i = 1; i < s->threads; i++) {
        worker_t *w = &s->workers[i];
        if (w->running) {
            thr_join(w->thread);
            w->running = false;
            n.nodes += w->ctx->nodes;
            n.tbhits += w->ctx->tbhits;
        }
    }
    return n;
}

search_result_t search_run(searcher_t *s, const search_request_t *req)
{
    ctx_t *c = s->workers[0].ctx;
    search_result_t res = {.best = MOVE_NONE, .ponder = MOVE_NONE};
    if (!ctx_ensure_history(&s->workers[0], req->game->move_keys))
        return res;
    ctx_init(c, s, req, 0);
    tt_new_search(&s->tt);

    move_t root_moves[MAX_MOVES];
    int n = ctx_allowed_root_moves(req, root_moves, c->g->gen_moves(&c->pos, root_moves));
    /* The roller, never the engine, rolls the die: no move to choose yet. */
    if (n == 0 || at_chance(c))
        return res;
    res.best = root_moves[0];
    move_t win = winning_move(c, root_moves, n);
    if (win != MOVE_NONE) {
        res.best = win;
        res.score = c->dice ? CHANCE_WIN : SCORE_WIN - 1;
        res.mate = !c->dice;
        res.depth = c->seldepth = 1;
        res.nodes = c->nodes = (uint64_t)n;
        report(c, req, 0, 1, res.score, &win, 1, SEARCH_EXACT);
        return res;
    }
    start_helpers(s, req);
    c->leapfrogs = s->threads > 1 && req->multipv <= 1;
    iterate(c, n, &res, s->lines);
    counts_t helpers = stop_helpers(s);
    res.nodes = c->nodes + helpers.nodes;
    res.tbhits = c->tbhits + helpers.tbhits;
    return res;
}
