/*
 * brax_play.c: playing a move in every Brax variant: the hash keys,
 * make/unmake (the men, the call, whose turn it is), the pass of the null
 * move, and the position's state (the table's key, the players still in,
 * the end of the game). The moves themselves are brax_rules.c's; this file
 * may not reach into the move generator's own helpers, the evaluation or
 * the text.
 */
#include "brax_rules.h"

#include <assert.h>
#include <string.h>

#include "../../core/rng.h"
#include "../../core/thread.h"

uint64_t brax_zobrist_men[MAX_PLAYERS][N_PTS], brax_zobrist_stm[MAX_PLAYERS], brax_zobrist_called[2];
uint64_t brax_zobrist_caller[MAX_PLAYERS], brax_zobrist_first[N_PTS];
uint64_t brax_zobrist_quiet[DRAW_QUIET_PLIES + 1];
uint64_t brax_zobrist_after_r2;
static thr_once_t tables_once = THR_ONCE_INIT;

static void init_tables(void)
{
    brax_geometry_init();
    rng_t rng = {0xB3A7B3A7u};
    for (int c = 0; c < 2; c++)
        for (int p = 0; p < N_PTS; p++)
            brax_zobrist_men[c][p] = rng_next(&rng);
    brax_zobrist_stm[1] = rng_next(&rng);
    brax_zobrist_called[0] = rng_next(&rng);
    brax_zobrist_called[1] = rng_next(&rng);
    for (int c = 2; c < MAX_PLAYERS; c++) {
        for (int p = 0; p < N_PTS; p++)
            brax_zobrist_men[c][p] = rng_next(&rng);
        brax_zobrist_stm[c] = rng_next(&rng);
    }
    for (int c = 0; c < MAX_PLAYERS; c++)
        brax_zobrist_caller[c] = rng_next(&rng);
    for (int p = 0; p < N_PTS; p++)
        brax_zobrist_first[p] = rng_next(&rng);
    for (int q = 0; q <= DRAW_QUIET_PLIES; q++)
        brax_zobrist_quiet[q] = rng_next(&rng);
    brax_zobrist_after_r2 = rng_next(&rng);
}

void brax_tables_ensure(void) { thr_once(&tables_once, init_tables); }

/* ---- make / unmake ---- */

static void toggle(brax_t *b, int pl, int p)
{
    b->men[pl] = bb128_xor(b->men[pl], bb128_bit(p));
    b->team[team_of(pl)] = bb128_xor(b->team[team_of(pl)], bb128_bit(p));
    b->hash ^= brax_zobrist_men[pl][p];
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
    if (!team_game(b) && !(m & MOVE_PASS)) {
        /* Two players: each team is one player, the owner of every man. */
        int pl = b->stm, from = move_from(m), to = move_to(m), mid = move_mid(m);
        bb128_t moved = bb128_or(bb128_bit(from), bb128_bit(to)), taken = bb128_and(b->team[pl ^ 1], bb128_bit(to));
        uint64_t hash = b->hash ^ brax_zobrist_men[pl][from] ^ brax_zobrist_men[pl][to];
        capture = !bb128_empty(taken);
        if (capture)
            hash ^= brax_zobrist_men[pl ^ 1][to];
        if (mid >= 0) {
            taken = bb128_or(taken, bb128_bit(mid));
            hash ^= brax_zobrist_men[pl ^ 1][mid];
        }
        b->men[pl] = b->team[pl] = bb128_xor(b->team[pl], moved);
        b->men[pl ^ 1] = b->team[pl ^ 1] = bb128_xor(b->team[pl ^ 1], taken);
        b->hash = hash;
    } else if (!(m & MOVE_PASS)) {
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
        b->hash ^= brax_zobrist_called[t];
    }
}

/* The binding caller and Blue's first man are hashed in the team games
 * only: in the two-player games the caller follows from `called`. */
static void set_caller(brax_t *b, int pl)
{
    if (team_game(b) && b->caller != pl)
        b->hash ^= (b->caller >= 0 ? brax_zobrist_caller[b->caller] : 0) ^ (pl >= 0 ? brax_zobrist_caller[pl] : 0);
    b->caller = (int8_t)pl;
}

static void set_first(brax_t *b, int p)
{
    if (b->first != p)
        b->hash ^= (b->first >= 0 ? brax_zobrist_first[b->first] : 0) ^ (p >= 0 ? brax_zobrist_first[p] : 0);
    b->first = (int8_t)p;
}

static void set_stm(brax_t *b, int pl)
{
    b->hash ^= brax_zobrist_stm[b->stm] ^ brax_zobrist_stm[pl];
    b->stm = (uint8_t)pl;
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
    b->slot = (uint8_t)brax_next_slot(b, bb128_zero());
    set_stm(b, (b->variant == V_3P ? cycle_3p : cycle_4p)[b->slot]);
}

void brax_make(position_t *pos, move_t m, undo_t *u)
{
    brax_t *b = P(pos);
    memcpy(u->w, b, sizeof *b);
    play(b, m);
}

void brax_unmake(position_t *pos, move_t m, const undo_t *u)
{
    (void)m;
    memcpy(P(pos), u->w, sizeof(brax_t));
}

_Static_assert(sizeof(brax_t) <= sizeof(((undo_t *)0)->w), "undo holds a position");

/* Two players only, not while a call binds or may bind, and not with
 * fewer than three men (having to move is what loses such endings). */
bool brax_pass_turn(position_t *pos)
{
    brax_t *b = P(pos);
    if (team_game(b) || b->called || bb128_popcount(b->men[b->stm]) < 3)
        return false;
    b->hash ^= brax_zobrist_stm[b->stm] ^ brax_zobrist_stm[b->stm ^ 1];
    b->stm ^= 1;
    return true;
}

/* ---- state ---- */

int brax_to_move(const position_t *pos) { return CP(pos)->stm; }
uint64_t brax_hash(const position_t *pos) { return CP(pos)->hash; }

/* The table tells apart what repetition does not (settled point 13) but
 * the game's future depends on: with one man against one the quiet plies,
 * which decide the draw; in brax-3p whether Blue moves after R1 or after
 * R2, which decides who moves after Blue. */
uint64_t brax_tt_key(const position_t *pos)
{
    const brax_t *b = CP(pos);
    uint64_t key = b->hash;
    if (b->variant == V_3P && b->slot == 3)
        key ^= brax_zobrist_after_r2;
    if (bb128_popcount(b->team[RED]) != 1 || bb128_popcount(b->team[BLUE]) != 1)
        return key;
    return key ^ brax_zobrist_quiet[b->quiet < DRAW_QUIET_PLIES ? b->quiet : DRAW_QUIET_PLIES];
}

player_mask_t brax_players_in(const position_t *pos)
{
    const brax_t *b = CP(pos);
    player_mask_t in = 0;
    for (int pl = 0; pl < b->players; pl++)
        if (!bb128_empty(b->men[pl]))
            in |= player_bit(pl);
    return in;
}

bool brax_decided(const position_t *pos, outcome_t *out)
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

outcome_t brax_outcome(const position_t *pos)
{
    outcome_t o;
    if (brax_decided(pos, &o))
        return o;
    const brax_t *b = CP(pos);
    if (brax_count_moves(pos) == 0)
        return (outcome_t){OUTCOME_WIN, team_mask(b, team_of(b->stm) ^ 1), "no legal move"};
    return (outcome_t){OUTCOME_NONE, 0, NULL};
}
