/* ref_search.c: see ref_search.h. Written from the conventions search.h and
 * game.h state, not from the searcher's code (engine/search/). */
#include "ref_search.h"

#include "../engine/search/search.h"

typedef struct ref {
    const game_t *g;
    int root_player;
    bool free_for_all, dice, brs;
} ref_t;

/* Side 0 is the root player's: paranoid and BRS put every other player on
 * side 1; two-team games keep their teams. */
static int side_of(const ref_t *r, int player)
{
    return r->free_for_all ? player != r->root_player : r->g->team_of[player];
}

static int side_to_move(const ref_t *r, const position_t *pos) { return side_of(r, r->g->to_move(pos)); }

static long long floor_div(long long a, long long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* The static value for the side to move (free-for-all: the root player's
 * evaluation less the best other player's, still in). */
static score_t static_value(const ref_t *r, const position_t *pos)
{
    score_t v;
    if (!r->free_for_all) {
        v = r->g->evaluate(pos, NULL);
    } else {
        score_t each[MAX_PLAYERS];
        r->g->evaluate_players(pos, each);
        player_mask_t in = game_players_in(r->g, pos);
        bool any = false;
        score_t best = 0;
        for (int p = 0; p < r->g->players; p++)
            if (p != r->root_player && (in & player_bit(p)) && (!any || each[p] > best)) {
                best = each[p];
                any = true;
            }
        v = each[r->root_player] - best;
        if (side_to_move(r, pos) != 0)
            v = -v;
    }
    if (r->dice && v >= CHANCE_WIN)
        v = CHANCE_WIN - 1;
    if (r->dice && v <= -CHANCE_WIN)
        v = -(CHANCE_WIN - 1);
    return v;
}

static score_t result_value(const ref_t *r, const position_t *pos, outcome_t o, int ply)
{
    if (o.kind != OUTCOME_WIN)
        return SCORE_DRAW;
    int side = side_to_move(r, pos);
    bool won = false;
    for (int p = 0; p < r->g->players; p++)
        if ((o.players & player_bit(p)) && side_of(r, p) == side)
            won = true;
    if (r->dice)
        return won ? CHANCE_WIN : -CHANCE_WIN;
    return won ? SCORE_WIN - ply : -(SCORE_WIN - ply);
}

static score_t value(const ref_t *r, const position_t *pos, int depth, int ply, bool reply);

/* The exact mean over the rolls, rounded down as the engine rounds. */
static score_t mean_over_rolls(const ref_t *r, const position_t *pos, int depth, int ply, bool reply)
{
    move_t rolls[MAX_MOVES];
    int w[MAX_MOVES];
    int n = r->g->chance_outcomes(pos, rolls, w);
    long long sum = 0, total = 0;
    for (int i = 0; i < n; i++) {
        position_t after = *pos;
        undo_t u;
        r->g->make(&after, rolls[i], &u);
        sum += (long long)w[i] * value(r, &after, depth, ply + 1, reply);
        total += w[i];
    }
    return (score_t)floor_div(sum, total);
}

static score_t value(const ref_t *r, const position_t *pos, int depth, int ply, bool reply)
{
    outcome_t o;
    if (r->dice && game_at_chance(r->g, pos)) {
        if (depth <= 0)
            return static_value(r, pos);
        if (!r->brs || side_to_move(r, pos) == 0)
            return mean_over_rolls(r, pos, depth, ply, false);
        /* BRS: each opponent in turn gets the roll, the others pass; the
         * strongest reply counts. */
        player_mask_t in = game_players_in(r->g, pos);
        score_t best = -SCORE_INF;
        for (int q = 0; q < r->g->players; q++) {
            if (q == r->root_player || !(in & player_bit(q)))
                continue;
            position_t handed = *pos;
            r->g->hand_turn(&handed, q);
            score_t v = mean_over_rolls(r, &handed, depth, ply, true);
            if (v > best)
                best = v;
        }
        return best;
    }
    if (r->g->decided(pos, &o))
        return result_value(r, pos, o, ply);
    move_t moves[MAX_MOVES];
    int n = r->g->gen_moves(pos, moves);
    if (n == 0)
        return result_value(r, pos, r->g->outcome(pos), ply);
    if (depth <= 0)
        return static_value(r, pos);
    int side = side_to_move(r, pos);
    score_t best = -SCORE_INF;
    for (int i = 0; i < n; i++) {
        position_t child = *pos;
        undo_t u;
        r->g->make(&child, moves[i], &u);
        /* After a best reply the turn goes straight back to the root player. */
        if (reply && !r->g->decided(&child, &o) && (game_players_in(r->g, &child) & player_bit(r->root_player)))
            r->g->hand_turn(&child, r->root_player);
        score_t v = value(r, &child, depth - 1, ply + 1, false);
        if (side_to_move(r, &child) != side)
            v = -v;
        if (v > best)
            best = v;
    }
    return best;
}

score_t ref_search_value(const game_t *g, const position_t *root, int depth, bool brs)
{
    ref_t r = {g, g->to_move(root), game_teams(g) > 2, g->chance_outcomes != NULL, brs && g->hand_turn};
    return value(&r, root, depth, 0, false);
}
