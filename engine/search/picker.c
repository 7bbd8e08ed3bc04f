/*
 * picker.c: move ordering: the staged move picker, killers, counter-moves
 * and the history tables that learn from cut-offs. Orders what the game
 * generates; may not prune or search.
 */
#include "picker.h"

#include <assert.h>
#include <string.h>

/* History entries stay within +-HISTORY_MAX (see picker_reward_quiet). */
#define HISTORY_MAX 16384

/* Ordering scores: the table's move, noisy moves, killers and the
 * counter-move above any history score. */
enum {
    ORDER_TT = 1 << 30,
    ORDER_NOISY = 1 << 28,
    ORDER_KILLER1 = 1 << 27,
    ORDER_KILLER2 = (1 << 27) - 1,
    ORDER_COUNTER = (1 << 27) - 2,
};

static int *history_of(ctx_t *c, int team) { return c->history + (size_t)team * c->g->move_keys; }

/* The quiet move that last refuted the move that led here, or MOVE_NONE
 * (at the root, after a pass, or in games with chance: the move before a
 * roll says nothing of the reply). */
static move_t *counter_slot(ctx_t *c, int ply)
{
    if (ply == 0 || !c->null_ok || c->after_null[ply] || c->line[ply - 1] == MOVE_NONE)
        return NULL;
    return &c->counters[(size_t)side_to_move(c) * c->g->move_keys + c->g->move_key(c->line[ply - 1])];
}

void picker_score_moves(ctx_t *c, const move_t *moves, int *scores, int n, move_t tt_move, int ply)
{
    int *hist = history_of(c, side_to_move(c));
    move_t *cs = counter_slot(c, ply), counter = cs ? *cs : MOVE_NONE;
    for (int i = 0; i < n; i++) {
        move_t m = moves[i];
        if (m == tt_move)
            scores[i] = ORDER_TT;
        else if (m & MOVE_NOISY)
            scores[i] = ORDER_NOISY + hist[c->g->move_key(m)];
        else if (m == c->killers[ply][0])
            scores[i] = ORDER_KILLER1;
        else if (m == c->killers[ply][1])
            scores[i] = ORDER_KILLER2;
        else if (m == counter)
            scores[i] = ORDER_COUNTER;
        else
            scores[i] = hist[c->g->move_key(m)];
    }
}

/* Selection sort, one step at a time: most nodes cut off after a few moves. */
move_t picker_pick(move_t *moves, int *scores, int n, int i)
{
    /* The best score first, then its first place: the same move as taking
     * the first strictly better one, without a hard-to-predict branch per
     * move (the first loop compiles to max instructions). */
    int top = scores[i];
    for (int j = i + 1; j < n; j++)
        top = scores[j] > top ? scores[j] : top;
    int best = i;
    while (scores[best] != top)
        best++;
    move_t m = moves[best];
    int sc = scores[best];
    moves[best] = moves[i];
    scores[best] = scores[i];
    moves[i] = m;
    scores[i] = sc;
    return m;
}

bool picker_later_moves_quiet(const move_t *moves, int n, int i, const move_t *killers)
{
    for (int j = i + 1; j < n; j++)
        if ((moves[j] & MOVE_NOISY) || moves[j] == killers[0] || moves[j] == killers[1])
            return false;
    return true;
}

/* Keeps, in order, the moves that make a threat; returns their number. */
int picker_keep_threats(ctx_t *c, move_t *moves, int *scores, int n)
{
    int kept = 0;
    for (int j = 0; j < n; j++)
        if (c->g->gives_threat(&c->pos, moves[j])) {
            moves[kept] = moves[j];
            scores[kept++] = scores[j];
        }
    return kept;
}

void picker_reward_quiet(ctx_t *c, move_t m, int ply, int depth, const move_t *tried, int tried_n)
{
    if (c->killers[ply][0] != m) {
        c->killers[ply][1] = c->killers[ply][0];
        c->killers[ply][0] = m;
    }
    move_t *cs = counter_slot(c, ply);
    if (cs)
        *cs = m;
    int *hist = history_of(c, side_to_move(c));
    int bonus = depth * depth;
    /* Gravity keeps entries within +-HISTORY_MAX and lets old lessons fade. */
    int *e = &hist[c->g->move_key(m)];
    *e += bonus - *e * bonus / HISTORY_MAX;
    for (int i = 0; i < tried_n; i++) {
        if (tried[i] == m || (tried[i] & MOVE_NOISY))
            continue;
        int *f = &hist[c->g->move_key(tried[i])];
        *f -= bonus + *f * bonus / HISTORY_MAX;
    }
}

static bool released(const picker_t *p, move_t m, int from)
{
    return move_in(m, p->moves + from, p->n - from);
}

/* Appends the moves generated at moves + n that are not released yet
 * (the table's move, the killers), scored by history, noisy ones first. */
static void release_generated(ctx_t *c, picker_t *p, int k, int released_before)
{
    const int *hist = history_of(c, side_to_move(c));
    int kept = p->n;
    for (int j = p->n; j < p->n + k; j++) {
        move_t m = p->moves[j];
        if (m == p->tt_move)
            p->tt_listed = true;
        if (m == p->tt_move || released(p, m, released_before))
            continue;
        p->moves[kept] = m;
        p->scores[kept++] = (m & MOVE_NOISY ? ORDER_NOISY : 0) + hist[c->g->move_key(m)];
    }
    p->n = kept;
}

/* The killers and the counter-move: quiet moves that refuted a sibling or
 * the move before, tried before any quiet move is generated. */
static void release_refutations(ctx_t *c, picker_t *p)
{
    move_t *cs = counter_slot(c, p->ply);
    move_t cand[3] = {c->killers[p->ply][0], c->killers[p->ply][1], cs ? *cs : MOVE_NONE};
    static const int order[3] = {ORDER_KILLER1, ORDER_KILLER2, ORDER_COUNTER};
    p->refutations_from = p->n;
    for (int k = 0; k < 3; k++) {
        move_t m = cand[k];
        if (m == MOVE_NONE || (m & MOVE_NOISY) || m == p->tt_move || released(p, m, p->refutations_from) ||
            !c->g->move_legal(&c->pos, m))
            continue;
        p->moves[p->n] = m;
        p->scores[p->n++] = order[k];
    }
}

/* Releases the next stages until a move is added or none is left; returns
 * whether one was added. */
static bool picker_fill(ctx_t *c, picker_t *p)
{
    int before = p->n;
    while (p->n == before && p->stage != STAGE_DONE) {
        switch (p->stage) {
        case STAGE_NOISY:
            release_generated(c, p, (c->g->gen_captures ? c->g->gen_captures : c->g->gen_noisy)(&c->pos, p->moves + p->n),
                              p->n);
            p->stage = STAGE_REFUTATIONS;
            break;
        case STAGE_REFUTATIONS:
            release_refutations(c, p);
            p->stage = STAGE_QUIET;
            break;
        case STAGE_QUIET: /* without the refutations released before */
            release_generated(c, p, c->g->gen_quiet(&c->pos, p->moves + p->n), p->refutations_from);
            assert((p->tt_move == MOVE_NONE || p->tt_listed) && "move_legal agrees with gen_moves");
            p->stage = STAGE_DONE;
            break;
        case STAGE_DONE:
            break;
        }
    }
    return p->n > before;
}

/* Starts the moves of a node; returns false when it has none (the game is
 * over). The table's move is trusted only when the game says it is legal. */
bool picker_start(ctx_t *c, picker_t *p, move_t tt_move, int ply, bool staged)
{
    p->ply = ply;
    p->n = 0;
    p->tt_move = MOVE_NONE;
    p->unscored = p->tt_listed = false;
    p->stage = STAGE_NOISY;
    if (staged && tt_move != MOVE_NONE && c->g->move_legal(&c->pos, tt_move)) {
        p->tt_move = p->moves[0] = tt_move;
        p->scores[p->n++] = ORDER_TT;
        return true;
    }
    if (staged)
        return picker_fill(c, p);
    /* All at once, scored once the node has cut the list down (the root,
     * an answer to a threat) and tried its null move. */
    p->stage = STAGE_DONE;
    p->unscored = true;
    p->n = c->g->gen_moves(&c->pos, p->moves);
    return p->n > 0;
}

/* Scores a list released at once, after the node has cut it down. */
void picker_score(ctx_t *c, picker_t *p, move_t tt_move)
{
    assert(p->unscored && p->tt_move == MOVE_NONE);
    picker_score_moves(c, p->moves, p->scores, p->n, tt_move, p->ply);
    p->unscored = false;
}

/* Are the moves not yet released all quiet? Not before a gen_quiet that
 * may hold noisy moves (Brax's calls). */
bool picker_only_quiet_left(const ctx_t *c, const picker_t *p)
{
    return p->stage == STAGE_DONE || !c->g->gen_captures;
}

/* Releases every stage left (the list is then complete). */
void picker_fill_all(ctx_t *c, picker_t *p)
{
    while (picker_fill(c, p))
        ;
}

/* The i-th move of the node in order, or MOVE_NONE after the last. */
move_t picker_next(ctx_t *c, picker_t *p, int i)
{
    if (i == p->n && !picker_fill(c, p))
        return MOVE_NONE;
    return picker_pick(p->moves, p->scores, p->n, i);
}
