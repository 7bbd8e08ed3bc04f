/*
 * jinxx_eval.c: Jinxx's evaluation, with every weight: each player's value
 * (the centre, lines, pyramids kept, tops it can take or lose, the sizes of
 * its tops, the odds of completing a line on the next rolls),
 * for the paranoid and Best-Reply searches and for two players. Reads the
 * position; may not change it.
 */
#include "jinxx_eval.h"

/* Every weight of the evaluation, by name: `eval` shows them with their
 * contributions, a tuner changes them (jinxx_weights). Fitted by `denham
 * tune` to two-player self-play of 351dbba (`denham datagen --variant
 * jinxx`: 95,643 positions of 12,000 games at --nodes 20000, seed 33, and
 * 30,971 of 4,000 at --nodes 60000, seed 36); the first eight were set by
 * hand at first (the values in the comments), then fitted to 64,661
 * positions at 20,000 nodes. The same table serves three and four players.
 * The centre is negative: in play the centre top, next to every cell, is
 * the one most often struck. */
enum {
    W_CENTRE,
    W_LINE_TWO,
    W_LINE_ONE,
    W_PYRAMID,
    W_DANGER,
    W_STRIKE,
    W_EXPOSED,
    W_WIN_ODDS,
    W_COVER,
    W_COVERED,
    W_SMALL_TOP,
    W_LARGE_TOP,
    W_LATER_ODDS,
    W_COUNT
};
static eval_weight_t weight[W_COUNT] = {
    [W_CENTRE] = {"centre", -69},       /* was 40: the centre top, on every line */
    [W_LINE_TWO] = {"line of two", 89}, /* was 70: two of a line's three tops, the third open to us */
    [W_LINE_ONE] = {"line of one", 32}, /* was 10 */
    [W_PYRAMID] = {"pyramid", 165},     /* was 12: each pyramid kept */
    [W_DANGER] = {"danger", 115},       /* was 120: each pyramid fewer than five: vaporization nears */
    [W_STRIKE] = {"can destroy", 62},   /* was 25: a top of ours that can destroy an enemy top now */
    [W_EXPOSED] = {"exposed", 55},      /* was 15: a top of ours an enemy top can destroy */
    [W_WIN_ODDS] = {"win odds", 55},    /* was 120: the next roller, times the faces (of six) completing a line */
    [W_COVER] = {"can cover", 12},      /* an enemy top a smaller pyramid of ours can land on now */
    [W_COVERED] = {"coverable", 12},    /* a top of ours a smaller enemy pyramid can land on */
    [W_SMALL_TOP] = {"small top", 71},  /* a top S of ours: only an S can take it */
    [W_LARGE_TOP] = {"large top", 39},  /* a top L of ours (an M top is neither) */
    [W_LATER_ODDS] = {"later odds", 82}, /* the others than the next roller, times their faces completing a line */
};
#define W(k) (weight[k].value)

eval_weights_t jinxx_weights = {weight, W_COUNT, NULL};

/* What every player's terms read, worked out once per evaluation: where
 * each size may land, where it lands on a larger top, and per player its
 * tops, the edge cells of the trees holding each size, and the cells it
 * can land each size on next turn (reach()). */
typedef struct eval_board {
    unsigned land[3], cover[3];
    unsigned top[MAX_PLAYERS], tree[MAX_PLAYERS][3], reached[MAX_PLAYERS][3];
    unsigned all_tops; /* a cell's top is one player's: the tops of the others are all_tops & ~top[p] */
} eval_board_t;

/* The sizes with which player p could complete a line on its next move: a
 * top pyramid of p's, from outside the line, or one from p's tree, landing
 * on the line's one cell whose top is not p's. */
static unsigned line_sizes(const jinxx_t *b, const eval_board_t *e, int p)
{
    unsigned sizes = 0, mine = e->top[p];
    for (unsigned short_lines = jinxx_lines_one_short[mine]; short_lines; short_lines &= short_lines - 1) {
        int l = __builtin_ctz(short_lines), c = __builtin_ctz(lines[l] & ~mine);
        for (int s = 0; s < 3; s++) {
            if (!((e->land[s] >> c) & 1))
                continue;
            unsigned from = mine & b->occ[p][s] & jinxx_adjacent[c] & ~lines[l];
            if (from || ((e->tree[p][s] >> c) & 1))
                sizes |= 1u << s;
        }
    }
    return sizes;
}

/* The player whose roll comes next: the player to move before its roll,
 * the next one after it. */
int next_roller(const jinxx_t *b) { return b->die == 0 ? b->stm : jinxx_next_player(b); }

/* How many of the six faces allow one of `sizes` (a set of the three
 * sizes): the die's odds. Each size shows on three faces, two sizes on
 * five, all three on six. */
static const uint8_t faces_allowing[8] = {0, 3, 3, 5, 3, 5, 5, 6};

/* Cells where player p could land a top pyramid of size s next turn: the
 * neighbours of p's tops of size s, and the edge cells of trees holding s.
 * Every size shows on three of the six faces, so each such move comes with
 * even odds; the terms below are weighted with that in mind. */
static unsigned reach(const jinxx_t *b, const eval_board_t *e, int p, int s)
{
    return (jinxx_adjacent_to[e->top[p] & b->occ[p][s]] | e->tree[p][s]) & e->land[s];
}

static void eval_board(const jinxx_t *b, eval_board_t *e)
{
    for (int s = 0; s < 3; s++) {
        e->land[s] = landable(b, s);
        unsigned larger = 0; /* an s lands on a larger top where no s stands (it would strike that instead) */
        for (int bigger = s + 1; bigger < 3; bigger++)
            larger |= b->sizes[bigger];
        e->cover[s] = larger & ~b->sizes[s];
    }
    /* Only the seated players' entries are read. */
    e->all_tops = 0;
    for (int p = 0; p < b->players; p++) {
        uint32_t trees = tree_cells(b, p);
        e->top[p] = tops(b, p);
        e->all_tops |= e->top[p];
        bool in = in_game(b, p);
        for (int s = 0; s < 3; s++) {
            e->tree[p][s] = trees >> 9 * s & ALL_CELLS;
            e->reached[p][s] = in ? reach(b, e, p, s) : 0;
        }
    }
}

/* Where one player's reach meets the others' tops, and theirs meets its
 * own: a top of size s falls to an equal pyramid landing on it (destroyed)
 * or to a smaller one (covered); both take the cell from its owner. */
typedef struct contact {
    int strikes, covers;        /* enemy tops p can destroy, cover */
    int exposures, coverables;  /* p's tops an enemy can destroy, cover (once per enemy) */
} contact_t;

static contact_t contacts(const jinxx_t *b, const eval_board_t *e, int p)
{
    contact_t c = {0};
    unsigned enemy_tops = e->all_tops & ~e->top[p];
    for (int s = 0; s < 3; s++) {
        unsigned mine = e->top[p] & b->occ[p][s], coverable = e->top[p] & e->cover[s];
        c.strikes += popcount9(e->reached[p][s] & enemy_tops & b->sizes[s]);
        c.covers += popcount9(e->reached[p][s] & enemy_tops & e->cover[s]);
        for (int q = 0; q < b->players; q++)
            if (q != p) {
                c.exposures += popcount9(e->reached[q][s] & mine);
                c.coverables += popcount9(e->reached[q][s] & coverable);
            }
    }
    return c;
}

/* Each player's value: the sum of its terms, recorded in the trace. */
static void evaluate_all(const jinxx_t *b, score_t value[MAX_PLAYERS], eval_trace_t *t)
{
    eval_board_t e;
    eval_board(b, &e);
    for (int p = 0; p < MAX_PLAYERS; p++)
        value[p] = 0;
    int roller = next_roller(b);
    for (int p = 0; p < b->players; p++) {
        if (!in_game(b, p))
            continue;
        unsigned top = e.top[p];
        int at_centre = top >> CENTRE & 1, twos = jinxx_line_counts[top] & 15, ones = jinxx_line_counts[top] >> 4;
        int left = pyramids_of(b, p), short_of = left < 5 ? 5 - left : 0;
        contact_t c = contacts(b, &e, p);
        /* An S top can only be destroyed (by an S), an L top also covered
         * by either smaller size. */
        int small_tops = popcount9(top & b->sizes[SZ_S]);
        int large_tops = popcount9(top & b->sizes[SZ_L] & ~(b->sizes[SZ_S] | b->sizes[SZ_M]));
        /* The next player to roll gets the die's odds before anyone can
         * answer; the others' odds wait a turn, which may block them. */
        int all_faces = faces_allowing[line_sizes(b, &e, p)];
        int faces = p == roller ? all_faces : 0, later_faces = all_faces - faces;
        int centre = W(W_CENTRE) * at_centre, line = W(W_LINE_TWO) * twos + W(W_LINE_ONE) * ones;
        int material = W(W_PYRAMID) * left - W(W_DANGER) * short_of;
        int strike = W(W_STRIKE) * c.strikes, exposed = -W(W_EXPOSED) * c.exposures;
        int cover = W(W_COVER) * c.covers - W(W_COVERED) * c.coverables;
        int size = W(W_SMALL_TOP) * small_tops + W(W_LARGE_TOP) * large_tops;
        int odds = W(W_WIN_ODDS) * faces, later = W(W_LATER_ODDS) * later_faces;
        if (t) {
            const int coef[W_COUNT] = {at_centre, twos, ones, left, -short_of, c.strikes, -c.exposures, faces,
                                       c.covers, -c.coverables, small_tops, large_tops, later_faces};
            for (int k = 0; k < W_COUNT; k++)
                eval_trace_coef(t, k, p, coef[k]);
            eval_trace_set(t, "win odds", p, odds);
            eval_trace_set(t, "later odds", p, later);
            eval_trace_set(t, "centre", p, centre);
            eval_trace_set(t, "lines", p, line);
            eval_trace_set(t, "pyramids", p, material);
            eval_trace_set(t, "can destroy", p, strike);
            eval_trace_set(t, "exposed", p, exposed);
            eval_trace_set(t, "cover", p, cover);
            eval_trace_set(t, "top sizes", p, size);
        }
        value[p] = (score_t)(centre + line + material + strike + exposed + cover + size + odds + later);
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

