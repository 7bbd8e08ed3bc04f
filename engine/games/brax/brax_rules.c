/*
 * brax_rules.c: the moves of every Brax variant on 128-bit bitboards:
 * generation with the calls, legality, and counting them without a list
 * (perft's last ply, the evaluation's mobility). Reads the board from
 * brax_geometry; playing a move, the hash keys and the end of the game are
 * brax_play.c's. May not reach into the evaluation or the text.
 *
 * One file plays the two-player games and the team games (brax-3p,
 * brax-4p): every rule is written for "player pl of team pl & 1" (see
 * brax_rules.h). In the two-player games each team is one player, so
 * the same code is the old two-sided code and the hash of a two-player
 * position is unchanged.
 */
#include "brax_rules.h"

#include <assert.h>
#include <string.h>



#if defined(__GNUC__)
/* A 128-bit set as one vector register, where the compiler has them: the
 * sets of routes_count then fit in registers (as two words they did not). */
typedef uint64_t v128_t __attribute__((vector_size(16)));
static inline v128_t v_of(bb128_t b) { return (v128_t){b.lo, b.hi}; }
static inline v128_t v_step(v128_t s, int d, v128_t exit)
{
    s &= exit;
    switch (d) {
    case 0: return (s << 9) | ((v128_t){0, s[0]} >> 55);
    case 1: return (s >> 9) | ((v128_t){s[1], 0} << 55);
    case 2: return (s << 1) | ((v128_t){0, s[0]} >> 63);
    default: return (s >> 1) | ((v128_t){s[1], 0} << 63);
    }
}
static inline int v_popcount(v128_t x) { return __builtin_popcountll(x[0]) + __builtin_popcountll(x[1]); }

#endif

/* Men of the other team that player pl could capture if it were pl's turn
 * (settled point 1: a player's own threats, not its partner's). */
/* Both men of every double capture of a man of team t on p: an enemy
 * middle with an enemy end beyond it. */
static bb128_t double_victims(int p, int t, bb128_t enemy)
{
    bb128_t res = bb128_zero();
    for (bb128_t mids = bb128_and(brax_adj_col[p][t], enemy); !bb128_empty(mids);) {
        int mid = bb128_pop(&mids);
        bb128_t ends = bb128_and(brax_adj_col[mid][t], enemy);
        if (!bb128_empty(ends))
            res = bb128_or(res, bb128_or(bb128_bit(mid), ends));
    }
    return res;
}

static bb128_t threats(const brax_t *b, int pl)
{
    int t = team_of(pl);
    bb128_t enemy = b->team[t ^ 1], occ = bb128_or(b->team[t], enemy), res = bb128_zero();
    bool dbl = has_double_capture(b);
    for (bb128_t m = b->men[pl]; !bb128_empty(m);) {
        int p = bb128_pop(&m);
        res = bb128_or(res, bb128_and(brax_reach_at[brax_two_index(p, t, occ)], enemy));
        if (dbl)
            res = bb128_or(res, double_victims(p, t, enemy));
    }
    return res;
}

/* Do the men `own` of a player of team t threaten a man in `victims` (men
 * of the other team), with `friends` and `enemy` the teams' men? threats()
 * without building the set, on boards given apart from a position, so that
 * a move's call can be judged without making it. */
static bool any_threat(bb128_t own, int t, bb128_t friends, bb128_t enemy, bb128_t victims, bool dbl)
{
    bb128_t occ = bb128_or(friends, enemy);
    for (bb128_t m = own; !bb128_empty(m);) {
        int p = bb128_pop(&m);
        if (!bb128_empty(bb128_and(brax_reach_at[brax_two_index(p, t, occ)], victims)))
            return true;
        if (dbl && !bb128_empty(bb128_and(double_victims(p, t, enemy), victims)))
            return true;
    }
    return false;
}

/* The points within two steps of a man of `men`, outside which no man
 * threatens one of them. */
static bb128_t near_men(bb128_t men)
{
#if defined(__GNUC__)
    v128_t res = v_of(men), en = v_of(brax_exit[0]), es = v_of(brax_exit[1]), ee = v_of(brax_exit[2]),
           ew = v_of(brax_exit[3]);
    for (int k = 0; k < 2; k++) /* one step more, twice */
        res |= v_step(res, 0, en) | v_step(res, 1, es) | v_step(res, 2, ee) | v_step(res, 3, ew);
    return (bb128_t){res[0], res[1]};
#else
    bb128_t res = men;
    for (int k = 0; k < 2; k++)
        res = bb128_or(bb128_or(res, bb128_or(brax_step_any(res, 0), brax_step_any(res, 1))),
                       bb128_or(brax_step_any(res, 2), brax_step_any(res, 3)));
    return res;
#endif
}

#ifndef NDEBUG
/* The two-player mover's men that threaten an enemy man, tested man by man:
 * what quiet_calls_of() finds by threat_points(). */
static bb128_t steady_men(const brax_t *b, bb128_t enemy_near)
{
    int t = team_of(b->stm);
    bb128_t out = bb128_zero();
    for (bb128_t m = bb128_and(b->men[b->stm], enemy_near); !bb128_empty(m);) {
        int p = bb128_pop(&m);
        if (any_threat(bb128_bit(p), t, b->team[t], b->team[t ^ 1], b->team[t ^ 1], has_double_capture(b)))
            out = bb128_or(out, bb128_bit(p));
    }
    return out;
}
#endif

/* Moves of player pl's men in `from_set`, without calls. */
static int gen_plain(const brax_t *b, int pl, bb128_t from_set, move_t *moves)
{
    int t = team_of(pl), n = 0;
    bb128_t friends = b->team[t], enemy = b->team[t ^ 1], occ = bb128_or(friends, enemy);
    bool dbl = has_double_capture(b);
    for (bb128_t m = from_set; !bb128_empty(m);) {
        int p = bb128_pop(&m);
        for (bb128_t to_set = bb128_andnot(brax_step1[p], friends); !bb128_empty(to_set);) {
            int to = bb128_pop(&to_set);
            moves[n++] = encode(p, to, -1) | (bb128_test(enemy, to) ? MOVE_CAPTURE : 0);
        }
        if (!dbl || bb128_empty(bb128_and(brax_adj_col[p][t], enemy))) {
            /* No double capture: the 2-steps over free middles, from the table. */
            int idx = brax_two_index(p, t, occ);
            for (int k = 0; k < brax_two_count[idx]; k++) {
                int end = brax_two_list[idx][k];
                if (!bb128_test(friends, end))
                    moves[n++] = encode(p, end, -1) | (bb128_test(enemy, end) ? MOVE_CAPTURE : 0);
            }
            continue;
        }
        bb128_t reached = bb128_zero();
        for (int k = 0; k < brax_path_count[p][t]; k++) {
            int mid = brax_path_mid[p][t][k], end = brax_path_end[p][t][k];
            if (!bb128_test(occ, mid)) {
                /* Two paths to one end are one move. */
                if (bb128_test(friends, end) || bb128_test(reached, end))
                    continue;
                reached = bb128_or(reached, bb128_bit(end));
                moves[n++] = encode(p, end, -1) | (bb128_test(enemy, end) ? MOVE_CAPTURE : 0);
            } else if (bb128_test(enemy, mid) && bb128_test(enemy, end)) {
                moves[n++] = encode(p, end, mid) | MOVE_CAPTURE;
            }
        }
    }
    return n;
}

/* The captures among gen_plain's moves, in gen_plain's order, without
 * listing the rest: the search's first stage and quiescence want only
 * these, and most of a man's moves capture nothing. */
static int gen_plain_captures(const brax_t *b, int pl, bb128_t from_set, move_t *moves)
{
    int t = team_of(pl), n = 0;
    bb128_t friends = b->team[t], enemy = b->team[t ^ 1], occ = bb128_or(friends, enemy);
    bool dbl = has_double_capture(b);
    for (bb128_t m = from_set; !bb128_empty(m);) {
        int p = bb128_pop(&m);
        for (bb128_t to_set = bb128_and(brax_step1[p], enemy); !bb128_empty(to_set);)
            moves[n++] = encode(p, bb128_pop(&to_set), -1) | MOVE_CAPTURE;
        if (!dbl || bb128_empty(bb128_and(brax_adj_col[p][t], enemy))) {
            int idx = brax_two_index(p, t, occ);
            if (bb128_empty(bb128_andnot(bb128_and(brax_reach_at[idx], enemy), brax_step1[p])))
                continue;
            for (int k = 0; k < brax_two_count[idx]; k++)
                if (bb128_test(enemy, brax_two_list[idx][k]))
                    moves[n++] = encode(p, brax_two_list[idx][k], -1) | MOVE_CAPTURE;
            continue;
        }
        bb128_t reached = bb128_zero();
        for (int k = 0; k < brax_path_count[p][t]; k++) {
            int mid = brax_path_mid[p][t][k], end = brax_path_end[p][t][k];
            if (!bb128_test(enemy, end))
                continue;
            if (!bb128_test(occ, mid)) {
                if (!bb128_test(reached, end)) {
                    reached = bb128_or(reached, bb128_bit(end));
                    moves[n++] = encode(p, end, -1) | MOVE_CAPTURE;
                }
            } else if (bb128_test(enemy, mid)) {
                moves[n++] = encode(p, end, mid) | MOVE_CAPTURE;
            }
        }
    }
    return n;
}

#ifndef NDEBUG
/* gen_plain's captures by filtering its list (the debug builds check
 * gen_plain_captures against it). */
static int gen_plain_captures_slow(const brax_t *b, int pl, bb128_t from_set, move_t *moves)
{
    move_t all[MAX_MOVES];
    int n = gen_plain(b, pl, from_set, all), k = 0;
    for (int i = 0; i < n; i++)
        if (all[i] & MOVE_CAPTURE)
            moves[k++] = all[i];
    return k;
}
#endif

/* Has one of the men `set` of player pl a move: gen_plain(set) > 0? */
static bool men_can_move(const brax_t *b, int pl, bb128_t set)
{
    int t = team_of(pl);
    bb128_t friends = b->team[t], enemy = b->team[t ^ 1], occ = bb128_or(friends, enemy);
    for (bb128_t m = set; !bb128_empty(m);) {
        int p = bb128_pop(&m);
        bb128_t to = brax_reach_at[brax_two_index(p, t, occ)];
        if (!bb128_empty(bb128_andnot(to, friends)) ||
            (has_double_capture(b) && !bb128_empty(double_victims(p, t, enemy))))
            return true;
    }
    return false;
}

/* The men the side to move must choose from after a call, or empty. */
bb128_t brax_forced_men(const brax_t *b)
{
    if (b->caller < 0)
        return bb128_zero();
    return bb128_and(threats(b, b->caller), b->men[b->stm]);
}

/* Could player pl move at all, were it its turn (settled point 6)? */
static bool can_move(const brax_t *b, int pl)
{
    move_t moves[MAX_MOVES];
    return !bb128_empty(b->men[pl]) && gen_plain(b, pl, b->men[pl], moves) > 0;
}

/* Are the men of a and of b more than `rows` rows apart? Neither is empty. */
static inline bool rows_apart(bb128_t a, bb128_t b, int rows)
{
    assert(!bb128_empty(a) && !bb128_empty(b));
    if (bb128_lsb(b) / 9 - bb128_msb(a) / 9 > rows) /* rows: index / 9 */
        return true;
    return bb128_lsb(a) / 9 - bb128_msb(b) / 9 > rows;
}

/* Are the teams more than four rows apart? A move spans at most two rows
 * and so does a threat, so then no man captures and none threatens after
 * any move: no capture and no call this ply. Both teams have men. Perft
 * from the start counts little else (88% of perft 7's counted positions),
 * and the search's first plies the same. */
static inline bool teams_apart(const brax_t *b) { return rows_apart(b->team[RED], b->team[BLUE], 4); }

/* Can the player to move call at all this turn, whatever the move? */
static bool calls_possible(const brax_t *b)
{
    if (b->variant == V_EASY || blue_first_of_two(b))
        return false;
    /* Not on the team's turn right after its call. */
    return b->variant == V_ZILLIONS || !(b->called & (1u << team_of(b->stm)));
}

/* Do the men on each side after a move allow a call at all (the rules'
 * "Brax" call: never while one side has one man and the other one or two;
 * in Zillions, the caller two or more and the opponent three or more)? */
static bool counts_allow_call(const brax_t *b, int n_own, int n_other)
{
    if (b->variant == V_ZILLIONS)
        return n_own >= 2 && n_other >= 3;
    return !((n_own == 1 && n_other <= 2) || (n_other == 1 && n_own <= 2));
}

/* May the player to move of b add a call to m? Judged on the position after
 * m (settled points 1-4 and 8 in the team games), built from the boards the
 * move changes rather than by making it: this runs for every move.
 * `steady`, when not NULL (two-player games), holds the mover's men that
 * threaten an enemy man before the move: a move changes no threat of a man
 * more than two steps from every point it touches, so only the men near
 * those points are tested again. enemy_near: the points within two steps
 * of an enemy man, outside which no man threatens anything. */
static bool call_allowed(const brax_t *b, move_t m, const bb128_t *steady, bb128_t enemy_near)
{
    int pl = b->stm, t = team_of(pl);
    bb128_t moved = bb128_zero(), taken = bb128_zero();
    if (!(m & MOVE_PASS)) {
        moved = bb128_or(bb128_bit(move_from(m)), bb128_bit(move_to(m)));
        taken = bb128_and(b->team[t ^ 1], bb128_bit(move_to(m)));
        if (move_mid(m) >= 0)
            taken = bb128_or(taken, bb128_bit(move_mid(m)));
    }
    bb128_t own = bb128_xor(b->men[pl], moved), friends = bb128_xor(b->team[t], moved);
    bb128_t enemy = bb128_andnot(b->team[t ^ 1], taken);
    if (!counts_allow_call(b, bb128_popcount(friends), bb128_popcount(enemy)))
        return false;
    /* The call binds the next player, who must be an opponent with a man
     * that pl threatens. */
    int next = pl ^ 1;
    if (team_game(b)) {
        next = (b->variant == V_3P ? cycle_3p : cycle_4p)[brax_next_slot(b, taken)];
        if (team_of(next) == t)
            return false;
    }
    bb128_t victims = bb128_andnot(b->men[next], taken);
    if (steady && !(m & MOVE_PASS)) {
        bb128_t near = bb128_or(brax_near2[move_from(m)], brax_near2[move_to(m)]);
        if (move_mid(m) >= 0)
            near = bb128_or(near, brax_near2[move_mid(m)]);
        if (!bb128_empty(bb128_andnot(*steady, near)))
            return true;
        own = bb128_and(own, near);
    }
    own = bb128_and(own, enemy_near);
    return !bb128_empty(own) && any_threat(own, t, friends, enemy, victims, has_double_capture(b));
}

/* The points from which a man of team t threatens a man of `enemy` now:
 * next to one, or two steps from one along a path of the team's colour
 * whose middle is empty (or, with double captures, an enemy man). Whether a
 * man threatens is then one bit test, as chess engines test checks by
 * precomputed check squares. */
#if !defined(__GNUC__) || !defined(NDEBUG)
static bb128_t threat_points_slow(bb128_t enemy, bb128_t occ, int t, bool dbl)
{
    bb128_t res = bb128_zero();
    for (bb128_t e = enemy; !bb128_empty(e);) {
        int p = bb128_pop(&e);
        res = bb128_or(res, brax_step1[p]);
        for (bb128_t mids = brax_adj_col[p][t]; !bb128_empty(mids);) {
            int m = bb128_pop(&mids);
            if (!bb128_test(occ, m) || (dbl && bb128_test(enemy, m)))
                res = bb128_or(res, bb128_andnot(brax_adj_col[m][t], bb128_bit(p)));
        }
    }
    return res;
}
#endif

static bb128_t threat_points(bb128_t enemy, bb128_t occ, int t, bool dbl)
{
#if defined(__GNUC__)
    /* All the enemy men at once: their neighbours, and the ends of the
     * colour-t 2-steps out from them over a passable middle (never back). */
    v128_t e = v_of(enemy), pass = ~v_of(occ) | (dbl ? e : (v128_t){0, 0}), res = {0, 0}, col[4], mid[4];
    #pragma GCC unroll 4 /* constant directions: v_step's shifts become constants */
    for (int d = 0; d < 4; d++) {
        col[d] = v_of(brax_exit_col[d][t]);
        res |= v_step(e, d, v_of(brax_exit[d]));
        mid[d] = v_step(e, d, col[d]) & pass;
    }
    #pragma GCC unroll 4
    for (int d1 = 0; d1 < 4; d1++)
        #pragma GCC unroll 4
        for (int d2 = 0; d2 < 4; d2++)
            if (d2 != brax_opposite(d1))
                res |= v_step(mid[d1], d2, col[d2]);
    bb128_t out = {res[0], res[1]};
    assert(bb128_eq(out, threat_points_slow(enemy, occ, t, dbl)));
    return out;
#else
    return threat_points_slow(enemy, occ, t, dbl);
#endif
}

/* The points y from which a man of team t would capture a man of `enemy`
 * by the 2-step y-p-e once the point p is empty. */
static bb128_t through_points(int p, int t, bb128_t enemy)
{
    bb128_t ends = bb128_and(brax_adj_col[p][t], enemy);
    if (bb128_empty(ends))
        return bb128_zero();
    /* With two enemy ends, each is reached from the other's side too. */
    return bb128_popcount(ends) >= 2 ? brax_adj_col[p][t] : bb128_andnot(brax_adj_col[p][t], ends);
}

/* call_allowed for a quiet move of a two-player game, from what no quiet
 * move changes, worked out once per position: whether the men on each side
 * allow a call at all, the points within two steps of an enemy man (outside
 * which no man threatens), the points from which a man threatens (`hot`,
 * found only when a man or a target is near enough to need it) and the
 * mover's men standing on them. */
typedef struct quiet_calls {
    bool counts_allow, dbl, hot_known;
    bb128_t steady, enemy_near, hot;
} quiet_calls_t;

static bb128_t hot_points(const brax_t *b, quiet_calls_t *q)
{
    if (!q->hot_known) {
        int t = team_of(b->stm);
        q->hot = threat_points(b->team[t ^ 1], bb128_or(b->team[0], b->team[1]), t, q->dbl);
        q->hot_known = true;
    }
    return q->hot;
}

static quiet_calls_t quiet_calls_of(const brax_t *b, bb128_t enemy_near)
{
    int t = team_of(b->stm);
    quiet_calls_t q = {.dbl = has_double_capture(b), .enemy_near = enemy_near};
    q.counts_allow = counts_allow_call(b, bb128_popcount(b->team[t]), bb128_popcount(b->team[t ^ 1]));
    bb128_t near = bb128_and(b->men[b->stm], enemy_near);
    if (!bb128_empty(near))
        q.steady = bb128_and(near, hot_points(b, &q));
    return q;
}

/* A quiet move from `from` to `to` leaves an enemy man threatened when a
 * threatening man other than the mover is not next to `to` (only a path
 * through `to` can be blocked), a man's 2-step through `from` is opened, or
 * the mover threatens from `to`; failing those, the threatening men next to
 * `to` are tested on the boards after the move. `through` is
 * through_points(from, ...). */
static bool quiet_call_allowed(const brax_t *b, int from, int to, bb128_t through, quiet_calls_t *q)
{
    if (!q->counts_allow)
        return false;
    bb128_t rest = bb128_andnot(q->steady, bb128_bit(from));
    if (!bb128_empty(bb128_andnot(rest, brax_step1[to])))
        return true;
    if (bb128_test(through, to) || !bb128_empty(bb128_and(b->men[b->stm], through)))
        return true;
    if (bb128_test(q->enemy_near, to) && bb128_test(hot_points(b, q), to))
        return true;
    if (bb128_empty(rest))
        return false;
    int t = team_of(b->stm);
    bb128_t moved = bb128_or(bb128_bit(from), bb128_bit(to));
    return any_threat(rest, t, bb128_xor(b->team[t], moved), b->team[t ^ 1], b->team[t ^ 1], q->dbl);
}

/* call_allowed for a quiet move or a pass of a team game, from what
 * neither changes, worked out once per position: the men on each side and
 * so whether they allow a call, and the next player (no man is taken): an
 * opponent, whose men are the victims, or a partner (no call at all). */
typedef struct team_quiet {
    bool known, allowed, dbl;
    bb128_t victims;
} team_quiet_t;

static team_quiet_t team_quiet_of(const brax_t *b)
{
    int t = team_of(b->stm);
    int next = (b->variant == V_3P ? cycle_3p : cycle_4p)[brax_next_slot(b, bb128_zero())];
    return (team_quiet_t){
        .known = true,
        .allowed = team_of(next) != t &&
                   counts_allow_call(b, bb128_popcount(b->team[t]), bb128_popcount(b->team[t ^ 1])),
        .dbl = has_double_capture(b),
        .victims = b->men[next],
    };
}

static bool team_quiet_call_allowed(const brax_t *b, move_t m, const team_quiet_t *tq, bb128_t enemy_near)
{
    if (!tq->allowed)
        return false;
    int pl = b->stm, t = team_of(pl);
    bb128_t moved = (m & MOVE_PASS) ? bb128_zero() : bb128_or(bb128_bit(move_from(m)), bb128_bit(move_to(m)));
    bb128_t own = bb128_and(bb128_xor(b->men[pl], moved), enemy_near);
    return !bb128_empty(own) &&
           any_threat(own, t, bb128_xor(b->team[t], moved), b->team[t ^ 1], tq->victims, tq->dbl);
}

/* Is move m (a plain move, or its call variant) in `part`? The calls of
 * quiet moves, judged one by one, are left to GEN_QUIET, so that the
 * search's first stage (GEN_CAPTURES) judges none of them. */
static bool in_part(move_t m, gen_part_t part)
{
    bool capture = m & MOVE_CAPTURE;
    switch (part) {
    case GEN_NOISY:
        return capture || (m & MOVE_CALL);
    case GEN_CAPTURES:
        return capture;
    case GEN_QUIET:
        return !capture;
    default:
        return true;
    }
}

/* A man of the two-player mover that has no move in quiescence's list
 * (GEN_NOISY): no capture, and no quiet move that may call, judged as
 * quiet_call_allowed judges each (what it cannot rule out at once counts
 * as noisy, and the man's moves are then listed and judged). */
static bool man_silent(const brax_t *b, int p, quiet_calls_t *q)
{
    int t = team_of(b->stm);
    bb128_t enemy = b->team[t ^ 1], occ = bb128_or(b->team[t], enemy);
    bb128_t reach = brax_reach_at[brax_two_index(p, t, occ)];
    if (!bb128_empty(bb128_and(reach, enemy)) || (q->dbl && !bb128_empty(double_victims(p, t, enemy))))
        return false;
    if (!q->counts_allow)
        return true;
    if (!bb128_empty(bb128_andnot(q->steady, bb128_bit(p))) || !bb128_empty(through_points(p, t, enemy)))
        return false;
    bb128_t quiet_near = bb128_and(bb128_andnot(reach, occ), q->enemy_near);
    return bb128_empty(quiet_near) || bb128_empty(bb128_and(quiet_near, hot_points(b, q)));
}

/* brax_gen; with skip_silent, quiescence's list leaves out at once the
 * men that have nothing in it (man_silent). */
static int gen_part(const brax_t *b, move_t *moves, gen_part_t part, bool skip_silent)
{
    if (is_over(b))
        return 0;
    int pl = b->stm;
    bb128_t movable = b->men[pl];
    if (b->first >= 0) /* Blue's second ply moves another man */
        movable = bb128_andnot(movable, bb128_bit(b->first));
    move_t plain[MAX_MOVES];
    bb128_t forced = bb128_and(brax_forced_men(b), movable);
    bool calls = calls_possible(b) && !teams_apart(b);
    bb128_t enemy_near = bb128_zero();
    quiet_calls_t q = {0};
    bool q_known = false;
    int n;
    if (part == GEN_CAPTURES || (part == GEN_NOISY && !calls)) {
        /* Captures alone (and their calls): no pass, no quiet move. */
        bb128_t from = !bb128_empty(forced) && men_can_move(b, pl, forced) ? forced : movable;
        n = gen_plain_captures(b, pl, from, plain);
        assert(n == gen_plain_captures_slow(b, pl, from, plain + n) && !memcmp(plain, plain + n, (size_t)n * sizeof *plain));
    } else if (part == GEN_NOISY && skip_silent && !team_game(b)) {
        bb128_t from = !bb128_empty(forced) && men_can_move(b, pl, forced) ? forced : movable;
        enemy_near = near_men(b->team[team_of(pl) ^ 1]);
        q = quiet_calls_of(b, enemy_near);
        q_known = true;
        n = 0;
        for (bb128_t m = from; !bb128_empty(m);) {
            int p = bb128_pop(&m);
            if (!man_silent(b, p, &q))
                n += gen_plain(b, pl, bb128_bit(p), plain + n);
        }
    } else {
        n = bb128_empty(forced) ? 0 : gen_plain(b, pl, forced, plain);
        if (n == 0) /* no call, or no threatened man can move: any move */
            n = gen_plain(b, pl, movable, plain);
    }
    if (n == 0 && team_game(b) && part != GEN_CAPTURES && (part != GEN_NOISY || calls)) {
        /* A player who cannot move passes while the team can still move,
         * and Blue's impossible second ply is a pass (settled 6 and 10). */
        bool pass = b->first >= 0;
        for (int mate = team_of(pl); mate < b->players && !pass; mate += 2)
            pass = mate != pl && can_move(b, mate);
        if (pass)
            plain[n++] = MOVE_PASS;
    }
    if (calls && !q_known)
        enemy_near = near_men(b->team[team_of(pl) ^ 1]);
    bool two_sided = calls && !team_game(b);
    int out = 0, through_of = -1;
    bb128_t through = bb128_zero();
    /* Per man: whether no other man threatens (then quiet_call_allowed's
     * first test never holds and the call is a few bit tests) and whether
     * every quiet move of his may call (a man of his behind him). */
    bool lone = false, every = false;
    team_quiet_t tq = {0};
    for (int i = 0; i < n; i++) {
        move_t m = plain[i];
        if (m & MOVE_CAPTURE)
            m |= MOVE_NOISY | MOVE_IRREVERSIBLE;
        /* Quiescence takes captures and calls: a call decides the reply, so
         * stopping just before one would hide what it wins. */
        if (in_part(m, part))
            moves[out++] = m;
        if (!calls || !in_part(m | MOVE_CALL, part))
            continue;
        if (two_sided && !q_known) {
            q = quiet_calls_of(b, enemy_near);
            assert(bb128_eq(q.steady, steady_men(b, enemy_near)));
            q_known = true;
        }
        bool call;
        if (two_sided && !(m & (MOVE_CAPTURE | MOVE_PASS))) {
            if (move_from(m) != through_of) { /* a man's moves come together */
                through_of = move_from(m);
                through = through_points(through_of, team_of(pl), b->team[team_of(pl) ^ 1]);
                lone = bb128_empty(bb128_andnot(q.steady, bb128_bit(through_of)));
                every = !bb128_empty(bb128_and(b->men[pl], through));
            }
            int to = move_to(m);
            if (!q.counts_allow)
                call = false;
            else if (lone)
                call = every || bb128_test(through, to) ||
                       (bb128_test(q.enemy_near, to) && bb128_test(hot_points(b, &q), to));
            else
                call = quiet_call_allowed(b, move_from(m), to, through, &q);
            assert(call == call_allowed(b, m, &q.steady, enemy_near));
        } else if (!two_sided && !(m & MOVE_CAPTURE)) {
            if (!tq.known)
                tq = team_quiet_of(b);
            call = team_quiet_call_allowed(b, m, &tq, enemy_near);
            assert(call == call_allowed(b, m, NULL, enemy_near));
        } else {
            call = call_allowed(b, m, two_sided ? &q.steady : NULL, enemy_near);
        }
        if (call)
            moves[out++] = m | MOVE_CALL | MOVE_NOISY;
    }
    return out;
}

int brax_gen(const brax_t *b, move_t *moves, gen_part_t part)
{
    int n = gen_part(b, moves, part, true);
#ifndef NDEBUG
    move_t all[MAX_MOVES];
    assert(n == gen_part(b, all, part, false) && !memcmp(moves, all, (size_t)n * sizeof *moves));
#endif
    return n;
}

/* Is `plain` (no call or search flags) one of gen_plain's moves of the
 * man on `from` of the side to move? Found from the tables, not by
 * listing his moves: the search asks it of the table's move and the
 * killers at every node. */
static bool plain_move_of(const brax_t *b, int from, move_t plain)
{
    int t = team_of(b->stm), to = move_to(plain), mid = move_mid(plain);
    bb128_t friends = b->team[t], enemy = b->team[t ^ 1];
    if (plain & MOVE_PASS)
        return false;
    if (mid < 0) { /* a 1-step, or a 2-step over a free middle */
        bb128_t reach = brax_reach_at[brax_two_index(from, t, bb128_or(friends, enemy))];
        return bb128_test(reach, to) && !bb128_test(friends, to) &&
               plain == (encode(from, to, -1) | (bb128_test(enemy, to) ? MOVE_CAPTURE : 0));
    }
    return has_double_capture(b) && bb128_test(bb128_and(brax_adj_col[from][t], enemy), mid) &&
           bb128_test(bb128_and(brax_adj_col[mid][t], enemy), to) && plain == (encode(from, to, mid) | MOVE_CAPTURE);
}

/* Only the moved man's plain moves are listed, and the call judged alone;
 * a pass is looked up in the whole list. After a call, a man outside the
 * threatened ones moves only when none of them can. */
bool brax_move_legal(const position_t *pos, move_t m)
{
    const brax_t *b = CP(pos);
    move_t moves[MAX_MOVES];
    if (m & MOVE_PASS)
        return move_in(m, moves, brax_gen(b, moves, GEN_ALL));
    int from = move_from(m);
    if (is_over(b) || from >= N_PTS || from == b->first || !bb128_test(b->men[b->stm], from))
        return false;
    bb128_t forced = brax_forced_men(b);
    if (b->first >= 0)
        forced = bb128_andnot(forced, bb128_bit(b->first));
    if (!bb128_empty(forced) && !bb128_test(forced, from) && men_can_move(b, b->stm, forced))
        return false;
    move_t plain = m & ~(MOVE_CALL | MOVE_NOISY | MOVE_IRREVERSIBLE);
    bool listed = plain_move_of(b, from, plain);
    assert(listed == move_in(plain, moves, gen_plain(b, b->stm, bb128_bit(from), moves)));
    if (!listed)
        return false;
    move_t flagged = plain | ((plain & MOVE_CAPTURE) ? MOVE_NOISY | MOVE_IRREVERSIBLE : 0);
    if (!(m & MOVE_CALL))
        return m == flagged;
    return m == (flagged | MOVE_CALL | MOVE_NOISY) && calls_possible(b) &&
           call_allowed(b, plain, NULL, near_men(b->team[team_of(b->stm) ^ 1]));
}

int brax_plain_moves(const brax_t *b, int pl, bb128_t from_set, move_t *moves)
{
    return gen_plain(b, pl, from_set, moves);
}

/* Asked only for a person's refused move, so it may take its time:
 * call_allowed's questions again, one by one, to name the one that fails. */
brax_call_t brax_call_check(const brax_t *b, move_t m)
{
    if (b->variant == V_EASY)
        return CALL_NONE_IN_VARIANT;
    if (blue_first_of_two(b))
        return CALL_NOT_FIRST_OF_TWO;
    if (!calls_possible(b))
        return CALL_TWICE;
    int t = team_of(b->stm);
    bb128_t taken = bb128_zero();
    if (!(m & MOVE_PASS)) {
        taken = bb128_and(b->team[t ^ 1], bb128_bit(move_to(m)));
        if (move_mid(m) >= 0)
            taken = bb128_or(taken, bb128_bit(move_mid(m)));
    }
    int own = bb128_popcount(b->team[t]), other = bb128_popcount(bb128_andnot(b->team[t ^ 1], taken));
    if (!counts_allow_call(b, own, other))
        return CALL_COUNTS;
    if (team_game(b) && team_of((b->variant == V_3P ? cycle_3p : cycle_4p)[brax_next_slot(b, taken)]) == t)
        return CALL_PARTNER_NEXT;
    return call_allowed(b, m, NULL, near_men(b->team[t ^ 1])) ? CALL_OK : CALL_NO_THREAT;
}

/* ---- counting moves (perft's last ply) ---- */

/* The calls among the moves of the man on p to `quiet` (his quiet targets):
 * quiet_call_allowed on the whole set where no threatening man but the
 * mover stands, target by target otherwise. */
static int count_quiet_calls(const brax_t *b, int p, bb128_t quiet, quiet_calls_t *q)
{
    if (!q->counts_allow || bb128_empty(quiet))
        return 0;
    int t = team_of(b->stm);
    bb128_t through = through_points(p, t, b->team[t ^ 1]);
    if (!bb128_empty(bb128_and(b->men[b->stm], through)))
        return bb128_popcount(quiet);
    if (bb128_empty(bb128_andnot(q->steady, bb128_bit(p)))) {
        bb128_t near = bb128_and(quiet, q->enemy_near); /* through lies in enemy_near */
        return bb128_empty(near) ? 0 : bb128_popcount(bb128_and(near, bb128_or(through, hot_points(b, q))));
    }
    int calls = 0;
    for (bb128_t to = quiet; !bb128_empty(to);)
        calls += quiet_call_allowed(b, p, bb128_pop(&to), through, q);
    return calls;
}

/* The calls among the captures of the man on p, each judged by
 * call_allowed (captures are few). */
static int count_capture_calls(const brax_t *b, int p, bb128_t captures, bb128_t dbl_mids, const quiet_calls_t *q)
{
    int calls = 0, t = team_of(b->stm);
    for (bb128_t to = captures; !bb128_empty(to);)
        calls += call_allowed(b, encode(p, bb128_pop(&to), -1) | MOVE_CAPTURE, &q->steady, q->enemy_near);
    for (bb128_t mids = dbl_mids; !bb128_empty(mids);) {
        int mid = bb128_pop(&mids);
        for (bb128_t to = bb128_and(brax_adj_col[mid][t], b->team[t ^ 1]); !bb128_empty(to);)
            calls += call_allowed(b, encode(p, bb128_pop(&to), mid) | MOVE_CAPTURE, &q->steady, q->enemy_near);
    }
    return calls;
}

/* The moves of the men `from_set` of a two-player game's mover, with their
 * calls when `q` is not NULL. */
static int count_men_moves(const brax_t *b, bb128_t from_set, quiet_calls_t *q)
{
    int t = team_of(b->stm), n = 0;
    bb128_t friends = b->team[t], enemy = b->team[t ^ 1], occ = bb128_or(friends, enemy);
    bool dbl = has_double_capture(b);
    for (bb128_t m = from_set; !bb128_empty(m);) {
        int p = bb128_pop(&m);
        bb128_t targets = bb128_andnot(brax_reach_at[brax_two_index(p, t, occ)], friends);
        /* Enemy middles: double captures, and paths a move through p opens. */
        bb128_t foes = bb128_and(brax_adj_col[p][t], enemy), dbl_mids = dbl ? foes : bb128_zero();
        n += bb128_popcount(targets);
        for (bb128_t mids = dbl_mids; !bb128_empty(mids);)
            n += bb128_popcount(bb128_and(brax_adj_col[bb128_pop(&mids)][t], enemy));
        if (!q)
            continue;
        bb128_t quiet = bb128_andnot(targets, enemy);
        if (bb128_empty(foes) && bb128_empty(bb128_andnot(q->steady, bb128_bit(p)))) {
            /* No path through p to open and no other man threatening:
             * count_quiet_calls' second case, without through_points. */
            bb128_t near = bb128_and(quiet, q->enemy_near);
            if (q->counts_allow && !bb128_empty(near))
                n += bb128_popcount(bb128_and(near, hot_points(b, q)));
            assert(!q->counts_allow || bb128_empty(near) ||
                   bb128_popcount(bb128_and(near, hot_points(b, q))) == count_quiet_calls(b, p, quiet, q));
        } else {
            n += count_quiet_calls(b, p, quiet, q);
        }
        bb128_t captures = bb128_and(targets, enemy);
        if (!bb128_empty(captures) || !bb128_empty(dbl_mids))
            n += count_capture_calls(b, p, captures, dbl_mids, q);
    }
    return n;
}

/* The moves of the men `men` of team t to points of `mask`, all men at
 * once, by route: the 1-steps north, south, east and west, the straight
 * 2-steps and the turning ones (both routes of a turn together: one move
 * per man and end). A route takes each man to one point and no two men to
 * the same one, so the size of a route's set within `mask` counts moves,
 * and the men of several players of one team count as the sum of their
 * counts. *reached (when not NULL) gets every point reached. Written out
 * route by route, so that every shift is a constant. */
#if defined(__GNUC__)
static int routes_count(bb128_t men_set, int t, bb128_t occ_set, bb128_t mask_set, bb128_t *reached)
{
    v128_t men = v_of(men_set), occ = v_of(occ_set), mask = v_of(mask_set);
    v128_t cn = v_of(brax_exit_col[0][t]), cs = v_of(brax_exit_col[1][t]), ce = v_of(brax_exit_col[2][t]),
           cw = v_of(brax_exit_col[3][t]);
    v128_t fn = v_step(men, 0, cn) & ~occ, fs = v_step(men, 1, cs) & ~occ;
    v128_t fe = v_step(men, 2, ce) & ~occ, fw = v_step(men, 3, cw) & ~occ;
    v128_t all = {0, 0};
    int n = 0;
#define ROUTE(set)                                                                                                     \
    do {                                                                                                               \
        v128_t to_ = (set);                                                                                            \
        n += v_popcount(to_ & mask);                                                                                   \
        all |= to_;                                                                                                    \
    } while (0)
    ROUTE(v_step(men, 0, v_of(brax_exit[0])));
    ROUTE(v_step(men, 1, v_of(brax_exit[1])));
    ROUTE(v_step(men, 2, v_of(brax_exit[2])));
    ROUTE(v_step(men, 3, v_of(brax_exit[3])));
    ROUTE(v_step(fn, 0, cn));
    ROUTE(v_step(fs, 1, cs));
    ROUTE(v_step(fe, 2, ce));
    ROUTE(v_step(fw, 3, cw));
    ROUTE(v_step(fn, 2, ce) | v_step(fe, 0, cn));
    ROUTE(v_step(fn, 3, cw) | v_step(fw, 0, cn));
    ROUTE(v_step(fs, 2, ce) | v_step(fe, 1, cs));
    ROUTE(v_step(fs, 3, cw) | v_step(fw, 1, cs));
#undef ROUTE
    if (reached)
        *reached = (bb128_t){all[0], all[1]};
    return n;
}
#else
static int routes_count(bb128_t men, int t, bb128_t occ, bb128_t mask, bb128_t *reached)
{
    bb128_t fn = bb128_andnot(brax_step_col(men, 0, t), occ), fs = bb128_andnot(brax_step_col(men, 1, t), occ);
    bb128_t fe = bb128_andnot(brax_step_col(men, 2, t), occ), fw = bb128_andnot(brax_step_col(men, 3, t), occ);
    bb128_t all = bb128_zero();
    int n = 0;
#define ROUTE(set)                                                                                                     \
    do {                                                                                                               \
        bb128_t to_ = (set);                                                                                           \
        n += bb128_popcount(bb128_and(to_, mask));                                                                     \
        all = bb128_or(all, to_);                                                                                      \
    } while (0)
    ROUTE(brax_step_any(men, 0));
    ROUTE(brax_step_any(men, 1));
    ROUTE(brax_step_any(men, 2));
    ROUTE(brax_step_any(men, 3));
    ROUTE(brax_step_col(fn, 0, t));
    ROUTE(brax_step_col(fs, 1, t));
    ROUTE(brax_step_col(fe, 2, t));
    ROUTE(brax_step_col(fw, 3, t));
    ROUTE(bb128_or(brax_step_col(fn, 2, t), brax_step_col(fe, 0, t)));
    ROUTE(bb128_or(brax_step_col(fn, 3, t), brax_step_col(fw, 0, t)));
    ROUTE(bb128_or(brax_step_col(fs, 2, t), brax_step_col(fe, 1, t)));
    ROUTE(bb128_or(brax_step_col(fs, 3, t), brax_step_col(fw, 1, t)));
#undef ROUTE
    if (reached)
        *reached = all;
    return n;
}
#endif

/* The points next to an enemy man along a colour-t segment: a man of
 * team t there has an enemy middle (colour-t neighbours are mutual). */
static bb128_t beside_enemy(bb128_t enemy, int t)
{
#if defined(__GNUC__)
    v128_t e = v_of(enemy), res = {0, 0};
    #pragma GCC unroll 4 /* constant directions: v_step's shifts become constants */
    for (int d = 0; d < 4; d++)
        res |= v_step(e, d, v_of(brax_exit_col[d][t]));
    return (bb128_t){res[0], res[1]};
#else
    bb128_t res = bb128_zero();
    for (int d = 0; d < 4; d++)
        res = bb128_or(res, brax_step_col(enemy, d, t));
    return res;
#endif
}

int brax_men_mobility(const brax_t *b, int pl, bb128_t *hits)
{
    int t = team_of(pl);
    bb128_t friends = b->team[t], enemy = b->team[t ^ 1], reached;
    int n = routes_count(b->men[pl], t, bb128_or(friends, enemy), bb128_not(friends), &reached);
    bb128_t res = bb128_and(reached, enemy);
    if (has_double_capture(b))
        for (bb128_t m = bb128_and(beside_enemy(enemy, t), b->men[pl]); !bb128_empty(m);)
            res = bb128_or(res, double_victims(bb128_pop(&m), t, enemy));
    *hits = res;
    return n;
}

int brax_team_mobility(const brax_t *b, int t)
{
    bb128_t friends = b->team[t];
    return routes_count(friends, t, bb128_or(friends, b->team[t ^ 1]), bb128_not(friends), NULL);
}

/* The enemy men that the men `own` of team t threaten: 1-steps onto them,
 * 2-steps along the colour through a free point and, with double captures,
 * both men of each double. Once the count is not wanted the routes need
 * not be told apart: the second steps go from every point the first
 * colour steps reach (a step back lands on the man's own point). An enemy
 * middle is a 1-step's victim, and the ends beyond it are the colour steps
 * from it that land on enemies, so the middles join the free points. */
static bb128_t threats_of(bb128_t own, int t, bb128_t occ, bb128_t enemy, bool dbl)
{
#if defined(__GNUC__)
    /* Written out direction by direction, so that every shift is a constant. */
    v128_t men = v_of(own), cn = v_of(brax_exit_col[0][t]), cs = v_of(brax_exit_col[1][t]),
           ce = v_of(brax_exit_col[2][t]), cw = v_of(brax_exit_col[3][t]);
    v128_t res = v_step(men, 0, v_of(brax_exit[0])) | v_step(men, 1, v_of(brax_exit[1])) |
                 v_step(men, 2, v_of(brax_exit[2])) | v_step(men, 3, v_of(brax_exit[3]));
    v128_t col = v_step(men, 0, cn) | v_step(men, 1, cs) | v_step(men, 2, ce) | v_step(men, 3, cw);
    v128_t from = col & (~v_of(occ) | (dbl ? v_of(enemy) : (v128_t){0, 0}));
    res |= v_step(from, 0, cn) | v_step(from, 1, cs) | v_step(from, 2, ce) | v_step(from, 3, cw);
    return bb128_and((bb128_t){res[0], res[1]}, enemy);
#else
    bb128_t res = bb128_zero(), col = bb128_zero();
    for (int d = 0; d < 4; d++) {
        res = bb128_or(res, brax_step_any(own, d));
        col = bb128_or(col, brax_step_col(own, d, t));
    }
    bb128_t from = bb128_and(col, bb128_or(bb128_not(occ), dbl ? enemy : bb128_zero()));
    for (int d = 0; d < 4; d++)
        res = bb128_or(res, brax_step_col(from, d, t));
    return bb128_and(res, enemy);
#endif
}

/* A move covers at most two rows, and so does a double capture's reach
 * (an enemy middle next to the man, an enemy end next to it): men more
 * than two rows from every target threaten none. */
bb128_t brax_men_hits(const brax_t *b, int pl, bb128_t targets)
{
    int t = team_of(pl);
    bb128_t own = b->men[pl], enemy = b->team[t ^ 1];
    targets = bb128_and(targets, enemy);
    if (bb128_empty(own) || bb128_empty(targets) || rows_apart(own, targets, 2))
        return bb128_zero();
    return bb128_and(threats_of(own, t, bb128_or(b->team[t], enemy), enemy, has_double_capture(b)), targets);
}

/* brax_gen()'s count without the list, for the two-player games: the
 * plain moves of all the men at once by routes; the calls, where no man
 * threatens yet (steady empty), as the quiet moves onto the points from
 * which a man threatens (count_quiet_calls' second case, summed by
 * routes), with the men next to an enemy middle (paths through them to
 * open, double captures) and the captures counted man by man. */
static int count_two_player(const brax_t *b)
{
    if (is_over(b))
        return 0;
    int t = team_of(b->stm);
    bb128_t friends = b->team[t], enemy = b->team[t ^ 1], occ = bb128_or(friends, enemy);
    bb128_t from_set = bb128_and(brax_forced_men(b), b->men[b->stm]);
    if (bb128_empty(from_set) || !men_can_move(b, b->stm, from_set))
        from_set = b->men[b->stm];
    bb128_t reached;
    int n = routes_count(from_set, t, occ, bb128_not(friends), &reached);
    if (teams_apart(b)) { /* no capture, no double, no call: the plain moves are all */
#ifndef NDEBUG
        quiet_calls_t q = quiet_calls_of(b, near_men(enemy));
        assert(n == count_men_moves(b, from_set, calls_possible(b) ? &q : NULL));
#endif
        return n;
    }
    /* The men with an enemy middle (colour-t neighbours are mutual). */
    bb128_t beside = bb128_and(beside_enemy(enemy, t), from_set);
    bool dbl = has_double_capture(b);
    for (bb128_t m = dbl ? beside : bb128_zero(); !bb128_empty(m);)
        for (bb128_t mids = bb128_and(brax_adj_col[bb128_pop(&m)][t], enemy); !bb128_empty(mids);)
            n += bb128_popcount(bb128_and(brax_adj_col[bb128_pop(&mids)][t], enemy));
    assert(n == count_men_moves(b, from_set, NULL));
    if (!calls_possible(b))
        return n;
    quiet_calls_t q = quiet_calls_of(b, near_men(enemy));
    if (!bb128_empty(q.steady) || !bb128_empty(bb128_and(reached, enemy))) {
        /* Threats or captures already: man by man. */
        int with_calls = count_men_moves(b, from_set, &q);
        return with_calls;
    }
    int calls = 0;
    bb128_t hot_quiet = bb128_andnot(q.enemy_near, occ);
    if (q.counts_allow && !bb128_empty(bb128_and(reached, hot_quiet))) {
        hot_quiet = bb128_and(hot_quiet, hot_points(b, &q));
        calls = routes_count(from_set, t, occ, hot_quiet, NULL);
    } else {
        hot_quiet = bb128_zero();
    }
    for (bb128_t m = beside; !bb128_empty(m);) { /* these men man by man */
        int p = bb128_pop(&m);
        bb128_t quiet = bb128_andnot(brax_reach_at[brax_two_index(p, t, occ)], occ);
        calls += count_quiet_calls(b, p, quiet, &q) - bb128_popcount(bb128_and(quiet, hot_quiet));
        if (dbl)
            calls += count_capture_calls(b, p, bb128_zero(), bb128_and(brax_adj_col[p][t], enemy), &q);
    }
    assert(n + calls == count_men_moves(b, from_set, &q));
    return n + calls;
}

int brax_gen_moves(const position_t *pos, move_t *moves) { return brax_gen(CP(pos), moves, GEN_ALL); }
int brax_gen_noisy(const position_t *pos, move_t *moves) { return brax_gen(CP(pos), moves, GEN_NOISY); }
int brax_gen_captures(const position_t *pos, move_t *moves) { return brax_gen(CP(pos), moves, GEN_CAPTURES); }
int brax_gen_quiet(const position_t *pos, move_t *moves) { return brax_gen(CP(pos), moves, GEN_QUIET); }
int brax_count_moves(const position_t *pos)
{
    if (!team_game(CP(pos)))
        return count_two_player(CP(pos));
    move_t moves[MAX_MOVES];
    return brax_gen(CP(pos), moves, GEN_ALL);
}
