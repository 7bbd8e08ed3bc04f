/*
 * negamax.c: the main search: principal variation search with its
 * pruning and reductions, and quiescence. Negamax over sides: a child's
 * score is negated only when the side to move changes, so a player who
 * moves twice in a row (brax-3p) keeps the sign. A side is a team in games
 * of two teams; in free-for-all games (Jinxx for 3 and 4) the root player
 * is one side and every other player the other (the paranoid assumption),
 * or, with Best-Reply Search, only the strongest opponent's reply is
 * searched between two moves of the root player (chance.c).
 * May not keep time or start threads (iterate.c, threads.c).
 */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "picker.h"
#include "../core/thread.h"
#include "search_ctx.h"

/* Captures that force nothing are followed this many quiescence plies: in
 * Bolix a captured marble goes back to hand, so capture sequences need not
 * end by themselves. */
#define QS_CAPTURE_PLIES 4
/* Beyond this many quiescence plies even forcing chains stop: a Bolix four
 * answered by a capture can be renewed until a hand runs dry, and at 16
 * plies depth 1 took 2.7 M nodes in a middle game (issue 11). Longer
 * threat sequences are the main search's: a lone answer is extended. */
#define QS_MAX_PLIES 8
/* Null move: tried from this depth, reduced by NULL_REDUCTION + depth / 6
 * plies, and verified by a search without it from NULL_VERIFY_DEPTH. */
#define NULL_MIN_DEPTH 3
#define NULL_REDUCTION 3
#define NULL_VERIFY_DEPTH 10
/* Late move pruning: at depth up to LMP_DEPTH, quiet moves after the
 * first 3 + depth^2 are not searched at all. */
#define LMP_DEPTH 3
/* Futility pruning: at depth up to FUTILITY_DEPTH, quiet moves are not
 * searched when the evaluation plus FUTILITY_MARGIN per ply cannot reach
 * alpha. */
#define FUTILITY_DEPTH 2
#define FUTILITY_MARGIN 150

/* What each numbered step of negamax gains, measured as the full search
 * against the search without that step, both at 20,000 nodes per move,
 * openings from 4 random plies (denham-match; Elo with its 95% interval).
 * Brandubh: 800 games each. Bolix: 800 games for reverse futility, 200 for
 * the rest. Brax draws nearly every game at any setting and shows nothing.
 *
 *   step                        brandubh          bolix
 *   6  reverse futility         +11.7 +-22.2      +20.0 +-23.9
 *   7  null move                -16.1 +-22.4      +41.9 +-49
 *   8  late move and futility   +79.5 +-22.9      +52.5 +-49
 *   9  late move reductions     +27.9 +-22.7      +24.4 +-48
 *   aspiration windows          +20.9 +-22.6      -26.1 +-48
 *   killers and counter-move    +14.3 +-22.1      +27.9 +-48
 *
 * Null move's Brandubh figure is within noise of zero (and fixed nodes
 * do not count the time a cut saves); it stays, as in every game with a
 * pass_turn hook, until a time-control match says otherwise. */

/* Late move reductions: 0.75 + ln(depth) ln(move number) / 2.25 plies
 * (Ethereal's formula), one less in the principal variation and for a
 * killer. */
static int lmr_table[64][64];
static thr_once_t lmr_once = THR_ONCE_INIT;

static void init_lmr(void)
{
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++)
            lmr_table[d][m] = (int)(0.75 + log(d) * log(m) / 2.25);
}

void negamax_init(void) { thr_once(&lmr_once, init_lmr); }

/* The child's score from this node's point of view. */
score_t negamax_child(ctx_t *c, int team, int depth, int ply, score_t alpha, score_t beta, bool pv_node)
{
    if (side_to_move(c) == team)
        return negamax(c, depth, ply + 1, alpha, beta, pv_node);
    return -negamax(c, depth, ply + 1, -beta, -alpha, pv_node);
}

static score_t qsearch(ctx_t *c, int ply, int qply, score_t alpha, score_t beta);

static score_t qchild_score(ctx_t *c, int team, int ply, int qply, score_t alpha, score_t beta)
{
    if (side_to_move(c) == team)
        return qsearch(c, ply + 1, qply + 1, alpha, beta);
    return -qsearch(c, ply + 1, qply + 1, -beta, -alpha);
}

/* Quiescence: only the game's noisy moves, with the static evaluation as
 * the score of standing pat, so the horizon never falls mid-exchange.
 * Noisy moves that capture nothing and force nothing (a Brax call, a
 * king's step home) are tried only at the first quiescence ply: enough to
 * see what they threaten, without chains of them multiplying the tree.
 * Captures are followed for QS_CAPTURE_PLIES. Forcing moves and the
 * answers to them are followed to any depth: that is what finds a win by a
 * sequence of threats (Bolix fours) beyond the nominal depth. */
static score_t qsearch(ctx_t *c, int ply, int qply, score_t alpha, score_t beta)
{
    count_node(c, ply);
    if (c->stopped)
        return 0;
    outcome_t o;
    if (c->g->decided(&c->pos, &o))
        return ctx_terminal_score(c, o, ply);
    score_t solved;
    if (ctx_ending_score(c, ply, &solved))
        return solved;
    /* Before a roll nothing is forced: the static value stands. */
    if (at_chance(c))
        return ctx_static_eval(c);
    /* Facing a threat to win at once there is no standing pat: only the
     * answers count, and without one the game is lost next move. */
    bool respond = c->g->must_respond && c->g->must_respond(&c->pos);
    if (ply >= MAX_PLY - 1 || qply >= QS_MAX_PLIES)
        return ctx_static_eval(c);
    /* In games with forcing threats the table answers transposed threat
     * sequences (depth 0 entries). Elsewhere quiescence is short and the
     * probes cost more than they save (Brandubh bench: 1.51 M -> 1.89 M
     * nodes, 0.45 -> 0.76 s). */
    bool use_tt = c->g->must_respond != NULL && !c->exact;
    uint64_t key = tt_key(c);
    tt_hit_t hit;
    if (use_tt && tt_probe(&c->s->tt, key, ply, &hit) &&
        (hit.bound == TT_EXACT || (hit.bound == TT_LOWER && hit.score >= beta) ||
         (hit.bound == TT_UPPER && hit.score <= alpha)))
        return hit.score;
    /* With no answer, the side to move makes some move and the opponent
     * wins with the next: the game ends two plies from here. */
    score_t stand = respond ? -(SCORE_WIN - ply - 2) : ctx_static_eval(c);
    if (stand >= beta)
        return stand;
    score_t orig_alpha = alpha;
    if (stand > alpha)
        alpha = stand;
    move_t moves[MAX_MOVES];
    int n = c->g->gen_noisy(&c->pos, moves);
    /* Without a noisy move there may be no move at all: then the game is
     * over, and its result, not the evaluation, is the score. */
    if (n == 0 && c->g->count_moves(&c->pos) == 0)
        return ctx_terminal_score(c, c->g->outcome(&c->pos), ply);
    int team = side_to_move(c);
    score_t best = stand;
    move_t best_move = MOVE_NONE;
    for (int i = 0; i < n; i++) {
        if (!respond && qply > 0 && !(moves[i] & MOVE_FORCING) &&
            !((moves[i] & MOVE_CAPTURE) && qply < QS_CAPTURE_PLIES))
            continue;
        undo_t u;
        push_move(c, moves[i], ply, &u, use_tt);
        score_t sc = qchild_score(c, team, ply, qply, alpha, beta);
        pop_move(c, moves[i], &u);
        if (c->stopped)
            return 0;
        if (sc > best) {
            best = sc;
            best_move = moves[i];
            if (sc > alpha)
                alpha = sc;
            if (sc >= beta)
                break;
        }
    }
    if (use_tt) {
        int bound = best >= beta ? TT_LOWER : best > orig_alpha ? TT_EXACT : TT_UPPER;
        tt_store(&c->s->tt, key, ply, best_move, best, 0, bound);
    }
    return best;
}

static void update_pv(ctx_t *c, int ply, move_t m)
{
    c->pv[ply][0] = m;
    int len = ply + 1 < MAX_PLY ? c->pv_len[ply + 1] : 0;
    memcpy(&c->pv[ply][1], c->pv[ply + 1], (size_t)len * sizeof(move_t));
    c->pv_len[ply] = len + 1;
}

/* The null-move test of negamax: the score of a reduced search after a
 * pass, at least beta when it holds (a win found is cut to beta: it may
 * rest on the pass). */
static score_t null_move_score(ctx_t *c, int depth, int ply, score_t beta)
{
    position_t saved = c->pos;
    if (!c->g->pass_turn(&c->pos))
        return -SCORE_INF;
    int team = side_of(c, c->g->to_move(&saved));
    int r = NULL_REDUCTION + depth / 6;
    c->keys[c->key_count++] = c->g->hash(&c->pos);
    c->rev_from[ply + 1] = c->key_count - 1; /* no repetition across a pass */
    c->after_null[ply + 1] = true;
    score_t sc = negamax_child(c, team, depth - 1 - r, ply, beta - 1, beta, false);
    c->after_null[ply + 1] = false;
    c->key_count--;
    c->pos = saved;
    if (c->stopped || sc < beta)
        return sc;
    if (sc >= SCORE_WIN_BOUND)
        sc = beta;
    /* Deep down a wrong cut costs much: check it with a reduced search of
     * the real moves, passes not allowed at this node. */
    if (depth >= NULL_VERIFY_DEPTH) {
        c->after_null[ply] = true;
        score_t v = negamax(c, depth - r, ply, beta - 1, beta, false);
        c->after_null[ply] = false;
        if (v < beta)
            return v;
    }
    return sc;
}

/* An exact search's leaf: the result of a finished game, else the static
 * value. */
static score_t exact_leaf(ctx_t *c, int ply)
{
    count_node(c, ply);
    outcome_t o;
    if (c->g->decided(&c->pos, &o))
        return ctx_terminal_score(c, o, ply);
    if (c->g->count_moves(&c->pos) == 0)
        return ctx_terminal_score(c, c->g->outcome(&c->pos), ply);
    return ctx_static_eval(c);
}

score_t negamax(ctx_t *c, int depth, int ply, score_t alpha, score_t beta, bool pv_node)
{
    c->pv_len[ply] = 0;
    if (c->dice && at_chance(c))
        return chance_node(c, depth, ply, alpha, beta, pv_node);
    if (depth <= 0)
        return c->exact ? exact_leaf(c, ply) : qsearch(c, ply, 0, alpha, beta);
    count_node(c, ply);
    if (c->stopped)
        return 0;

    /* 1. Draw by repetition inside the line (or with the game before it). */
    if (ply > 0 && c->g->repetition_draw && is_repetition(c, ply))
        return SCORE_DRAW;
    if (ply >= MAX_PLY - 1)
        return ctx_static_eval(c);
    /* A solved ending (Brax's two men against one): its exact value. At the
     * root the moves are still searched, each child probed in turn. */
    score_t solved;
    if (ply > 0 && ctx_ending_score(c, ply, &solved))
        return solved;

    /* 2. Mate-distance pruning: no score here can beat a win found nearer. */
    if (ply > 0) {
        score_t lo = -(SCORE_WIN - ply), hi = SCORE_WIN - ply - 1;
        if (alpha < lo) alpha = lo;
        if (beta > hi) beta = hi;
        if (alpha >= beta)
            return alpha;
    }

    /* 3. Transposition table: a cut-off outside the principal variation. */
    uint64_t key = tt_key(c);
    tt_hit_t hit = {0};
    bool found = tt_probe(&c->s->tt, key, ply, &hit);
    if (found && !pv_node && !c->exact && hit.depth >= depth &&
        (hit.bound == TT_EXACT || (hit.bound == TT_LOWER && hit.score >= beta) ||
         (hit.bound == TT_UPPER && hit.score <= alpha)))
        return hit.score;

    /* 4. Moves in stages (the table's move first, when legal here: it
     * also shows the game is not over), so that a node cut off early,
     * before the move loop too, never lists its quiet moves. */
    bool respond = c->g->must_respond && c->g->must_respond(&c->pos);
    bool staged = ply > 0 && !respond && c->g->move_legal && c->g->gen_quiet;
    picker_t pk;
    if (!picker_start(c, &pk, found ? hit.move : MOVE_NONE, ply, staged))
        return ctx_terminal_score(c, c->g->outcome(&c->pos), ply);
    move_t *moves = pk.moves;

    /* 5. Facing a threat to win at once, only the answers count: any other
     * move loses on the spot. A lone answer is forced, and the line is
     * extended by a ply for it (not beyond twice the iteration's depth). */
    if (respond) {
        move_t answers[MAX_MOVES];
        int k = c->g->gen_noisy(&c->pos, answers);
        if (k > 0) {
            memcpy(moves, answers, (size_t)k * sizeof *moves);
            pk.n = k;
            if (k == 1 && ply < 2 * c->root_depth && !c->exact)
                depth++;
        }
    }
    if (ply == 0) {
        int n = ctx_allowed_root_moves(c->req, moves, pk.n), kept = 0;
        for (int i = 0; i < n; i++)
            if (!move_in(moves[i], c->excluded, c->n_excluded))
                moves[kept++] = moves[i];
        pk.n = kept;
    }

    bool ordinary_beta = beta > -SCORE_WIN_BOUND && beta < SCORE_WIN_BOUND;
    score_t eval = !pv_node && !respond && ply > 0 && ordinary_beta && !c->exact ? ctx_static_eval(c) : -SCORE_INF;

    /* 6. Reverse futility: far above beta near the leaves, a quiet move will
     * not bring the score back down. Never against a win or loss bound: an
     * evaluation says nothing about a mate. */
    if (depth <= 3 && eval != -SCORE_INF && eval - 150 * depth >= beta && eval < SCORE_WIN_BOUND)
        return eval;

    /* 7. Null move: if passing the turn still holds beta in a reduced
     * search, a real move will too. The game says when a pass is a sound
     * test; never twice in a row, and verified without it when deep. */
    if (depth >= NULL_MIN_DEPTH && eval >= beta && c->null_ok && !c->after_null[ply]) {
        score_t sc = null_move_score(c, depth, ply, beta);
        if (c->stopped)
            return 0;
        if (sc >= beta)
            return sc;
    }

    if (pk.unscored)
        picker_score(c, &pk, found ? hit.move : MOVE_NONE);
    int team = side_to_move(c);
    score_t best = -SCORE_INF, orig_alpha = alpha;
    move_t best_move = MOVE_NONE;
    move_t tried[MAX_MOVES];
    int tried_n = 0;

    bool brs_reply = c->brs_reply[ply];
    bool may_prune = c->null_ok && !pv_node && !respond && eval != -SCORE_INF;
    bool thinned = false; /* the list cut to the moves that make a threat */
    move_t m;
    for (int i = 0; (m = picker_next(c, &pk, i)) != MOVE_NONE; i++) {
        bool quiet = !(m & MOVE_NOISY), killer = m == c->killers[ply][0] || m == c->killers[ply][1];
        /* 8. Late move and futility pruning: near the leaves, once a move
         * has kept the game alive, late quiet moves and quiet moves that
         * cannot lift the evaluation to alpha are not searched. */
        bool prunable = may_prune && quiet && !killer && best > -SCORE_WIN_BOUND &&
                        ((depth <= LMP_DEPTH && tried_n >= 3 + depth * depth) ||
                         (depth <= FUTILITY_DEPTH && eval + FUTILITY_MARGIN * depth <= alpha));
        /* A move the opponent must answer (a king that now sees a corner)
         * is neither pruned nor reduced, as chess engines treat checks.
         * Where no move makes a threat, or the game tells which do, a
         * pruned move need not even be made. Ordered by score, every move
         * after a pruned one is a quiet move and no killer, pruned by the
         * same test (which only grows stricter as moves are searched):
         * none of them is picked, but for those that make a threat. */
        if (prunable && !c->g->must_respond) {
            if (!picker_only_quiet_left(c, &pk))
                continue; /* a counter-move before Brax's calls */
            assert(picker_later_moves_quiet(moves, pk.n, i, c->killers[ply]));
            break;
        }
        bool asks = quiet && c->g->must_respond, told = asks && c->g->gives_threat;
        bool threat = told && c->g->gives_threat(&c->pos, m);
        if (prunable && told && !thinned) {
            picker_fill_all(c, &pk);
            assert(picker_later_moves_quiet(moves, pk.n, i, c->killers[ply]));
            pk.n = i + 1 + picker_keep_threats(c, moves + i + 1, pk.scores + i + 1, pk.n - i - 1);
            thinned = true;
        }
        if (prunable && told && !threat)
            continue;
        if (ply == 0 && c->req->report_root_move && ctx_in_progress(c))
            c->req->report_root_move(c->req->report_ctx, &c->req->root, depth, m, i + 1);
        undo_t u;
        push_move(c, m, ply, &u, !c->dice);
        assert(!told || threat == c->g->must_respond(&c->pos));
        if (asks && !told)
            threat = c->g->must_respond(&c->pos);
        quiet &= !threat;
        if (prunable && !threat) {
            pop_move(c, m, &u);
            continue;
        }
        /* A best reply is the only opponent move before the root player's
         * next turn (the other opponents pass). */
        position_t before_hand;
        bool handed = brs_reply && !c->g->decided(&c->pos, &(outcome_t){0}) &&
                      (game_players_in(c->g, &c->pos) & player_bit(c->root_player));
        if (handed) {
            before_hand = c->pos;
            c->g->hand_turn(&c->pos, c->root_player);
        }
        score_t sc;
        if (i == 0) {
            sc = negamax_child(c, team, depth - 1, ply, alpha, beta, pv_node);
        } else {
            /* 9. Late move reductions: quiet moves ordered late rarely matter. */
            int r = 0;
            if (depth >= 3 && i >= 2 && quiet && c->null_ok)
                r = lmr_table[depth < 64 ? depth : 63][i < 64 ? i : 63] - pv_node - killer;
            else if (depth >= 3 && i >= 3 && quiet && !c->exact) /* games with dice or more sides: as measured there */
                r = 1 + (i >= 8) + (depth >= 8 && i >= 16);
            if (r > depth - 2)
                r = depth - 2;
            if (r < 0)
                r = 0;
            /* 10. Principal variation search: prove the move no better with
             * a null window, and search it fully only if that fails. */
            sc = negamax_child(c, team, depth - 1 - r, ply, alpha, alpha + 1, false);
            if (sc > alpha && r > 0)
                sc = negamax_child(c, team, depth - 1, ply, alpha, alpha + 1, false);
            if (sc > alpha && sc < beta && pv_node)
                sc = negamax_child(c, team, depth - 1, ply, alpha, beta, true);
        }
        if (handed)
            c->pos = before_hand;
        pop_move(c, m, &u);
        if (c->stopped)
            return 0;
        if (sc > best) {
            best = sc;
            best_move = m;
            if (sc > alpha) {
                alpha = sc;
                update_pv(c, ply, m);
                if (ply == 0)
                    c->root_score = sc;
                if (alpha >= beta) {
                    if (!(m & MOVE_NOISY))
                        picker_reward_quiet(c, m, ply, depth, tried, tried_n);
                    break;
                }
            }
        }
        tried[tried_n++] = m;
    }

    int bound = best >= beta ? TT_LOWER : best > orig_alpha ? TT_EXACT : TT_UPPER;
    tt_store(&c->s->tt, key, ply, best_move, best, depth, bound);
    return best;
}

bool search_quiet(searcher_t *s, const game_t *g, const position_t *pos)
{
    outcome_t o;
    if (g->decided(pos, &o) || game_at_chance(g, pos))
        return false;
    /* Exact: quiescence alone, without the table, which holds the last
     * search's deeper values (exact searches never reach quiescence else). */
    search_request_t req = {.game = g, .root = *pos, .multiplayer = SEARCH_MULTIPLAYER_DEFAULT,
                            .chance_pruning = SEARCH_CHANCE_DEFAULT, .exact = true};
    limits_init(&req.limits);
    worker_t *w = &s->workers[0];
    if (!ctx_ensure_history(w, g->move_keys))
        return false;
    ctx_t *c = w->ctx;
    ctx_init(c, s, &req, 0);
    score_t stand = ctx_static_eval(c);
    return qsearch(c, 0, 0, -SCORE_INF, SCORE_INF) == stand;
}
