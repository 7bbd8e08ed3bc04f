/*
 * jinxx_eval.c: Jinxx's evaluation, with every weight: each player's value
 * (the centre, lines, pyramids kept, strikes, the odds of the next roll),
 * for the paranoid and Best-Reply searches and for two players. Reads the
 * position; may not change it.
 */
#include "jinxx_eval.h"

/* Every weight of the evaluation, by name: `eval` shows them with their
 * contributions, a tuner changes them (jinxx_weights). Fitted by `denham
 * tune` to 64,661 positions of two-player self-play at 20,000 nodes a move
 * (`denham datagen --variant jinxx --games 8000 --nodes 20000 --seed 8`),
 * the hand-set values in the comments; the same table serves three and four
 * players. The centre turned negative: in play the centre top, next to
 * every cell, is the one most often struck. */
enum { W_CENTRE, W_LINE_TWO, W_LINE_ONE, W_PYRAMID, W_DANGER, W_STRIKE, W_EXPOSED, W_WIN_ODDS, W_COUNT };
static eval_weight_t weight[W_COUNT] = {
    [W_CENTRE] = {"centre", -118},       /* was 40: the centre top, on every line */
    [W_LINE_TWO] = {"line of two", 147}, /* was 70: two of a line's three tops, the third open to us */
    [W_LINE_ONE] = {"line of one", 58},  /* was 10 */
    [W_PYRAMID] = {"pyramid", 200},      /* was 12: each pyramid kept */
    [W_DANGER] = {"danger", 61},         /* was 120: each pyramid fewer than five: vaporization nears */
    [W_STRIKE] = {"can destroy", 75},    /* was 25: a top of ours that can destroy an enemy top now */
    [W_EXPOSED] = {"exposed", 65},       /* was 15: a top of ours an enemy top can destroy */
    [W_WIN_ODDS] = {"win odds", 49},     /* was 120: the next roller, times the faces (of six) completing a line */
};
#define W(k) (weight[k].value)

eval_weights_t jinxx_weights = {weight, W_COUNT, NULL};

/* The sizes with which player p could complete a line on its next move: a
 * top pyramid of p's, from outside the line, or one from p's tree, landing
 * on the line's one cell whose top is not p's. */
static unsigned line_sizes(const jinxx_t *b, int p, unsigned mine)
{
    unsigned sizes = 0;
    for (int l = 0; l < 4; l++) {
        unsigned missing = lines[l] & ~mine;
        if (popcount9(missing) != 1)
            continue;
        int c = __builtin_ctz(missing);
        for (int s = 0; s < 3; s++) {
            if (!((landable(b, s) >> c) & 1))
                continue;
            unsigned from = mine & b->occ[p][s] & jinxx_adjacent[c] & ~lines[l];
            bool tree = false;
            for (int k = 0; k < 3; k++)
                tree |= edge_cell[seat_of(b, p)][k] == c && tree_has(b->tree[p][k], s);
            if (from || tree)
                sizes |= 1u << s;
        }
    }
    return sizes;
}

/* The player whose roll comes next: the player to move before its roll,
 * the next one after it. */
int next_roller(const jinxx_t *b) { return b->die == 0 ? b->stm : jinxx_next_player(b); }

/* How many of the six faces allow one of `sizes`: the die's odds. */
static int faces_allowing(unsigned sizes)
{
    int n = 0;
    for (int f = 0; f < 6; f++)
        n += (face_sizes[f] & sizes) != 0;
    return n;
}

/* Cells where player p could land a top pyramid of size s next turn: the
 * neighbours of p's tops of size s, and the edge cells of trees holding s.
 * Every size shows on three of the six faces, so each such move comes with
 * even odds; the terms below are weighted with that in mind. */
static unsigned reach(const jinxx_t *b, int p, int s)
{
    unsigned r = 0, own_tops = tops(b, p) & b->occ[p][s];
    for (unsigned m = own_tops; m; m &= m - 1)
        r |= jinxx_adjacent[__builtin_ctz(m)];
    for (int k = 0; k < 3; k++)
        if (tree_has(b->tree[p][k], s))
            r |= 1u << edge_cell[seat_of(b, p)][k];
    return r & landable(b, s);
}

/* Each player's value: the sum of its terms, recorded in the trace. */
static void evaluate_all(const jinxx_t *b, score_t value[MAX_PLAYERS], eval_trace_t *t)
{
    for (int p = 0; p < MAX_PLAYERS; p++)
        value[p] = 0;
    unsigned top[MAX_PLAYERS] = {0};
    for (int p = 0; p < b->players; p++)
        top[p] = tops(b, p);
    for (int p = 0; p < b->players; p++) {
        if (!in_game(b, p))
            continue;
        int at_centre = top[p] >> CENTRE & 1, twos = 0, ones = 0, strikes = 0, exposures = 0;
        for (int l = 0; l < 4; l++) {
            int have = popcount9(top[p] & lines[l]);
            twos += have == 2;
            ones += have == 1;
        }
        int left = pyramids_of(b, p), short_of = left < 5 ? 5 - left : 0;
        for (int s = 0; s < 3; s++) {
            unsigned enemy = 0, mine = top[p] & b->occ[p][s];
            for (int q = 0; q < b->players; q++)
                if (q != p)
                    enemy |= top[q] & b->occ[q][s];
            strikes += popcount9(reach(b, p, s) & enemy);
            for (int q = 0; q < b->players; q++)
                if (q != p && in_game(b, q))
                    exposures += popcount9(reach(b, q, s) & mine);
        }
        /* Only the next player to roll gets the die's odds before anyone
         * can answer; the player to move after a roll knows its face. */
        int faces = p == next_roller(b) ? faces_allowing(line_sizes(b, p, top[p])) : 0;
        int centre = W(W_CENTRE) * at_centre, line = W(W_LINE_TWO) * twos + W(W_LINE_ONE) * ones;
        int material = W(W_PYRAMID) * left - W(W_DANGER) * short_of;
        int strike = W(W_STRIKE) * strikes, exposed = -W(W_EXPOSED) * exposures, odds = W(W_WIN_ODDS) * faces;
        if (t) {
            const int coef[W_COUNT] = {at_centre, twos, ones, left, -short_of, strikes, -exposures, faces};
            for (int k = 0; k < W_COUNT; k++)
                eval_trace_coef(t, k, p, coef[k]);
        }
        eval_trace_set(t, "win odds", p, odds);
        eval_trace_set(t, "centre", p, centre);
        eval_trace_set(t, "lines", p, line);
        eval_trace_set(t, "pyramids", p, material);
        eval_trace_set(t, "can destroy", p, strike);
        eval_trace_set(t, "exposed", p, exposed);
        value[p] = (score_t)(centre + line + material + strike + exposed + odds);
    }
}

void jinxx_evaluate_players(const position_t *pos, score_t value[MAX_PLAYERS])
{
    evaluate_all(CP(pos), value, NULL);
}

/* Two-sided view: the player to move against the strongest other player
 * (in the two-player game, simply the other). */
score_t jinxx_evaluate(const position_t *pos, eval_trace_t *t)
{
    const jinxx_t *b = CP(pos);
    score_t v[MAX_PLAYERS];
    evaluate_all(b, v, t);
    score_t best_other = -SCORE_INF;
    for (int p = 0; p < b->players; p++)
        if (p != b->stm && in_game(b, p) && v[p] > best_other)
            best_other = v[p];
    return best_other == -SCORE_INF ? v[b->stm] : v[b->stm] - best_other;
}

