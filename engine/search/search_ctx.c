/*
 * search_ctx.c: one running search's state: setting it up, its counts and
 * limits, the side each player is on, static values through the
 * evaluation cache, terminal and solved scores, and a worker's history
 * tables. May not search: no
 * recursion starts here.
 */
#include "search_ctx.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Is the search long enough for progress reports (main thread only)? */
bool ctx_in_progress(const ctx_t *c)
{
    return c->id == 0 && c->req->progress_after_ms > 0 && elapsed(c) >= c->req->progress_after_ms;
}

/* True while pondering; at the ponderhit the budget starts from its time. */
bool ctx_still_pondering(ctx_t *c)
{
    if (c->pondering && !atomic_load_explicit(&c->s->pondering, memory_order_relaxed)) {
        c->pondering = false;
        c->budget_from_ms = atomic_load(&c->s->ponderhit_ms);
    }
    return c->pondering;
}

counts_t ctx_total_counts(const ctx_t *c)
{
    counts_t n = {c->nodes, c->tbhits};
    for (int i = 1; i < c->s->threads; i++) {
        const ctx_t *h = c->s->workers[i].ctx;
        if (c->s->workers[i].running) {
            n.nodes += atomic_load_explicit(&h->nodes_seen, memory_order_relaxed);
            n.tbhits += atomic_load_explicit(&h->tbhits_seen, memory_order_relaxed);
        }
    }
    return n;
}

/* Makes this thread's counts visible to the main thread's total_counts. */
void ctx_publish_counts(ctx_t *c)
{
    atomic_store_explicit(&c->nodes_seen, c->nodes, memory_order_relaxed);
    atomic_store_explicit(&c->tbhits_seen, c->tbhits, memory_order_relaxed);
}

/* Polled every 256 nodes: the cheapest place to notice time and stop.
 * Slow nodes (Bolix, 0.2 M/s) made 1024 a 5 ms wait for `stop`. Helpers
 * stop with the main thread, which alone watches the limits. */
void ctx_check_limits(ctx_t *c)
{
    ctx_publish_counts(c);
    if (thr_poll(&c->s->stop))
        c->stopped = true;
    else if (c->id != 0 && atomic_load_explicit(&c->s->helpers_stop, memory_order_relaxed))
        c->stopped = true;
    else if (c->leapfrogs && atomic_load_explicit(&c->s->completed_depth, memory_order_acquire) >= c->root_depth)
        c->stopped = c->overtaken = true;
    else if (c->id != 0)
        return;
    else if ((c->limits.nodes && ctx_total_counts(c).nodes >= c->limits.nodes) ||
             (c->budget.hard_ms >= 0 && !ctx_still_pondering(c) && budget_used(c) >= c->budget.hard_ms))
        c->stopped = true;
}

player_mask_t ctx_side_players(const ctx_t *c, int side)
{
    player_mask_t m = 0;
    for (int p = 0; p < c->g->players; p++)
        if (side_of(c, p) == side)
            m |= player_bit(p);
    return m;
}

/* The static value for the side to move. Free-for-all: the root player's
 * value less the best of the others' (paranoid and BRS alike). */
static score_t evaluate_now(ctx_t *c)
{
    score_t v;
    if (!c->free_for_all) {
        v = c->g->evaluate(&c->pos, NULL);
    } else {
        score_t each[MAX_PLAYERS];
        c->g->evaluate_players(&c->pos, each);
        player_mask_t in = game_players_in(c->g, &c->pos);
        score_t best = -SCORE_INF;
        for (int p = 0; p < c->g->players; p++)
            if (p != c->root_player && (in & player_bit(p)) && each[p] > best)
                best = each[p];
        v = each[c->root_player] - (best == -SCORE_INF ? 0 : best);
        if (side_to_move(c) != 0)
            v = -v;
    }
    if (c->dice) /* evaluations stay inside the value bounds Star1 relies on */
        v = v >= CHANCE_WIN ? CHANCE_WIN - 1 : v <= -CHANCE_WIN ? -(CHANCE_WIN - 1) : v;
    return v;
}

/* The exact value of a solved ending at ply, as a terminal score of the
 * ply where the game ends; false when the game has not solved it (or it
 * ends beyond the plies a mate score can count). */
bool ctx_ending_score(ctx_t *c, int ply, score_t *score)
{
    ending_t e;
    if (!probes_endings(c) || !c->g->probe_ending(&c->pos, &e) || ply + e.plies >= MAX_PLY)
        return false;
    c->tbhits++;
    int end = ply + e.plies;
    *score = e.result == ENDING_DRAW ? SCORE_DRAW : e.result == ENDING_WIN ? SCORE_WIN - end : -(SCORE_WIN - end);
    return true;
}

score_t ctx_terminal_score(const ctx_t *c, outcome_t o, int ply)
{
    if (o.kind != OUTCOME_WIN)
        return SCORE_DRAW;
    bool won = (o.players & ctx_side_players(c, side_to_move(c))) != 0;
    if (c->dice)
        return won ? CHANCE_WIN : -CHANCE_WIN;
    return won ? SCORE_WIN - ply : -(SCORE_WIN - ply);
}

score_t ctx_static_eval(ctx_t *c)
{
    uint64_t key = tt_key(c);
    eval_slot_t *slot = &c->evals[key & (EVAL_CACHE_SLOTS - 1)];
    if (slot->filled && slot->key == key) {
        /* The key must hold all the evaluation reads. */
        assert(slot->value == evaluate_now(c));
        return slot->value;
    }
    score_t v = evaluate_now(c);
    *slot = (eval_slot_t){.key = key, .value = v, .filled = true};
    return v;
}

/* Keeps, of the n root moves, those the request allows; the new count. */
int ctx_allowed_root_moves(const search_request_t *req, move_t *moves, int n)
{
    if (req->n_root_moves <= 0)
        return n;
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (move_in(moves[i], req->root_moves, req->n_root_moves))
            moves[kept++] = moves[i];
    return kept;
}

void ctx_init(ctx_t *c, searcher_t *s, const search_request_t *req, int id)
{
    memset(c, 0, sizeof *c);
    c->s = s;
    c->id = id;
    c->history = s->workers[id].history;
    c->counters = s->workers[id].counters;
    atomic_init(&c->nodes_seen, 0);
    atomic_init(&c->tbhits_seen, 0);
    c->g = req->game;
    c->req = req;
    c->pondering = atomic_load(&s->pondering);
    c->pos = req->root;
    if (c->g->refresh)
        c->g->refresh(&c->pos); /* the evaluation's cache, for the net in use */
    c->limits = req->limits;
    c->start_ms = timeman_now_ms();
    c->budget_from_ms = c->start_ms;
    c->root_player = c->g->to_move(&req->root);
    c->budget = timeman_budget(&req->limits, c->root_player, req->overhead_ms, c->g->clock_moves);
    c->free_for_all = game_teams(c->g) > 2;
    c->dice = c->g->chance_outcomes != NULL;
    c->endings = has_endings(c) && (!c->g->prepared || c->g->prepared());
    c->multiplayer = c->g->hand_turn ? req->multiplayer : MULTI_PARANOID;
    c->chance_pruning = req->chance_pruning;
    c->exact = req->exact;
    c->null_ok = c->g->pass_turn && !c->dice && !c->free_for_all && !c->exact;
    /* Keep the most recent part of the history that fits beside a full line. */
    int keep = req->history_len < KEYS_MAX - MAX_PLY - 2 ? req->history_len : KEYS_MAX - MAX_PLY - 2;
    if (keep > 0)
        memcpy(c->keys, req->history + (req->history_len - keep), (size_t)keep * sizeof(uint64_t));
    c->key_count = keep;
    c->root_index = keep;
    c->keys[c->key_count++] = c->g->hash(&c->pos);
    c->rev_from[0] = 0;
}

bool ctx_ensure_history(worker_t *w, int keys)
{
    if (w->history && w->history_keys == keys)
        return true;
    int *h = calloc(2 * (size_t)keys, sizeof *h);
    move_t *cm = calloc(2 * (size_t)keys, sizeof *cm);
    if (!h || !cm) {
        free(h);
        free(cm);
        return false;
    }
    free(w->history);
    free(w->counters);
    w->history = h;
    w->counters = cm;
    w->history_keys = keys;
    return true;
}
