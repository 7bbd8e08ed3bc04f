/*
 * brax.c: Brax on 128-bit bitboards.
 *
 * Point index = row * 9 + column (a1 = 0, i9 = 80). The board colouring
 * lives in one pair of tables (docs/rules/brax.md); from it we precompute
 * each point's 1-step neighbours and, per colour, its 2-step paths (middle
 * and end), so move generation and threat detection are mask tests.
 *
 * The Brax call is part of a move (a flag bit). Its consequence, the forced
 * reply, is not stored: it is the set of the mover's men that the caller
 * threatens now, which nothing has changed since the call. The position
 * holds who that caller is and which teams' last turns ended with a call
 * (which decides who may call).
 *
 * One module plays the two-player games and the team games (brax-3p,
 * brax-4p). Every rule is written for "player pl of team pl & 1": its own
 * men block and move, its partner's men block, the other team's men are
 * captured, and 2-steps follow the team's colour (team 0 red, team 1 blue).
 * In the two-player games each team is one player, so the same code is the
 * old two-sided code and the hash of a two-player position is unchanged.
 */
#include "brax.h"
#include "brax_view.h"

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/bb128.h"
#include "../../core/number.h"
#include "../../core/rng.h"
#include "brax_ending.h"

enum { RED = 0, BLUE = 1 };
enum { V_BRAX, V_ZILLIONS, V_EASY, V_HUNT, V_3P, V_4P };
/* brax-3p: R1 is player 0, Blue player 1, R2 player 2. */
enum { BLUE_3P = 1 };

#define N_PTS 81
#define DRAW_QUIET_PLIES 10

/* Horizontal segments, row 9 first; entry k joins columns k and k+1. */
static const char *const horizontal[9] = {
    "BBRRBBRR", "RBRBRBRB", "RRBBRRBB", "RBRBRBRB", "BBRRBBRR",
    "RBRBRBRB", "RRBBRRBB", "RBRBRBRB", "BBRRBBRR",
};
/* Vertical segments, rows 8-9 first; entry k is in column k. */
static const char *const vertical[8] = {
    "BBRBBBRBB", "BRRRBRRRB", "RBBBRBBBR", "RRBRRRBRR",
    "BBRBBBRBB", "BRRRBRRRB", "RBBBRBBBR", "RRBRRRBRR",
};

typedef struct brax {
    bb128_t team[2];          /* every man of each team */
    bb128_t men[MAX_PLAYERS]; /* each player's men */
    uint64_t hash;
    uint8_t stm;     /* the player to move */
    uint8_t called;  /* bit t: team t's last turn ended with a call */
    uint8_t quiet;   /* plies since the last capture, capped at 255 */
    uint8_t variant;
    uint8_t players;
    uint8_t slot;    /* team games: the place in the turn cycle */
    int8_t caller;   /* the player whose call binds the mover; -1: none */
    int8_t first;    /* brax-3p: where the man Blue moved first this turn stands; -1 */
} brax_t;

_Static_assert(sizeof(brax_t) <= GAME_POS_BYTES, "position fits");

/* Turn cycles of the team games: brax-3p R1, Blue, R2, Blue. */
static const uint8_t cycle_3p[4] = {0, 1, 2, 1}, cycle_4p[4] = {0, 1, 2, 3};
static int team_of(int pl) { return pl & 1; }
static bool team_game(const brax_t *b) { return b->players > 2; }

static bb128_t step1[N_PTS];
/* The point and every point one or two steps from it: all a man's threats
 * depend on (its own point, a path's middle, the victims). */
static bb128_t near2[N_PTS];
/* The neighbours of each point along a segment of each colour: the first
 * and second steps of a 2-step of that colour (a path p-m-e is m in
 * adj_col[p][c], e in adj_col[m][c], e != p). */
static bb128_t adj_col[N_PTS][2];
static int8_t path_mid[N_PTS][2][BRAX_PATHS_MAX], path_end[N_PTS][2][BRAX_PATHS_MAX];
static int8_t path_count[N_PTS][2];
/* zobrist_stm[0] is 0 and [1] the two-player side key; the team games add
 * keys for players 2-3, the binding caller and Blue's first man, drawn
 * after the two-player keys so that those stay as they were. */
static uint64_t zobrist_men[MAX_PLAYERS][N_PTS], zobrist_stm[MAX_PLAYERS], zobrist_called[2];
static uint64_t zobrist_caller[MAX_PLAYERS], zobrist_first[N_PTS];
/* One man against one: the quiet plies decide the draw, so they are part
 * of the position (up to the count that ends the game). */
static uint64_t zobrist_quiet[DRAW_QUIET_PLIES + 1];
/* brax-3p: Blue's turn after R2's (slot 3) rather than after R1's. */
static uint64_t zobrist_after_r2;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static brax_t *P(position_t *p) { return (brax_t *)p->bytes; }
static const brax_t *CP(const position_t *p) { return (const brax_t *)p->bytes; }

/* ---- geometry ---- */

int brax_segment_colour(int a, int b)
{
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    if (a < 0 || b >= N_PTS)
        return -1;
    int ra = a / 9, ca = a % 9;
    if (b == a + 1 && ca < 8)
        return horizontal[8 - ra][ca] == 'B';
    if (b == a + 9)
        return vertical[7 - ra][ca] == 'B';
    return -1;
}

static int neighbour(int p, int dir)
{
    int r = p / 9, c = p % 9;
    switch (dir) {
    case 0: return r < 8 ? p + 9 : -1;
    case 1: return r > 0 ? p - 9 : -1;
    case 2: return c < 8 ? p + 1 : -1;
    default: return c > 0 ? p - 1 : -1;
    }
}

static void init_place_values(void);

static void init_tables(void)
{
    for (int p = 0; p < N_PTS; p++) {
        step1[p] = bb128_zero();
        for (int d = 0; d < 4; d++) {
            int m = neighbour(p, d);
            if (m < 0)
                continue;
            step1[p] = bb128_or(step1[p], bb128_bit(m));
            int col = brax_segment_colour(p, m);
            adj_col[p][col] = bb128_or(adj_col[p][col], bb128_bit(m));
            for (int e = 0; e < 4; e++) {
                int t = neighbour(m, e);
                if (t < 0 || t == p || brax_segment_colour(m, t) != col)
                    continue;
                int k = path_count[p][col]++;
                path_mid[p][col][k] = (int8_t)m;
                path_end[p][col][k] = (int8_t)t;
            }
        }
    }
    for (int p = 0; p < N_PTS; p++) {
        near2[p] = bb128_or(bb128_bit(p), step1[p]);
        for (bb128_t m = step1[p]; !bb128_empty(m);)
            near2[p] = bb128_or(near2[p], step1[bb128_pop(&m)]);
    }
    rng_t rng = {0xB3A7B3A7u};
    for (int c = 0; c < 2; c++)
        for (int p = 0; p < N_PTS; p++)
            zobrist_men[c][p] = rng_next(&rng);
    zobrist_stm[1] = rng_next(&rng);
    zobrist_called[0] = rng_next(&rng);
    zobrist_called[1] = rng_next(&rng);
    for (int c = 2; c < MAX_PLAYERS; c++) {
        for (int p = 0; p < N_PTS; p++)
            zobrist_men[c][p] = rng_next(&rng);
        zobrist_stm[c] = rng_next(&rng);
    }
    for (int c = 0; c < MAX_PLAYERS; c++)
        zobrist_caller[c] = rng_next(&rng);
    for (int p = 0; p < N_PTS; p++)
        zobrist_first[p] = rng_next(&rng);
    for (int q = 0; q <= DRAW_QUIET_PLIES; q++)
        zobrist_quiet[q] = rng_next(&rng);
    zobrist_after_r2 = rng_next(&rng);
    init_place_values();
}

static void ensure_tables(void) { pthread_once(&tables_once, init_tables); }

int brax_steps(int p, int to[4])
{
    ensure_tables();
    int n = 0;
    for (bb128_t m = step1[p]; !bb128_empty(m);)
        to[n++] = bb128_pop(&m);
    return n;
}

int brax_paths(int p, int colour, int mid[BRAX_PATHS_MAX], int end[BRAX_PATHS_MAX])
{
    ensure_tables();
    for (int k = 0; k < path_count[p][colour]; k++) {
        mid[k] = path_mid[p][colour][k];
        end[k] = path_end[p][colour][k];
    }
    return path_count[p][colour];
}

/* ---- rules of the variants ---- */

static bool variant_doubles(int variant) { return variant != V_ZILLIONS && variant != V_EASY; }
static bool has_double_capture(const brax_t *b) { return variant_doubles(b->variant); }

static player_mask_t team_mask(const brax_t *b, int t)
{
    player_mask_t all = (player_mask_t)((1u << b->players) - 1);
    return team_game(b) ? (player_mask_t)((t ? 0xA : 0x5) & all) : player_bit(t);
}

/* ---- moves ---- */

/* from (7 bits) | to << 7 | (mid + 1) << 14 for double captures | call;
 * a pass is its own flag with no points. */
#define MOVE_CALL ((move_t)1 << 21)
#define MOVE_PASS ((move_t)1 << 22)
static move_t encode(int from, int to, int mid) { return (move_t)(from | to << 7 | (mid + 1) << 14); }
static int move_from(move_t m) { return (int)(m & 127); }
static int move_to(move_t m) { return (int)(m >> 7 & 127); }
static int move_mid(move_t m) { return (int)(m >> 14 & 127) - 1; }

/* Men of the other team that player pl could capture if it were pl's turn
 * (settled point 1: a player's own threats, not its partner's). */
static bb128_t threats(const brax_t *b, int pl)
{
    int t = team_of(pl);
    bb128_t enemy = b->team[t ^ 1], occ = bb128_or(b->team[t], enemy), res = bb128_zero();
    bool dbl = has_double_capture(b);
    for (bb128_t m = b->men[pl]; !bb128_empty(m);) {
        int p = bb128_pop(&m);
        res = bb128_or(res, bb128_and(step1[p], enemy));
        for (int k = 0; k < path_count[p][t]; k++) {
            int mid = path_mid[p][t][k], end = path_end[p][t][k];
            if (!bb128_test(enemy, end))
                continue;
            if (!bb128_test(occ, mid))
                res = bb128_or(res, bb128_bit(end));
            else if (dbl && bb128_test(enemy, mid))
                res = bb128_or(res, bb128_or(bb128_bit(mid), bb128_bit(end)));
        }
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
        if (!bb128_empty(bb128_and(step1[p], victims)))
            return true;
        for (int k = 0; k < path_count[p][t]; k++) {
            int mid = path_mid[p][t][k], end = path_end[p][t][k];
            if (!bb128_test(enemy, end))
                continue;
            if (!bb128_test(occ, mid) ? bb128_test(victims, end)
                                      : dbl && bb128_test(enemy, mid) &&
                                            (bb128_test(victims, end) || bb128_test(victims, mid)))
                return true;
        }
    }
    return false;
}

/* The points within two steps of a man of `men`, outside which no man
 * threatens one of them. */
static bb128_t near_men(bb128_t men)
{
    bb128_t res = bb128_zero();
    for (bb128_t m = men; !bb128_empty(m);)
        res = bb128_or(res, near2[bb128_pop(&m)]);
    return res;
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
        for (bb128_t to_set = bb128_andnot(step1[p], friends); !bb128_empty(to_set);) {
            int to = bb128_pop(&to_set);
            moves[n++] = encode(p, to, -1) | (bb128_test(enemy, to) ? MOVE_CAPTURE : 0);
        }
        bb128_t reached = bb128_zero();
        for (int k = 0; k < path_count[p][t]; k++) {
            int mid = path_mid[p][t][k], end = path_end[p][t][k];
            if (!bb128_test(occ, mid)) {
                /* Two paths to one end are one move. */
                if (bb128_test(friends, end) || bb128_test(reached, end))
                    continue;
                reached = bb128_or(reached, bb128_bit(end));
                moves[n++] = encode(p, end, -1) | (bb128_test(enemy, end) ? MOVE_CAPTURE : 0);
            } else if (dbl && bb128_test(enemy, mid) && bb128_test(enemy, end)) {
                moves[n++] = encode(p, end, mid) | MOVE_CAPTURE;
            }
        }
    }
    return n;
}

/* The men the side to move must choose from after a call, or empty. */
static bb128_t forced_men(const brax_t *b)
{
    if (b->caller < 0)
        return bb128_zero();
    return bb128_and(threats(b, b->caller), b->men[b->stm]);
}

/* Is the ply about to be played Blue's first of a two-ply brax-3p turn? */
static bool blue_first_of_two(const brax_t *b)
{
    return b->variant == V_3P && b->stm == BLUE_3P && b->first < 0 && bb128_popcount(b->men[BLUE_3P]) >= 2;
}

/* Could player pl move at all, were it its turn (settled point 6)? */
static bool can_move(const brax_t *b, int pl)
{
    move_t moves[MAX_MOVES];
    return !bb128_empty(b->men[pl]) && gen_plain(b, pl, b->men[pl], moves) > 0;
}

static bool is_over(const brax_t *b)
{
    int red = bb128_popcount(b->team[RED]), blue = bb128_popcount(b->team[BLUE]);
    return red == 0 || blue == 0 || (red == 1 && blue == 1 && b->quiet >= DRAW_QUIET_PLIES);
}

static int next_slot(const brax_t *b, bb128_t taken);

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
        next = (b->variant == V_3P ? cycle_3p : cycle_4p)[next_slot(b, taken)];
        if (team_of(next) == t)
            return false;
    }
    bb128_t victims = bb128_andnot(b->men[next], taken);
    if (steady && !(m & MOVE_PASS)) {
        bb128_t near = bb128_or(near2[move_from(m)], near2[move_to(m)]);
        if (move_mid(m) >= 0)
            near = bb128_or(near, near2[move_mid(m)]);
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
static bb128_t threat_points(bb128_t enemy, bb128_t occ, int t, bool dbl)
{
    bb128_t res = bb128_zero();
    for (bb128_t e = enemy; !bb128_empty(e);) {
        int p = bb128_pop(&e);
        res = bb128_or(res, step1[p]);
        for (bb128_t mids = adj_col[p][t]; !bb128_empty(mids);) {
            int m = bb128_pop(&mids);
            if (!bb128_test(occ, m) || (dbl && bb128_test(enemy, m)))
                res = bb128_or(res, bb128_andnot(adj_col[m][t], bb128_bit(p)));
        }
    }
    return res;
}

/* The points y from which a man of team t would capture a man of `enemy`
 * by the 2-step y-p-e once the point p is empty. */
static bb128_t through_points(int p, int t, bb128_t enemy)
{
    bb128_t ends = bb128_and(adj_col[p][t], enemy);
    if (bb128_empty(ends))
        return bb128_zero();
    /* With two enemy ends, each is reached from the other's side too. */
    return bb128_popcount(ends) >= 2 ? adj_col[p][t] : bb128_andnot(adj_col[p][t], ends);
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
    if (!bb128_empty(bb128_andnot(rest, step1[to])))
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

static int gen(const brax_t *b, move_t *moves, gen_part_t part)
{
    if (is_over(b))
        return 0;
    int pl = b->stm;
    bb128_t movable = b->men[pl];
    if (b->first >= 0) /* Blue's second ply moves another man */
        movable = bb128_andnot(movable, bb128_bit(b->first));
    move_t plain[MAX_MOVES];
    bb128_t forced = bb128_and(forced_men(b), movable);
    int n = bb128_empty(forced) ? 0 : gen_plain(b, pl, forced, plain);
    if (n == 0) /* no call, or no threatened man can move: any move */
        n = gen_plain(b, pl, movable, plain);
    if (n == 0 && team_game(b)) {
        /* A player who cannot move passes while the team can still move,
         * and Blue's impossible second ply is a pass (settled 6 and 10). */
        bool pass = b->first >= 0;
        for (int q = team_of(pl); q < b->players && !pass; q += 2)
            pass = q != pl && can_move(b, q);
        if (pass)
            plain[n++] = MOVE_PASS;
    }
    bool calls = calls_possible(b);
    bb128_t enemy_near = bb128_zero();
    if (calls)
        enemy_near = near_men(b->team[team_of(pl) ^ 1]);
    quiet_calls_t q = {0};
    bool two_sided = calls && !team_game(b), q_known = false;
    int out = 0, through_of = -1;
    bb128_t through = bb128_zero();
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
            }
            call = quiet_call_allowed(b, move_from(m), move_to(m), through, &q);
            assert(call == call_allowed(b, m, &q.steady, enemy_near));
        } else {
            call = call_allowed(b, m, two_sided ? &q.steady : NULL, enemy_near);
        }
        if (call)
            moves[out++] = m | MOVE_CALL | MOVE_NOISY;
    }
    return out;
}

/* Only the moved man's plain moves are listed, and the call judged alone;
 * a pass is looked up in the whole list. After a call, a man outside the
 * threatened ones moves only when none of them can. */
static bool brax_move_legal(const position_t *pos, move_t m)
{
    const brax_t *b = CP(pos);
    move_t moves[MAX_MOVES];
    if (m & MOVE_PASS)
        return move_in(m, moves, gen(b, moves, GEN_ALL));
    int from = move_from(m);
    if (is_over(b) || from >= N_PTS || from == b->first || !bb128_test(b->men[b->stm], from))
        return false;
    bb128_t forced = forced_men(b);
    if (b->first >= 0)
        forced = bb128_andnot(forced, bb128_bit(b->first));
    if (!bb128_empty(forced) && !bb128_test(forced, from) && gen_plain(b, b->stm, forced, moves) > 0)
        return false;
    move_t plain = m & ~(MOVE_CALL | MOVE_NOISY | MOVE_IRREVERSIBLE);
    if (!move_in(plain, moves, gen_plain(b, b->stm, bb128_bit(from), moves)))
        return false;
    move_t flagged = plain | ((plain & MOVE_CAPTURE) ? MOVE_NOISY | MOVE_IRREVERSIBLE : 0);
    if (!(m & MOVE_CALL))
        return m == flagged;
    return m == (flagged | MOVE_CALL | MOVE_NOISY) && calls_possible(b) &&
           call_allowed(b, plain, NULL, near_men(b->team[team_of(b->stm) ^ 1]));
}

/* ---- counting moves (perft's last ply) ---- */

/* The points a man of team t on p moves to, captures included, by masks:
 * its free neighbours and the ends of its 2-steps over an empty middle
 * (two paths to one end are one move: a set). Double captures apart. */
static bb128_t man_targets(int p, int t, bb128_t friends, bb128_t occ)
{
    bb128_t two = bb128_zero();
    for (bb128_t mids = bb128_andnot(adj_col[p][t], occ); !bb128_empty(mids);)
        two = bb128_or(two, adj_col[bb128_pop(&mids)][t]);
    return bb128_andnot(bb128_or(step1[p], two), friends);
}

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
        for (bb128_t to = bb128_and(adj_col[mid][t], b->team[t ^ 1]); !bb128_empty(to);)
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
        bb128_t targets = man_targets(p, t, friends, occ);
        bb128_t dbl_mids = dbl ? bb128_and(adj_col[p][t], enemy) : bb128_zero();
        n += bb128_popcount(targets);
        for (bb128_t mids = dbl_mids; !bb128_empty(mids);)
            n += bb128_popcount(bb128_and(adj_col[bb128_pop(&mids)][t], enemy));
        if (q) {
            n += count_quiet_calls(b, p, bb128_andnot(targets, enemy), q);
            n += count_capture_calls(b, p, bb128_and(targets, enemy), dbl_mids, q);
        }
    }
    return n;
}

/* gen()'s count without the list, for the two-player games. */
static int count_two_player(const brax_t *b)
{
    if (is_over(b))
        return 0;
    bb128_t from_set = bb128_and(forced_men(b), b->men[b->stm]);
    if (bb128_empty(from_set) || count_men_moves(b, from_set, NULL) == 0)
        from_set = b->men[b->stm];
    if (!calls_possible(b))
        return count_men_moves(b, from_set, NULL);
    quiet_calls_t q = quiet_calls_of(b, near_men(b->team[team_of(b->stm) ^ 1]));
    return count_men_moves(b, from_set, &q);
}

static int brax_gen_moves(const position_t *pos, move_t *moves) { return gen(CP(pos), moves, GEN_ALL); }
static int brax_gen_noisy(const position_t *pos, move_t *moves) { return gen(CP(pos), moves, GEN_NOISY); }
static int brax_gen_captures(const position_t *pos, move_t *moves) { return gen(CP(pos), moves, GEN_CAPTURES); }
static int brax_gen_quiet(const position_t *pos, move_t *moves) { return gen(CP(pos), moves, GEN_QUIET); }
static int brax_count_moves(const position_t *pos)
{
    if (!team_game(CP(pos)))
        return count_two_player(CP(pos));
    move_t moves[MAX_MOVES];
    return gen(CP(pos), moves, GEN_ALL);
}

/* ---- make / unmake ---- */

static void toggle(brax_t *b, int pl, int p)
{
    b->men[pl] = bb128_xor(b->men[pl], bb128_bit(p));
    b->team[team_of(pl)] = bb128_xor(b->team[team_of(pl)], bb128_bit(p));
    b->hash ^= zobrist_men[pl][p];
}

/* The owner of the man of team t on point p. */
static int owner(const brax_t *b, int t, int p)
{
    for (int pl = t; pl < b->players; pl += 2)
        if (bb128_test(b->men[pl], p))
            return pl;
    assert(!"no man there");
    return t;
}

/* Moves the men of m; a pass moves nothing. */
static void apply(brax_t *b, move_t m)
{
    bool capture = false;
    if (!(m & MOVE_PASS)) {
        int pl = b->stm, from = move_from(m), to = move_to(m), mid = move_mid(m), foe = team_of(pl) ^ 1;
        capture = bb128_test(b->team[foe], to);
        if (capture)
            toggle(b, owner(b, foe, to), to);
        if (mid >= 0)
            toggle(b, owner(b, foe, mid), mid);
        toggle(b, pl, from);
        toggle(b, pl, to);
    }
    b->quiet = capture ? 0 : (uint8_t)(b->quiet < 255 ? b->quiet + 1 : 255);
}

static void set_called(brax_t *b, int t, bool on)
{
    if (((b->called >> t) & 1) != on) {
        b->called ^= (uint8_t)(1u << t);
        b->hash ^= zobrist_called[t];
    }
}

/* The binding caller and Blue's first man are hashed in the team games
 * only: in the two-player games the caller follows from `called`. */
static void set_caller(brax_t *b, int pl)
{
    if (team_game(b) && b->caller != pl)
        b->hash ^= (b->caller >= 0 ? zobrist_caller[b->caller] : 0) ^ (pl >= 0 ? zobrist_caller[pl] : 0);
    b->caller = (int8_t)pl;
}

static void set_first(brax_t *b, int p)
{
    if (b->first != p)
        b->hash ^= (b->first >= 0 ? zobrist_first[b->first] : 0) ^ (p >= 0 ? zobrist_first[p] : 0);
    b->first = (int8_t)p;
}

static void set_stm(brax_t *b, int pl)
{
    b->hash ^= zobrist_stm[b->stm] ^ zobrist_stm[pl];
    b->stm = (uint8_t)pl;
}

/* The next slot of the turn cycle whose player still has men once the men
 * in `taken` are gone (settled 5). */
static int next_slot(const brax_t *b, bb128_t taken)
{
    const uint8_t *cycle = b->variant == V_3P ? cycle_3p : cycle_4p;
    for (int k = 1; k <= 4; k++) {
        int s = (b->slot + k) & 3;
        if (!bb128_empty(bb128_andnot(b->men[cycle[s]], taken)))
            return s;
    }
    return b->slot;
}

/* Plays m: the men, then the call and whose turn it is. */
static void play(brax_t *b, move_t m)
{
    int pl = b->stm;
    if (blue_first_of_two(b)) {
        /* Settled 7 and 9: Blue moves again, another man, and a red call
         * bound this ply only. */
        apply(b, m);
        set_first(b, move_to(m));
        set_caller(b, -1);
        return;
    }
    apply(b, m);
    set_called(b, team_of(pl), (m & MOVE_CALL) != 0);
    set_caller(b, (m & MOVE_CALL) ? pl : -1);
    if (!team_game(b)) {
        set_stm(b, pl ^ 1);
        return;
    }
    set_first(b, -1);
    b->slot = (uint8_t)next_slot(b, bb128_zero());
    set_stm(b, (b->variant == V_3P ? cycle_3p : cycle_4p)[b->slot]);
}

static void brax_make(position_t *pos, move_t m, undo_t *u)
{
    brax_t *b = P(pos);
    memcpy(u->w, b, sizeof *b);
    play(b, m);
}

static void brax_unmake(position_t *pos, move_t m, const undo_t *u)
{
    (void)m;
    memcpy(P(pos), u->w, sizeof(brax_t));
}

_Static_assert(sizeof(brax_t) <= sizeof(((undo_t *)0)->w), "undo holds a position");

/* Two players only, not while a call binds or may bind, and not with
 * fewer than three men (having to move is what loses such endings). */
static bool brax_pass_turn(position_t *pos)
{
    brax_t *b = P(pos);
    if (team_game(b) || b->called || bb128_popcount(b->men[b->stm]) < 3)
        return false;
    b->hash ^= zobrist_stm[b->stm] ^ zobrist_stm[b->stm ^ 1];
    b->stm ^= 1;
    return true;
}

/* ---- state ---- */

static int brax_to_move(const position_t *pos) { return CP(pos)->stm; }
static uint64_t brax_hash(const position_t *pos) { return CP(pos)->hash; }

/* The table tells apart what repetition does not (settled point 13) but
 * the game's future depends on: with one man against one the quiet plies,
 * which decide the draw; in brax-3p whether Blue moves after R1 or after
 * R2, which decides who moves after Blue. */
static uint64_t brax_tt_key(const position_t *pos)
{
    const brax_t *b = CP(pos);
    uint64_t key = b->hash;
    if (b->variant == V_3P && b->slot == 3)
        key ^= zobrist_after_r2;
    if (bb128_popcount(b->team[RED]) != 1 || bb128_popcount(b->team[BLUE]) != 1)
        return key;
    return key ^ zobrist_quiet[b->quiet < DRAW_QUIET_PLIES ? b->quiet : DRAW_QUIET_PLIES];
}

static player_mask_t brax_players_in(const position_t *pos)
{
    const brax_t *b = CP(pos);
    player_mask_t in = 0;
    for (int pl = 0; pl < b->players; pl++)
        if (!bb128_empty(b->men[pl]))
            in |= player_bit(pl);
    return in;
}

static bool brax_decided(const position_t *pos, outcome_t *out)
{
    const brax_t *b = CP(pos);
    /* Settled 11: a team without men has lost, whoever is to move. */
    for (int t = 0; t < 2; t++)
        if (bb128_empty(b->team[t])) {
            *out = (outcome_t){OUTCOME_WIN, team_mask(b, t ^ 1), "no pieces left"};
            return true;
        }
    if (is_over(b)) {
        *out = (outcome_t){OUTCOME_DRAW, brax_players_in(pos), "one against one, ten moves without capture"};
        return true;
    }
    return false;
}

static outcome_t brax_outcome(const position_t *pos)
{
    outcome_t o;
    if (brax_decided(pos, &o))
        return o;
    const brax_t *b = CP(pos);
    if (brax_count_moves(pos) == 0)
        return (outcome_t){OUTCOME_WIN, team_mask(b, team_of(b->stm) ^ 1), "no legal move"};
    return (outcome_t){OUTCOME_NONE, 0, NULL};
}

/* ---- evaluation ---- */

enum { VAL_MAN = 100, MOBILITY = 3, TO_MOVE_THREAT = 40, HANGING = 25, BRAXED = 15, CENTRE = 4, ADVANCE = 3 };

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

static void init_place_values(void)
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
        bb128_t near = bb128_andnot(step1[p], friends), reach = bb128_zero();
        n += bb128_popcount(near);
        res = bb128_or(res, bb128_and(near, enemy));
        for (int k = 0; k < path_count[p][t]; k++) {
            int mid = path_mid[p][t][k], end = path_end[p][t][k];
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
        probe.slot = (uint8_t)next_slot(&probe, bb128_zero());
        int pl = (b->variant == V_3P ? cycle_3p : cycle_4p)[probe.slot];
        if (team_of(pl) == t)
            return pl;
    }
    return t;
}

/* The terms are per team: the sums over its players. The side to move can
 * take one threatened man now (quiescence sees which); the other team must
 * fear for all of them. In the team games the men the side to move has en
 * prise are those the next opponent to move threatens. */
/* Mop-up: a team with a decisive majority (two men more) against at most
 * two men wins by plan, not by horizon: it closes in on each lone man,
 * drives it from the centre and takes its moves away. Without this the
 * search wandered for 200 plies with seven men against one. */
enum { MOPUP_CLOSE = 3, MOPUP_EDGE = 12, MOPUP_SHUT = 6 };

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
static bool brax_probe_ending(const position_t *pos, ending_t *out)
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

static score_t brax_evaluate(const position_t *pos, eval_trace_t *t)
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

/* ---- text ---- */

static void point_name(int p, char *out)
{
    out[0] = (char)('a' + p % 9);
    out[1] = (char)('1' + p / 9);
    out[2] = 0;
}

static void brax_move_text(const position_t *pos, move_t m, char *buf, size_t len)
{
    (void)pos;
    if (m & MOVE_PASS) {
        snprintf(buf, len, "pass%s", (m & MOVE_CALL) ? "+" : "");
        return;
    }
    char a[3], b[3], c[3] = "";
    point_name(move_from(m), a);
    point_name(move_to(m), b);
    if (move_mid(m) >= 0)
        point_name(move_mid(m), c);
    snprintf(buf, len, "%s%s%s%s", a, c, b, (m & MOVE_CALL) ? "+" : "");
}

/* Reads a point name at s; -1 if there is none. */
static int read_point(const char *s)
{
    if (s[0] < 'a' || s[0] > 'i' || s[1] < '1' || s[1] > '9')
        return -1;
    return (s[1] - '1') * 9 + (s[0] - 'a');
}

static move_t brax_parse_move(const position_t *pos, const char *text)
{
    const brax_t *b = CP(pos);
    size_t len = strlen(text);
    bool call = len > 0 && text[len - 1] == '+';
    if (call)
        len--;
    move_t moves[MAX_MOVES];
    if (len == 4 && strncmp(text, "pass", 4) == 0) {
        int n = gen(b, moves, GEN_ALL);
        for (int i = 0; i < n; i++)
            if ((moves[i] & MOVE_PASS) && ((moves[i] & MOVE_CALL) != 0) == call)
                return moves[i];
        return MOVE_NONE;
    }
    if (len != 4 && len != 6)
        return MOVE_NONE;
    int from = read_point(text), mid = len == 6 ? read_point(text + 2) : -1;
    int to = read_point(text + len - 2);
    if (from < 0 || to < 0 || (len == 6 && mid < 0))
        return MOVE_NONE;
    int n = gen(b, moves, GEN_ALL);
    for (int i = 0; i < n; i++) {
        move_t m = moves[i];
        if ((m & MOVE_PASS) || move_from(m) != from || move_to(m) != to || ((m & MOVE_CALL) != 0) != call)
            continue;
        if (len == 4 && move_mid(m) < 0)
            return m;
        if (len == 6 && move_mid(m) == mid)
            return m;
        /* A named middle point of an ordinary 2-step: it must be a path. */
        if (len == 6 && move_mid(m) < 0) {
            int t = team_of(b->stm);
            for (int k = 0; k < path_count[from][t]; k++)
                if (path_mid[from][t][k] == mid && path_end[from][t][k] == to &&
                    !bb128_test(bb128_or(b->team[0], b->team[1]), mid))
                    return m;
        }
    }
    return MOVE_NONE;
}

/* A pass has no points: key 0, which no move (a1 to a1) uses. */
static int brax_move_key(move_t m) { return (m & MOVE_PASS) ? 0 : move_from(m) * N_PTS + move_to(m); }

/* ---- position strings ---- */

/* Board letters by player: red team lower/upper r, blue team b/B. */
static const char player_letter[MAX_PLAYERS] = {'r', 'b', 'R', 'B'};

static void rehash(brax_t *b)
{
    b->hash = zobrist_stm[b->stm];
    for (int pl = 0; pl < b->players; pl++)
        for (bb128_t m = b->men[pl]; !bb128_empty(m);)
            b->hash ^= zobrist_men[pl][bb128_pop(&m)];
    for (int t = 0; t < 2; t++)
        if (b->called & (1u << t))
            b->hash ^= zobrist_called[t];
    if (team_game(b) && b->caller >= 0)
        b->hash ^= zobrist_caller[b->caller];
    if (b->first >= 0)
        b->hash ^= zobrist_first[b->first];
}

static void add_man(brax_t *b, int pl, int p)
{
    b->men[pl] = bb128_or(b->men[pl], bb128_bit(p));
    b->team[team_of(pl)] = bb128_or(b->team[team_of(pl)], bb128_bit(p));
}

static void clear_position(position_t *pos, int variant)
{
    ensure_tables();
    memset(pos, 0, sizeof *pos);
    brax_t *b = P(pos);
    b->variant = (uint8_t)variant;
    b->players = variant == V_3P ? 3 : variant == V_4P ? 4 : 2;
    b->caller = b->first = -1;
}

/* "d1 e1 f1": points by name. */
static void add_men(brax_t *b, int pl, const char *names)
{
    for (const char *c = names; *c; c += c[2] ? 3 : 2)
        add_man(b, pl, (c[1] - '1') * 9 + (c[0] - 'a'));
}

static void set_start(position_t *pos, int variant)
{
    clear_position(pos, variant);
    brax_t *b = P(pos);
    switch (variant) {
    case V_4P:
        add_men(b, 0, "d1 e1 f1");
        add_men(b, 1, "a4 a5 a6");
        add_men(b, 2, "d9 e9 f9");
        add_men(b, 3, "i4 i5 i6");
        break;
    case V_3P:
        add_men(b, 0, "b1 c1 d1");
        add_men(b, 1, "c9 d9 e9 f9 g9");
        add_men(b, 2, "f1 g1 h1");
        break;
    default:
        add_men(b, RED, variant == V_HUNT ? "e1" : "b1 c1 d1 e1 f1 g1 h1");
        add_men(b, BLUE, "b9 c9 d9 e9 f9 g9 h9");
    }
    rehash(b);
}

static int letter_player(const brax_t *b, char ch)
{
    for (int pl = 0; pl < b->players; pl++)
        if (player_letter[pl] == ch)
            return pl;
    return -1;
}

/* The board field: rows 9 to 1. Returns the rest of the string, or NULL. */
static const char *parse_board(brax_t *b, const char *c, char *err, size_t errlen)
{
    for (int r = 8; r >= 0; r--) {
        int col = 0;
        for (; *c && *c != '/' && *c != ' '; c++) {
            int pl = letter_player(b, *c);
            if (*c >= '1' && *c <= '9') {
                col += *c - '0';
            } else if (pl >= 0) {
                if (col > 8)
                    return game_fail(err, errlen, "row too long"), NULL;
                add_man(b, pl, r * 9 + col);
                col++;
            } else {
                return game_fail(err, errlen, team_game(b) ? "unknown letter (expected a player's letter or 1-9)"
                                                           : "unknown letter (expected r, b or 1-9)"),
                       NULL;
            }
            if (col > 9)
                return game_fail(err, errlen, "row too long"), NULL;
        }
        if (col != 9)
            return game_fail(err, errlen, "each row must have 9 points"), NULL;
        if (r > 0) {
            if (*c != '/')
                return game_fail(err, errlen, "expected 9 rows separated by '/'"), NULL;
            c++;
        }
    }
    return c;
}

static bool parse_calls(brax_t *b, const char *calls)
{
    static const char *const names[4] = {"-", "r", "b", "rb"};
    for (int i = 0; i < 4; i++)
        if (strcmp(calls, names[i]) == 0) {
            b->called = (uint8_t)i;
            return true;
        }
    return false;
}

static bool parse_quiet(brax_t *b, const char *text)
{
    long long q;
    if (!number_parse(text, 0, 255, &q))
        return false;
    b->quiet = (uint8_t)q;
    return true;
}

/* Two players: <board> <side r|b> <calls -|r|b|rb> <quiet plies>. */
static bool parse_two_player(brax_t *b, const char *rest, char *err, size_t errlen)
{
    char f[3][FEN_FIELD_MAX];
    if (*rest != ' ' || fen_fields(rest, f, 3) != 3)
        return game_fail(err, errlen, "expected: <board> <side r|b> <calls -|r|b|rb> <quiet plies>");
    const char *side = f[0], *calls = f[1], *quiet = f[2];
    if (strcmp(side, "r") != 0 && strcmp(side, "b") != 0)
        return game_fail(err, errlen, "side to move must be 'r' or 'b'");
    b->stm = side[0] == 'b';
    if (!parse_calls(b, calls))
        return game_fail(err, errlen, "calls must be '-', 'r', 'b' or 'rb'");
    if (b->variant == V_EASY && b->called)
        return game_fail(err, errlen, "brax-easy has no calls");
    if (!parse_quiet(b, quiet))
        return game_fail(err, errlen, "the quiet ply count must be 0-255");
    if (bb128_popcount(b->men[RED]) > 7 || bb128_popcount(b->men[BLUE]) > 7)
        return game_fail(err, errlen, "at most 7 men a side");
    /* The opponent's call binds us when its last move carried one. */
    b->caller = (int8_t)((b->called >> (b->stm ^ 1)) & 1 ? b->stm ^ 1 : -1);
    return true;
}

/* The turn field of a team game: a letter, and brax-3p's b1 or b2. */
static bool parse_turn(brax_t *b, const char *turn)
{
    int pl = letter_player(b, turn[0]);
    if (pl < 0)
        return false;
    if (b->variant == V_4P) {
        b->slot = (uint8_t)pl;
        return turn[1] == 0;
    }
    if (pl != BLUE_3P) {
        b->slot = (uint8_t)pl;
        return turn[1] == 0;
    }
    b->slot = turn[1] == '1' ? 1 : 3;
    return (turn[1] == '1' || turn[1] == '2') && turn[2] == 0;
}

/* Team games: <board> <turn> <calls> <caller> <first> <quiet plies>. */
static bool parse_team(brax_t *b, const char *rest, char *err, size_t errlen)
{
    char f[5][FEN_FIELD_MAX];
    if (*rest != ' ' || fen_fields(rest, f, 5) != 5)
        return game_fail(err, errlen, "expected: <board> <turn> <calls -|r|b|rb> <caller> <first man> <quiet plies>");
    const char *turn = f[0], *calls = f[1], *caller = f[2], *first = f[3], *quiet = f[4];
    if (!parse_turn(b, turn))
        return game_fail(err, errlen, b->variant == V_3P ? "turn must be r, R, b1 or b2" : "turn must be r, b, R or B");
    b->stm = (b->variant == V_3P ? cycle_3p : cycle_4p)[b->slot];
    if (!parse_calls(b, calls))
        return game_fail(err, errlen, "calls must be '-', 'r', 'b' or 'rb'");
    if (!parse_quiet(b, quiet))
        return game_fail(err, errlen, "the quiet ply count must be 0-255");
    if (strcmp(caller, "-") != 0) {
        int c = caller[1] ? -1 : letter_player(b, caller[0]);
        if (c < 0 || team_of(c) == team_of(b->stm) || !(b->called & (1u << team_of(c))))
            return game_fail(err, errlen, "the caller must be an opponent whose team's last turn called");
        b->caller = (int8_t)c;
    }
    if (strcmp(first, "-") != 0) {
        int p = strlen(first) == 2 ? read_point(first) : -1;
        if (b->variant != V_3P || b->stm != BLUE_3P || p < 0 || !bb128_test(b->men[BLUE_3P], p) ||
            bb128_popcount(b->men[BLUE_3P]) < 2 || b->caller >= 0)
            return game_fail(err, errlen, "a first man only in brax-3p, on a Blue man, mid-turn, with no call binding");
        b->first = (int8_t)p;
    }
    for (int pl = 0; pl < b->players; pl++)
        if (bb128_popcount(b->men[pl]) > (b->variant == V_3P && pl == BLUE_3P ? 5 : 3))
            return game_fail(err, errlen, "too many men for a player");
    if (bb128_empty(b->men[b->stm]) && !bb128_empty(b->team[0]) && !bb128_empty(b->team[1]))
        return game_fail(err, errlen, "the player to move has no men");
    return true;
}

static bool parse_fen(position_t *pos, const char *fen, char *err, size_t errlen, int variant)
{
    clear_position(pos, variant);
    brax_t *b = P(pos);
    const char *rest = parse_board(b, fen, err, errlen);
    if (!rest)
        return false;
    if (!(team_game(b) ? parse_team(b, rest, err, errlen) : parse_two_player(b, rest, err, errlen)))
        return false;
    rehash(b);
    return true;
}

static void brax_write_fen(const position_t *pos, char *buf, size_t len)
{
    const brax_t *b = CP(pos);
    char out[GAME_FEN_MAX];
    size_t n = 0;
    for (int r = 8; r >= 0; r--) {
        char cells[9];
        for (int col = 0; col < 9; col++) {
            cells[col] = 0;
            for (int pl = 0; pl < b->players; pl++)
                if (bb128_test(b->men[pl], r * 9 + col))
                    cells[col] = player_letter[pl];
        }
        fen_append_row(out, &n, cells, 9);
        if (r)
            out[n++] = '/';
    }
    out[n] = 0;
    static const char *const calls[4] = {"-", "r", "b", "rb"};
    if (!team_game(b)) {
        snprintf(buf, len, "%s %c %s %d", out, b->stm ? 'b' : 'r', calls[b->called & 3], b->quiet);
        return;
    }
    char turn[3] = {player_letter[b->stm], 0, 0}, first[3] = "-";
    if (b->variant == V_3P && b->stm == BLUE_3P)
        turn[1] = b->slot == 1 ? '1' : '2';
    if (b->first >= 0)
        point_name(b->first, first);
    snprintf(buf, len, "%s %s %s %c %s %d", out, turn, calls[b->called & 3],
             b->caller >= 0 ? player_letter[b->caller] : '-', first, b->quiet);
}

static const char *const seat_names_4p[4] = {"South", "West", "North", "East"};
static const char *const seat_names_3p[3] = {"R1", "Blue", "R2"};
/* On the drawn board men must not look like the lower-case segment letters. */
static const char board_letter_4p[4] = {'S', 'W', 'N', 'E'}, board_letter_3p[3] = {'1', 'B', '2'};

/* Points as men (one letter per player) or '+', segments as 'r'/'b'
 * letters (or coloured lines with ANSI), so the colouring reads in any
 * terminal. */
static void brax_print_board(const position_t *pos, char *buf, size_t len, bool ansi)
{
    const brax_t *b = CP(pos);
    size_t n = 0;
#define OUT(...) (n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
    const char *red = ansi ? "\033[31m" : "", *blue = ansi ? "\033[34m" : "", *off = ansi ? "\033[0m" : "";
    const char *bold = ansi ? "\033[1m" : "";
    for (int r = 8; r >= 0; r--) {
        OUT(" %d  ", r + 1);
        for (int col = 0; col < 9; col++) {
            int p = r * 9 + col, who = -1;
            for (int pl = 0; pl < b->players; pl++)
                if (bb128_test(b->men[pl], p))
                    who = pl;
            char letter = who < 0                ? '+'
                          : b->variant == V_4P ? board_letter_4p[who]
                          : b->variant == V_3P ? board_letter_3p[who]
                          : who                ? 'B'
                                               : 'R';
            if (who >= 0)
                OUT("%s%s%c%s", bold, team_of(who) ? blue : red, letter, off);
            else
                OUT("+");
            if (col < 8) {
                int c = brax_segment_colour(p, p + 1);
                OUT(" %s%s%s ", c ? blue : red, ansi ? "-" : c ? "b" : "r", off);
            }
        }
        OUT("\n");
        if (r == 0)
            break;
        OUT("    ");
        for (int col = 0; col < 9; col++) {
            int c = brax_segment_colour(r * 9 + col - 9, r * 9 + col);
            OUT("%s%s%s   ", c ? blue : red, ansi ? "|" : c ? "b" : "r", off);
        }
        OUT("\n");
    }
    OUT("    a   b   c   d   e   f   g   h   i\n");
    if (team_game(b)) {
        const char *const *names = b->variant == V_3P ? seat_names_3p : seat_names_4p;
        const char *letters = b->variant == V_3P ? board_letter_3p : board_letter_4p;
        for (int pl = 0; pl < b->players; pl++)
            OUT("%s%c %s (%s team, %c in FEN)", pl ? ", " : "", letters[pl], names[pl], team_of(pl) ? "blue" : "red",
                player_letter[pl]);
        OUT("\n%s to move", names[b->stm]);
        if (b->first >= 0) {
            char name[3];
            point_name(b->first, name);
            OUT(", second move (not the man on %s)", name);
        }
    } else {
        OUT("%s to move", b->stm ? "Blue" : "Red");
    }
    bb128_t forced = forced_men(b);
    if (!bb128_empty(forced)) {
        OUT(", braxed: must move");
        for (bb128_t m = forced; !bb128_empty(m);) {
            char name[3];
            point_name(bb128_pop(&m), name);
            OUT(" %s", name);
        }
    }
    OUT("\n");
#undef OUT
}

/* ---- the variants ---- */

#define VARIANT_FNS(tag, id)                                                                                     \
    static void set_start_##tag(position_t *pos) { set_start(pos, id); }                                         \
    static bool parse_fen_##tag(position_t *pos, const char *fen, char *err, size_t len)                         \
    {                                                                                                            \
        return parse_fen(pos, fen, err, len, id);                                                                \
    }
VARIANT_FNS(brax, V_BRAX)
VARIANT_FNS(zillions, V_ZILLIONS)
VARIANT_FNS(easy, V_EASY)
VARIANT_FNS(hunt, V_HUNT)
VARIANT_FNS(3p, V_3P)
VARIANT_FNS(4p, V_4P)

/* The team games solve nothing: only the two-player ones have these. */
#define SOLVED_FNS(tag, id)                                                                                      \
    static void prepare_##tag(void) { brax_ending_prepare(variant_doubles(id)); }
SOLVED_FNS(brax, V_BRAX)
SOLVED_FNS(zillions, V_ZILLIONS)
SOLVED_FNS(easy, V_EASY)
SOLVED_FNS(hunt, V_HUNT)

/* The start, two positions from engine self-play, and two with contact. */
static const char *const bench_fens[] = {
    "1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r - 0",
    "3b1b3/1b5b1/4b1b2/2b6/9/9/2r1r1r2/1r1r3r1/5r3 r - 16",
    "3b5/1b3b1b1/4b1b2/9/1b7/6r2/2r1r4/1r1r2r1r/9 r - 26",
    "9/1b5b1/9/3bb1b2/2b1rb3/3r2r2/2r2r3/1r5r1/9 r - 0",
    "9/4b4/2b3b2/3bbb3/9/3rrr3/2r3r2/9/9 b - 0",
    NULL,
};

/* The starts and the perft suite's mid-game positions (bench/perft.txt). */
static const char *const bench_fens_3p[] = {
    "2bbbbb2/9/9/9/9/9/9/9/1rrr1RRR1 r - - - 0",
    "9/2b1b4/3b5/4r4/9/9/2R6/9/1r3R3 b1 - - d7 2",
    "9/2b6/3b1b3/3R5/9/9/9/9/5R3 b2 r R - 0",
    NULL,
};

static const char *const bench_fens_4p[] = {
    "3RRR3/9/9/b7B/b7B/b7B/9/9/3rrr3 r - - - 0",
    "9/3R5/4B4/2br5/3B5/9/2b6/4R4/3r5 b r r - 0",
    "9/3R5/4B4/4r4/3B5/9/9/4R4/3r5 R - - - 3",
    NULL,
};

static const char *const bench_fens_hunt[] = {
    "1bbbbbbb1/9/9/9/9/9/9/9/4r4 r - 0",
    "9/1bbb1bbb1/9/9/9/9/4r4/9/9 r - 0",
    NULL,
};

#define BRAX_GAME(var, vname, desc, tag, fens, seats, probe, prep, team0, team1, ...)                        \
    const game_t var = {                                                                                         \
        .name = vname,                                                                                           \
        .description = desc,                                                                                     \
        .players = seats,                                                                                        \
        .team_of = {0, 1, 0, 1},                                                                                 \
        .player_names = {__VA_ARGS__},                                                                           \
        .team_names = {team0, team1},                                                                            \
        .repetition_draw = true,                                                                                 \
        .move_keys = N_PTS * N_PTS,                                                                              \
        .bench_fens = fens,                                                                                      \
        .bench_depth = 8,                                                                                        \
        .set_start = set_start_##tag,                                                                            \
        .parse_fen = parse_fen_##tag,                                                                            \
        .write_fen = brax_write_fen,                                                                             \
        .print_board = brax_print_board,                                                                         \
        .to_move = brax_to_move,                                                                                 \
        .players_in = brax_players_in,                                                                           \
        .hash = brax_hash,                                                                                       \
        .tt_key = brax_tt_key,                                                                                   \
        .pass_turn = brax_pass_turn,                                                                             \
        .gen_moves = brax_gen_moves,                                                                             \
        .gen_noisy = brax_gen_noisy,                                                                             \
        .gen_captures = brax_gen_captures,                                                                       \
        .gen_quiet = brax_gen_quiet,                                                                             \
        .count_moves = brax_count_moves,                                                                         \
        .move_legal = brax_move_legal,                                                                           \
        .make = brax_make,                                                                                       \
        .unmake = brax_unmake,                                                                                   \
        .decided = brax_decided,                                                                                 \
        .outcome = brax_outcome,                                                                                 \
        .evaluate = brax_evaluate,                                                                               \
        .move_text = brax_move_text,                                                                             \
        .parse_move = brax_parse_move,                                                                           \
        .move_key = brax_move_key,                                                                               \
        .probe_ending = probe,                                                                                   \
        .prepare = prep,                                                                                         \
        .chance_outcomes = NULL,                                                                                 \
        .view_board = brax_view_board,                                                                           \
        .view_position = brax_view_position,                                                                     \
        .view_move = brax_view_move,                                                                             \
    }

BRAX_GAME(brax_denham, "brax", "Brax (Denham, 1889)", brax, bench_fens, 2, brax_probe_ending, prepare_brax, NULL, NULL,
          "red", "blue");
BRAX_GAME(brax_zillions, "brax-zillions", "Brax, Zillions of Games rules", zillions, bench_fens, 2, brax_probe_ending,
          prepare_zillions, NULL, NULL, "red", "blue");
BRAX_GAME(brax_easy, "brax-easy", "Brax Easy (no calls, no double captures)", easy, bench_fens, 2, brax_probe_ending,
          prepare_easy, NULL, NULL, "red", "blue");
BRAX_GAME(brax_hunt, "brax-hunt", "Brax hunt: one red man against seven", hunt, bench_fens_hunt, 2, brax_probe_ending,
          prepare_hunt, NULL, NULL, "red", "blue");
BRAX_GAME(brax_3p, "brax-3p", "Brax for three: R1 and R2 against Blue's two-move turns", 3p, bench_fens_3p, 3, NULL,
          NULL, "red team", "blue", "R1", "Blue", "R2");
BRAX_GAME(brax_4p, "brax-4p", "Brax for four: South and North against West and East", 4p, bench_fens_4p, 4, NULL, NULL,
          "red team", "blue team", "South", "West", "North", "East");
