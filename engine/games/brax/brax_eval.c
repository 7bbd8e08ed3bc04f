/*
 * brax_eval.c: Brax's evaluation (every weight in one place) and the
 * bridge from a position to the solved endings (brax_ending.c). Reads the
 * position and the board; may not change a position.
 */
#include "brax_eval.h"

#include <assert.h>

#include "brax_ending.h"

/* Every weight of the evaluation (a man is 100). */
enum { VAL_MAN = 100, MOBILITY = 3, TO_MOVE_THREAT = 40, HANGING = 25, BRAXED = 15, CENTRE = 4, ADVANCE = 3 };

/* The terms are per team: the sums over its players. The side to move can
 * take one threatened man now (quiescence sees which); the other team must
 * fear for all of them. In the team games the men the side to move has en
 * prise are those the next opponent to move threatens. */
/* Mop-up: a team with a decisive majority (two men more) against at most
 * two men wins by plan, not by horizon: it closes in on each lone man,
 * drives it from the centre and takes its moves away. Without this the
 * search wandered for 200 plies with seven men against one. */
enum { MOPUP_CLOSE = 3, MOPUP_EDGE = 12, MOPUP_SHUT = 6 };

/* How far a man on (r, c) has come from player pl's home edge. */
static int advance(const brax_t *b, int pl, int r, int c)
{
    if (b->variant == V_4P && (pl & 1))
        return pl == 1 ? c : 8 - c; /* West and East */
    if (b->variant == V_4P)
        return pl == 0 ? r : 8 - r; /* South and North */
    return team_of(pl) == RED ? r : 8 - r;
}

/* Men nearer the centre have more lines to choose from, and men that have
 * advanced press the enemy: without this, both sides stand off forever.
 * The value of a man on each point, per player, for the variants with
 * four directions of advance (brax-4p) and with two (the others). */
static int16_t place_value[2][MAX_PLAYERS][N_PTS];

void brax_eval_init(void)
{
    brax_t probe = {0};
    for (int four = 0; four < 2; four++)
        for (int pl = 0; pl < MAX_PLAYERS; pl++)
            for (int p = 0; p < N_PTS; p++) {
                probe.variant = four ? V_4P : V_BRAX;
                int r = p / 9, c = p % 9, dr = r > 4 ? r - 4 : 4 - r, dc = c > 4 ? c - 4 : 4 - c;
                place_value[four][pl][p] =
                    (int16_t)(CENTRE * (4 - (dr > dc ? dr : dc)) + ADVANCE * advance(&probe, pl, r, c));
            }
}

static int placement(const brax_t *b, int pl)
{
    const int16_t *value = place_value[b->variant == V_4P][pl];
    int v = 0;
    for (bb128_t m = b->men[pl]; !bb128_empty(m);)
        v += value[bb128_pop(&m)];
    return v;
}

/* One pass over a player's men for the evaluation: the points they reach
 * (mobility()) and the enemy men they threaten (threats()). */
static int mobility_and_threats(const brax_t *b, int pl, bb128_t *hits)
{
    int t = team_of(pl);
    bb128_t friends = b->team[t], enemy = b->team[t ^ 1], occ = bb128_or(friends, enemy), res = bb128_zero();
    bool dbl = has_double_capture(b);
    int n = 0;
    for (bb128_t m = b->men[pl]; !bb128_empty(m);) {
        int p = bb128_pop(&m);
        bb128_t near = bb128_andnot(brax_step1[p], friends), reach = bb128_zero();
        n += bb128_popcount(near);
        res = bb128_or(res, bb128_and(near, enemy));
        for (int k = 0; k < brax_path_count[p][t]; k++) {
            int mid = brax_path_mid[p][t][k], end = brax_path_end[p][t][k];
            if (!bb128_test(occ, mid)) {
                reach = bb128_or(reach, bb128_bit(end));
            } else if (dbl && bb128_test(enemy, mid) && bb128_test(enemy, end)) {
                res = bb128_or(res, bb128_or(bb128_bit(mid), bb128_bit(end)));
            }
        }
        reach = bb128_andnot(reach, friends);
        n += bb128_popcount(reach);
        res = bb128_or(res, bb128_and(reach, enemy));
    }
    *hits = res;
    return n;
}

/* Points a player's men reach: 1-steps, and 2-steps along the team's colour. */
static int mobility(const brax_t *b, int pl)
{
    bb128_t hits;
    return mobility_and_threats(b, pl, &hits);
}

/* The first player of team t to move after the player to move. */
static int next_of_team(const brax_t *b, int t)
{
    brax_t probe = *b;
    for (int k = 0; k < 4; k++) {
        probe.slot = (uint8_t)brax_next_slot(&probe, bb128_zero());
        int pl = (b->variant == V_3P ? cycle_3p : cycle_4p)[probe.slot];
        if (team_of(pl) == t)
            return pl;
    }
    return t;
}

static int mop_up(const brax_t *b, int strong)
{
    int weak = strong ^ 1, ns = bb128_popcount(b->team[strong]), nw = bb128_popcount(b->team[weak]);
    if (nw == 0 || nw > 2 || ns < nw + 2)
        return 0;
    int v = 0;
    for (bb128_t w = b->team[weak]; !bb128_empty(w);) {
        int p = bb128_pop(&w), r = p / 9, c = p % 9;
        int dr = r > 4 ? r - 4 : 4 - r, dc = c > 4 ? c - 4 : 4 - c;
        v += MOPUP_EDGE * (dr > dc ? dr : dc);
        for (bb128_t m = b->team[strong]; !bb128_empty(m);) {
            int q = bb128_pop(&m), rq = q / 9, cq = q % 9;
            int d = (rq > r ? rq - r : r - rq) + (cq > c ? cq - c : c - cq);
            v += MOPUP_CLOSE * (16 - d);
        }
    }
    for (int pl = 0; pl < b->players; pl++)
        if (team_of(pl) == weak)
            v -= MOPUP_SHUT * mobility(b, pl);
    return v;
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
 * and never evaluates these positions.) */
static int two_against_one(const position_t *pos, const int *v)
{
    const brax_t *b = CP(pos);
    ending_t e;
    if (team_game(b) || bb128_popcount(b->team[RED]) + bb128_popcount(b->team[BLUE]) != 3 ||
        !brax_probe_ending(pos, &e) || e.result != ENDING_DRAW)
        return 0;
    return v[BLUE] - v[RED];
}

score_t brax_evaluate(const position_t *pos, eval_trace_t *t)
{
    const brax_t *b = CP(pos);
    int stm = b->stm, us = team_of(stm), them = us ^ 1;
    int mat[2], mob[2] = {0, 0}, place[2] = {0, 0}, threat[2] = {0, 0}, hanging[2] = {0, 0}, braxed[2] = {0, 0};
    bb128_t hits[MAX_PLAYERS];
    for (int pl = 0; pl < b->players; pl++) {
        mob[team_of(pl)] += MOBILITY * mobility_and_threats(b, pl, &hits[pl]);
        place[team_of(pl)] += placement(b, pl);
    }
    for (int tm = 0; tm < 2; tm++)
        mat[tm] = VAL_MAN * bb128_popcount(b->team[tm]);
    int foe = team_game(b) ? next_of_team(b, them) : stm ^ 1;
    bb128_t foe_hits = hits[foe];
    int ours_hit = bb128_popcount(hits[stm]), theirs_hit = bb128_popcount(bb128_and(foe_hits, b->men[stm]));
    threat[us] = ours_hit ? TO_MOVE_THREAT : 0;
    hanging[them] = -HANGING * ours_hit;
    hanging[us] = -HANGING * (theirs_hit > 1 ? theirs_hit - 1 : 0);
    /* Braxed: bound by a call with threatened men to choose from. */
    bb128_t bound = b->caller >= 0 ? bb128_and(hits[b->caller], b->men[stm]) : bb128_zero();
    if (!bb128_empty(bound))
        braxed[us] = -BRAXED;
    eval_trace_add(t, "material", mat[RED], mat[BLUE]);
    eval_trace_add(t, "mobility", mob[RED], mob[BLUE]);
    eval_trace_add(t, "placement", place[RED], place[BLUE]);
    eval_trace_add(t, "threats", threat[RED], threat[BLUE]);
    eval_trace_add(t, "men en prise", hanging[RED], hanging[BLUE]);
    eval_trace_add(t, "braxed", braxed[RED], braxed[BLUE]);
    int mop[2] = {mop_up(b, RED), mop_up(b, BLUE)};
    eval_trace_add(t, "mop-up", mop[RED], mop[BLUE]);
    int v[2];
    for (int tm = 0; tm < 2; tm++)
        v[tm] = mat[tm] + mob[tm] + place[tm] + threat[tm] + hanging[tm] + braxed[tm] + mop[tm];
    int drawn = two_against_one(pos, v); /* for red */
    eval_trace_add(t, "two against one", drawn, 0);
    v[RED] += drawn;
    return (score_t)(v[us] - v[them]);
}
