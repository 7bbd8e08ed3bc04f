/*
 * brax_eval.c: Brax's evaluation (every weight in one place) and the
 * bridge from a position to the solved endings (brax_ending.c). Reads the
 * position and the board; may not change a position.
 */
#include "brax_eval.h"

#include <assert.h>

#include "../../core/thread.h"
#include "brax_ending.h"

/* Every weight of the evaluation (a man is 100), by name: `eval` shows
 * them with their contributions, a tuner changes them (brax_weights). */
enum {
    W_MAN,
    W_MOBILITY,
    W_TO_MOVE_THREAT,
    W_HANGING,
    W_BRAXED,
    W_CENTRE,
    W_ADVANCE,
    W_MOPUP_CLOSE,
    W_MOPUP_EDGE,
    W_MOPUP_SHUT,
    W_TRADE,
    W_COUNT
};
static eval_weight_t weight[W_COUNT] = {
    [W_MAN] = {"man", 100},
    [W_MOBILITY] = {"mobility", 3},
    /* The side to move can take one threatened man now (quiescence sees
     * which); the other team must fear for all of them. In the team games
     * the men the side to move has en prise are those the next opponent to
     * move threatens. */
    [W_TO_MOVE_THREAT] = {"threat to move", 40},
    [W_HANGING] = {"man en prise", 25},
    [W_BRAXED] = {"braxed", 15},
    /* Men nearer the centre have more lines to choose from, and men that
     * have advanced press the enemy: without these, both sides stand off
     * forever. */
    [W_CENTRE] = {"centre", 4},
    [W_ADVANCE] = {"advance", 3},
    /* Mop-up: a team with a decisive majority (two men more) against at
     * most two men wins by plan, not by horizon: it closes in on each lone
     * man, drives it from the centre and takes its moves away. Without this
     * the search wandered for 200 plies with seven men against one. In the
     * two-player games three against two is mopped up too: the side ahead
     * traded down to it ("trade ahead") and then stood off for 300 plies,
     * while closing in wins most of it (mop_up_needs). */
    [W_MOPUP_CLOSE] = {"mop-up closeness", 3},
    [W_MOPUP_EDGE] = {"mop-up edge", 12},
    [W_MOPUP_SHUT] = {"mop-up shut in", 6},
    /* A lead is worth more the fewer men are left (times the lead, per
     * man off the board): a side ahead trades down towards an ending it
     * can win instead of standing off for ever. Two-player games from
     * the even start only: in brax-hunt the seven would gain by losing men. */
    [W_TRADE] = {"trade ahead", 8},
};
#define W(k) (weight[k].value)

static void fill_tables(void);
eval_weights_t brax_weights = {weight, W_COUNT, fill_tables};

/* How far a man on (r, c) has come from player pl's home edge. */
static int advance(const brax_t *b, int pl, int r, int c)
{
    if (b->variant == V_4P && (pl & 1))
        return pl == 1 ? c : 8 - c; /* West and East */
    if (b->variant == V_4P)
        return pl == 0 ? r : 8 - r; /* South and North */
    return team_of(pl) == RED ? r : 8 - r;
}

/* How near the centre a point is: 4 on e5, 0 on the edge. */
static int centre_of(int p)
{
    int r = p / 9, c = p % 9, dr = r > 4 ? r - 4 : 4 - r, dc = c > 4 ? c - 4 : 4 - c;
    return 4 - (dr > dc ? dr : dc);
}

/* The value of a man on each point (its centre and advance weighted), per
 * player, for the variants with four directions of advance (brax-4p) and
 * with two (the others); rebuilt when the weights change. */
static int16_t place_value[2][MAX_PLAYERS][N_PTS];

static void fill_tables(void)
{
    brax_t probe = {0};
    for (int four = 0; four < 2; four++)
        for (int pl = 0; pl < MAX_PLAYERS; pl++)
            for (int p = 0; p < N_PTS; p++) {
                probe.variant = four ? V_4P : V_BRAX;
                place_value[four][pl][p] =
                    (int16_t)(W(W_CENTRE) * centre_of(p) + W(W_ADVANCE) * advance(&probe, pl, p / 9, p % 9));
            }
}

static thr_once_t tables_once = THR_ONCE_INIT;
void brax_eval_ensure(void) { thr_once(&tables_once, fill_tables); }

static int placement(const brax_t *b, int pl, eval_trace_t *t)
{
    const int16_t *value = place_value[b->variant == V_4P][pl];
    int v = 0;
    for (bb128_t m = b->men[pl]; !bb128_empty(m);)
        v += value[bb128_pop(&m)];
    for (bb128_t m = t ? b->men[pl] : bb128_zero(); !bb128_empty(m);) {
        int p = bb128_pop(&m);
        eval_trace_coef(t, W_CENTRE, team_of(pl), centre_of(p));
        eval_trace_coef(t, W_ADVANCE, team_of(pl), advance(b, pl, p / 9, p % 9));
    }
    return v;
}

#ifndef NDEBUG
static int mobility_and_threats_slow(const brax_t *b, int pl, bb128_t *hits);
#endif

/* One pass over a player's men for the evaluation: the points they reach
 * (mobility()) and the enemy men they threaten (threats()), all men at
 * once (brax_men_mobility); the debug builds check it man by man. */
static int mobility_and_threats(const brax_t *b, int pl, bb128_t *hits)
{
    int n = brax_men_mobility(b, pl, hits);
#ifndef NDEBUG
    bb128_t slow_hits;
    assert(n == mobility_and_threats_slow(b, pl, &slow_hits) && bb128_eq(*hits, slow_hits));
#endif
    return n;
}

#ifndef NDEBUG
static int mobility_and_threats_slow(const brax_t *b, int pl, bb128_t *hits)
{
    int t = team_of(pl);
    bb128_t friends = b->team[t], enemy = b->team[t ^ 1], occ = bb128_or(friends, enemy), res = bb128_zero();
    bool dbl = has_double_capture(b);
    int n = 0;
    for (bb128_t m = b->men[pl]; !bb128_empty(m);) {
        int p = bb128_pop(&m);
        bb128_t reach = brax_reach_at[brax_two_index(p, t, occ)]; /* 1-steps and 2-steps */
        n += bb128_popcount(bb128_andnot(reach, friends));
        res = bb128_or(res, bb128_and(reach, enemy));
        if (!dbl)
            continue;
        /* Both men of a double capture: an enemy middle, an enemy end. */
        for (bb128_t mids = bb128_and(brax_adj_col[p][t], enemy); !bb128_empty(mids);) {
            int mid = bb128_pop(&mids);
            bb128_t ends = bb128_and(brax_adj_col[mid][t], enemy);
            if (!bb128_empty(ends))
                res = bb128_or(res, bb128_or(bb128_bit(mid), ends));
        }
    }
    *hits = res;
    return n;
}

#endif

/* Points a player's men reach: 1-steps, and 2-steps along the team's colour. */
static int mobility(const brax_t *b, int pl)
{
    bb128_t hits;
    return mobility_and_threats(b, pl, &hits);
}

/* The first player of team t to move after the player to move. */
static int next_of_team(const brax_t *b, int t)
{
    /* The turn cycle's next slots, those without men skipped (settled 5). */
    const uint8_t *cycle = b->variant == V_3P ? cycle_3p : cycle_4p;
    for (int k = 1; k <= 4; k++) {
        int pl = cycle[(b->slot + k) & 3];
        if (team_of(pl) == t && !bb128_empty(b->men[pl]))
            return pl;
    }
    return t;
}

/* The men a team needs to mop up nw men (at most two): two more, or three
 * against two in the two-player games. Not five against three: closing in
 * there lost games that trading down to three against two won. */
static int mop_up_needs(const brax_t *b, int nw)
{
    return nw == 2 && !team_game(b) ? 3 : nw + 2;
}

/* Does a team of ns men mop up one of nw? Apart from mop_up(), which is
 * seldom needed, so that the evaluation calls it only then. */
static inline bool mop_up_applies(const brax_t *b, int ns, int nw)
{
    return nw > 0 && nw <= 2 && ns >= mop_up_needs(b, nw);
}

static int mop_up(const brax_t *b, int strong, eval_trace_t *t)
{
    int weak = strong ^ 1;
    assert(mop_up_applies(b, bb128_popcount(b->team[strong]), bb128_popcount(b->team[weak])));
    int edge = 0, close = 0, shut = 0;
    for (bb128_t w = b->team[weak]; !bb128_empty(w);) {
        int p = bb128_pop(&w), r = p / 9, c = p % 9;
        edge += 4 - centre_of(p);
        for (bb128_t m = b->team[strong]; !bb128_empty(m);) {
            int q = bb128_pop(&m), rq = q / 9, cq = q % 9;
            int d = (rq > r ? rq - r : r - rq) + (cq > c ? cq - c : c - cq);
            close += 16 - d;
        }
    }
    for (int pl = 0; pl < b->players; pl++)
        if (team_of(pl) == weak)
            shut += mobility(b, pl);
    eval_trace_coef(t, W_MOPUP_EDGE, strong, edge);
    eval_trace_coef(t, W_MOPUP_CLOSE, strong, close);
    eval_trace_coef(t, W_MOPUP_SHUT, strong, -shut);
    return W(W_MOPUP_EDGE) * edge + W(W_MOPUP_CLOSE) * close - W(W_MOPUP_SHUT) * shut;
}

/* The lead times the men off the board, for the side ahead; seven men a
 * side at the start (a position set up with more counts none off). */
static inline int trade_ahead(const brax_t *b, int strong, int ns, int nw, eval_trace_t *t)
{
    if (team_game(b) || b->variant == V_HUNT || ns <= nw)
        return 0;
    int off = ns + nw < 14 ? 14 - ns - nw : 0, coef = (ns - nw) * off;
    eval_trace_coef(t, W_TRADE, strong, coef);
    return W(W_TRADE) * coef;
}

/* ---- solved endings ---- */

/* The two-player games' smallest endings, solved (brax_ending.c): two men
 * against one, and one against one with its quiet plies. No call can be
 * made in them; a position parsed with one pending is not probed. */
bool brax_probe_ending(const position_t *pos, ending_t *out)
{
    const brax_t *b = CP(pos);
    assert(!team_game(b));
    if (b->caller >= 0)
        return false;
    int red = bb128_popcount(b->team[RED]), blue = bb128_popcount(b->team[BLUE]);
    if (red == 1 && blue == 1) {
        *out = brax_ending_probe_one(b->stm, bb128_lsb(b->team[b->stm]), bb128_lsb(b->team[b->stm ^ 1]), b->quiet);
        return true;
    }
    if (red + blue != 3 || red == 0 || blue == 0)
        return false;
    int strong = red == 2 ? RED : BLUE;
    bb128_t men = b->team[strong];
    int two[2];
    two[0] = bb128_pop(&men);
    two[1] = bb128_pop(&men);
    return brax_ending_probe(has_double_capture(b), strong, two, bb128_lsb(b->team[strong ^ 1]), b->stm != strong, out);
}

/* Two men against one is mostly drawn (84% of the positions with the two
 * men to move, 99% with the lone man to move): where the table says so,
 * the evaluation gives the two men no margin at all, so that the `eval` of
 * a drawn ending shows a draw, not a man up. (The search probes the table
 * and never evaluates these positions.) Only once the table is built:
 * an evaluation never builds it (game_t.prepare does), so that a search
 * started before it is built never waits for it. */
static int two_against_one(const position_t *pos, const int *v)
{
    const brax_t *b = CP(pos);
    ending_t e;
    if (team_game(b) || bb128_popcount(b->team[RED]) + bb128_popcount(b->team[BLUE]) != 3 ||
        !brax_ending_ready(has_double_capture(b)) || !brax_probe_ending(pos, &e) || e.result != ENDING_DRAW)
        return 0;
    return v[BLUE] - v[RED];
}

/* The team games' mobility, and the threats their evaluation reads: the
 * side to move's, and those of `foe` and of the caller on the side to
 * move's men (hits[pl] holds at least those). Each team's men are counted
 * at once (brax_team_mobility), and only those threats found. Out of line,
 * so that the two-player evaluation stays as lean as before. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void team_mobility(const brax_t *b, int foe, int *mob, bb128_t *hits, eval_trace_t *t)
{
    int reach[2];
    for (int tm = 0; tm < 2; tm++) {
        reach[tm] = brax_team_mobility(b, tm);
        mob[tm] = W(W_MOBILITY) * reach[tm];
        eval_trace_coef(t, W_MOBILITY, tm, reach[tm]);
    }
    bb128_t ours = b->men[b->stm];
    hits[b->stm] = brax_men_hits(b, b->stm, b->team[team_of(b->stm) ^ 1]);
    hits[foe] = brax_men_hits(b, foe, ours);
    if (b->caller >= 0 && b->caller != foe)
        hits[b->caller] = brax_men_hits(b, b->caller, ours);
#ifndef NDEBUG
    int sum[2] = {0, 0};
    for (int pl = 0; pl < b->players; pl++) {
        bb128_t slow_hits;
        sum[team_of(pl)] += mobility_and_threats(b, pl, &slow_hits);
        assert(pl != b->stm || bb128_eq(hits[pl], slow_hits));
        assert(!(pl == foe || pl == b->caller) || bb128_eq(hits[pl], bb128_and(slow_hits, ours)));
    }
    assert(sum[0] == reach[0] && sum[1] == reach[1]);
#endif
}

score_t brax_evaluate(const position_t *pos, eval_trace_t *t)
{
    const brax_t *b = CP(pos);
    int stm = b->stm, us = team_of(stm), them = us ^ 1;
    int mat[2], mob[2] = {0, 0}, place[2] = {0, 0}, threat[2] = {0, 0}, hanging[2] = {0, 0}, braxed[2] = {0, 0};
    int foe = team_game(b) ? next_of_team(b, them) : stm ^ 1;
    bb128_t hits[MAX_PLAYERS];
    if (team_game(b))
        team_mobility(b, foe, mob, hits, t);
    for (int pl = 0; pl < b->players; pl++) {
        if (!team_game(b)) {
            int reach = mobility_and_threats(b, pl, &hits[pl]);
            mob[team_of(pl)] += W(W_MOBILITY) * reach;
            eval_trace_coef(t, W_MOBILITY, team_of(pl), reach);
        }
        place[team_of(pl)] += placement(b, pl, t);
    }
    int men[2] = {bb128_popcount(b->team[RED]), bb128_popcount(b->team[BLUE])};
    for (int tm = 0; tm < 2; tm++) {
        mat[tm] = W(W_MAN) * men[tm];
        eval_trace_coef(t, W_MAN, tm, men[tm]);
    }
    bb128_t foe_hits = hits[foe];
    int ours_hit = bb128_popcount(hits[stm]), theirs_hit = bb128_popcount(bb128_and(foe_hits, b->men[stm]));
    int ours_at_risk = theirs_hit > 1 ? theirs_hit - 1 : 0;
    threat[us] = ours_hit ? W(W_TO_MOVE_THREAT) : 0;
    hanging[them] = -W(W_HANGING) * ours_hit;
    hanging[us] = -W(W_HANGING) * ours_at_risk;
    eval_trace_coef(t, W_TO_MOVE_THREAT, us, ours_hit ? 1 : 0);
    eval_trace_coef(t, W_HANGING, them, -ours_hit);
    eval_trace_coef(t, W_HANGING, us, -ours_at_risk);
    /* Braxed: bound by a call with threatened men to choose from. */
    bb128_t bound = b->caller >= 0 ? bb128_and(hits[b->caller], b->men[stm]) : bb128_zero();
    if (!bb128_empty(bound)) {
        braxed[us] = -W(W_BRAXED);
        eval_trace_coef(t, W_BRAXED, us, -1);
    }
    eval_trace_add(t, "material", mat[RED], mat[BLUE]);
    eval_trace_add(t, "mobility", mob[RED], mob[BLUE]);
    eval_trace_add(t, "placement", place[RED], place[BLUE]);
    eval_trace_add(t, "threats", threat[RED], threat[BLUE]);
    eval_trace_add(t, "men en prise", hanging[RED], hanging[BLUE]);
    eval_trace_add(t, "braxed", braxed[RED], braxed[BLUE]);
    int mop[2] = {0, 0};
    for (int tm = 0; tm < 2; tm++)
        if (mop_up_applies(b, men[tm], men[tm ^ 1]))
            mop[tm] = mop_up(b, tm, t);
    eval_trace_add(t, "mop-up", mop[RED], mop[BLUE]);
    int trade[2] = {trade_ahead(b, RED, men[RED], men[BLUE], t), trade_ahead(b, BLUE, men[BLUE], men[RED], t)};
    eval_trace_add(t, "trade ahead", trade[RED], trade[BLUE]);
    int v[2];
    for (int tm = 0; tm < 2; tm++)
        v[tm] = mat[tm] + mob[tm] + place[tm] + threat[tm] + hanging[tm] + braxed[tm] + mop[tm] + trade[tm];
    int drawn = two_against_one(pos, v); /* for red */
    eval_trace_add(t, "two against one", drawn, 0);
    eval_trace_fixed(t, RED, drawn);
    v[RED] += drawn;
    return (score_t)(v[us] - v[them]);
}
