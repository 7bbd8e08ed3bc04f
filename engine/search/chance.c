/*
 * chance.c: chance nodes and the multi-player searches. Games with dice add
 * chance nodes (the die is to be rolled): their value is the weighted mean
 * over the outcomes, searched with Star1 windows and optionally a Star2
 * probing pass (Ballard 1983; Hauk, Buro and Schaeffer 2004). A roll costs
 * no depth, and wins and losses count CHANCE_WIN whatever their distance,
 * so the score is an expected value. Best-Reply Search's opponent layer
 * lives here too: it is a chance node per opponent. Decision nodes are
 * negamax.c's.
 * May not keep time or start threads.
 */
#include <string.h>

#include "picker.h"
#include "search_ctx.h"

static long long floor_div(long long a, long long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

static long long ceil_div(long long a, long long b) { return -floor_div(-a, b); }

/* Star2's probe: the decision node after a roll with only its first move
 * (the table's, else the best ordered) searched: a lower bound on its value
 * when the result is at least beta. */
static score_t probe_first_move(ctx_t *c, int depth, int ply, score_t alpha, score_t beta)
{
    count_node(c, ply);
    move_t moves[MAX_MOVES];
    int n = c->g->gen_moves(&c->pos, moves);
    if (n == 0)
        return ctx_terminal_score(c, c->g->outcome(&c->pos), ply);
    if (depth <= 0)
        return ctx_static_eval(c);
    tt_hit_t hit = {0};
    bool found = tt_probe(&c->s->tt, tt_key(c), ply, &hit);
    int scores[MAX_MOVES];
    picker_score_moves(c, moves, scores, n, found ? hit.move : MOVE_NONE, ply);
    move_t m = picker_pick(moves, scores, n, 0);
    int side = side_to_move(c);
    undo_t u;
    push_move(c, m, ply, &u, false); /* a game with dice: no prefetch (negamax's !c->dice) */
    score_t sc = negamax_child(c, side, depth - 1, ply, alpha, beta, false);
    pop_move(c, m, &u);
    return sc;
}

/* Puts outcome `first` first, keeping the cyclic order (the weights with
 * their rolls): a helper's own order of visit (threads_first_outcome). */
static void rotate_outcomes(move_t *rolls, int *w, int n, int first)
{
    move_t r[MAX_MOVES];
    int v[MAX_MOVES];
    for (int i = 0; i < n; i++) {
        r[i] = rolls[(i + first) % n];
        v[i] = w[(i + first) % n];
    }
    memcpy(rolls, r, (size_t)n * sizeof *rolls);
    memcpy(w, v, (size_t)n * sizeof *w);
}

/* The expected value over the rolls at this chance node, with Star1 (and
 * Star2) pruning. Values lie in [-CHANCE_WIN, CHANCE_WIN]; each outcome's
 * window is where it could still move the mean across alpha or beta, and
 * a mean that cannot reach the window returns a bound at once. All sums
 * are kept multiplied by the total weight, so the arithmetic is exact. */
static score_t chance_expect(ctx_t *c, int depth, int ply, score_t alpha, score_t beta, bool pv_node, int *bound)
{
    move_t rolls[MAX_MOVES];
    int w[MAX_MOVES];
    int n = c->g->chance_outcomes(&c->pos, rolls, w);
    int first = threads_first_outcome(c, n);
    if (first > 0)
        rotate_outcomes(rolls, w, n, first);
    long long W = 0, lo = -CHANCE_WIN, hi = CHANCE_WIN, lb[MAX_MOVES];
    for (int i = 0; i < n; i++) {
        W += w[i];
        lb[i] = lo;
    }
    long long sum_lb = W * lo;
    undo_t u;
    if (c->chance_pruning == CHANCE_STAR2 && beta < hi) {
        /* Probing pass: one move after each roll, trying for a fail high. */
        for (int i = 0; i < n; i++) {
            long long t = ceil_div(beta * W - (sum_lb - w[i] * lb[i]), w[i]);
            if (t > hi)
                continue;
            push_move(c, rolls[i], ply, &u, false);
            score_t x = probe_first_move(c, depth, ply + 1, (score_t)(t - 1), (score_t)t);
            pop_move(c, rolls[i], &u);
            if (c->stopped)
                return 0;
            if (x >= t) {
                sum_lb += w[i] * (x - lb[i]);
                lb[i] = x;
                if (sum_lb >= beta * W) {
                    *bound = TT_LOWER;
                    return (score_t)ceil_div(sum_lb, W);
                }
            }
        }
    }
    long long sum = 0, rest_lo = sum_lb, rest_hi = W * hi;
    for (int i = 0; i < n; i++) {
        rest_lo -= w[i] * lb[i];
        rest_hi -= w[i] * hi;
        long long a = lo - 1, b = hi + 1;
        if (c->chance_pruning != CHANCE_EXPECTIMAX) {
            a = floor_div(alpha * W - sum - rest_hi, w[i]);
            b = ceil_div(beta * W - sum - rest_lo, w[i]);
            if (a >= hi) { /* even the best outcome leaves the mean below alpha */
                *bound = TT_UPPER;
                return (score_t)floor_div(sum + w[i] * hi + rest_hi, W);
            }
            if (b <= lo) {
                *bound = TT_LOWER;
                return (score_t)ceil_div(sum + w[i] * lo + rest_lo, W);
            }
        }
        long long ca = a > lo - 1 ? a : lo - 1, cb = b < hi + 1 ? b : hi + 1;
        push_move(c, rolls[i], ply, &u, false);
        score_t x = negamax(c, depth, ply + 1, (score_t)ca, (score_t)cb, pv_node);
        pop_move(c, rolls[i], &u);
        if (c->stopped)
            return 0;
        if (x <= a) {
            *bound = TT_UPPER;
            return (score_t)floor_div(sum + w[i] * x + rest_hi, W);
        }
        if (x >= b) {
            *bound = TT_LOWER;
            return (score_t)ceil_div(sum + w[i] * x + rest_lo, W);
        }
        sum += w[i] * x;
    }
    score_t v = (score_t)floor_div(sum, W);
    *bound = v <= alpha ? TT_UPPER : v >= beta ? TT_LOWER : TT_EXACT;
    return v;
}

/* Best-Reply Search's opponent layer: each opponent in turn gets the roll
 * (the others pass) and the best of their replies is the layer's value. */
static score_t brs_layer(ctx_t *c, int depth, int ply, score_t alpha, score_t beta, bool pv_node, int *bound)
{
    position_t saved = c->pos;
    player_mask_t in = game_players_in(c->g, &c->pos);
    score_t best = -SCORE_INF;
    int best_bound = TT_UPPER;
    for (int q = 0; q < c->g->players; q++) {
        if (q == c->root_player || !(in & player_bit(q)))
            continue;
        c->g->hand_turn(&c->pos, q);
        c->brs_reply[ply + 1] = true;
        int b;
        score_t v = chance_expect(c, depth, ply, alpha > best ? alpha : best, beta, pv_node, &b);
        c->brs_reply[ply + 1] = false;
        c->pos = saved;
        if (c->stopped)
            return 0;
        if (v > best) {
            best = v;
            best_bound = b;
        }
        if (best >= beta) {
            best_bound = TT_LOWER;
            break;
        }
    }
    *bound = best_bound == TT_EXACT && best <= alpha ? TT_UPPER : best_bound;
    return best;
}

score_t chance_node(ctx_t *c, int depth, int ply, score_t alpha, score_t beta, bool pv_node)
{
    count_node(c, ply);
    c->pv_len[ply] = 0; /* a line stops at a roll: what follows depends on it */
    if (c->stopped)
        return 0;
    if (depth <= 0 || ply >= MAX_PLY - 2)
        return ctx_static_eval(c);
    uint64_t key = tt_key(c);
    tt_hit_t hit;
    if (!c->exact && tt_probe(&c->s->tt, key, ply, &hit) && hit.depth >= depth &&
        (hit.bound == TT_EXACT || (hit.bound == TT_LOWER && hit.score >= beta) ||
         (hit.bound == TT_UPPER && hit.score <= alpha)))
        return hit.score;
    int bound;
    bool brs = c->free_for_all && c->multiplayer == MULTI_BRS && side_to_move(c) != 0;
    score_t v = brs ? brs_layer(c, depth, ply, alpha, beta, pv_node, &bound)
                    : chance_expect(c, depth, ply, alpha, beta, pv_node, &bound);
    if (!c->stopped)
        tt_store(&c->s->tt, key, ply, MOVE_NONE, v, depth, bound);
    return v;
}
