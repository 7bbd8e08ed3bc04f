/*
 * brax_rules.h: what the files of the Brax game share and nobody else
 * sees: the position (brax_t), the move encoding, the turn cycles of the
 * team games, the hash keys, and the few rules the evaluation and the
 * text need. Included by brax_*.c only; the search and the protocol reach
 * a Brax game through its game_t (brax.h) alone.
 *
 * The Brax call is part of a move (a flag bit). Its consequence, the forced
 * reply, is not stored: it is the set of the mover's men that the caller
 * threatens now, which nothing has changed since the call. The position
 * holds who that caller is and which teams' last turns ended with a call
 * (which decides who may call).
 *
 * Every rule is written for "player pl of team pl & 1": its own men block
 * and move, its partner's men block, the other team's men are captured, and
 * 2-steps follow the team's colour (team 0 red, team 1 blue). In the
 * two-player games each team is one player.
 */
#ifndef DENHAM_BRAX_RULES_H
#define DENHAM_BRAX_RULES_H

#include "../../core/bb128.h"
#include "../../core/game.h"
#include "brax_geometry.h"

enum { RED = 0, BLUE = 1 };
enum { V_BRAX, V_ZILLIONS, V_EASY, V_HUNT, V_3P, V_4P };
/* brax-3p: R1 is player 0, Blue player 1, R2 player 2. */
enum { BLUE_3P = 1 };

#define DRAW_QUIET_PLIES 10

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
static inline int team_of(int pl) { return pl & 1; }
static inline bool team_game(const brax_t *b) { return b->players > 2; }
static inline brax_t *P(position_t *p) { return (brax_t *)p->bytes; }
static inline const brax_t *CP(const position_t *p) { return (const brax_t *)p->bytes; }

static inline bool variant_doubles(int variant) { return variant != V_ZILLIONS && variant != V_EASY; }
static inline bool has_double_capture(const brax_t *b) { return variant_doubles(b->variant); }

static inline player_mask_t team_mask(const brax_t *b, int t)
{
    player_mask_t all = (player_mask_t)((1u << b->players) - 1);
    return team_game(b) ? (player_mask_t)((t ? 0xA : 0x5) & all) : player_bit(t);
}

/* from (7 bits) | to << 7 | (mid + 1) << 14 for double captures | call;
 * a pass is its own flag with no points. */
#define MOVE_CALL ((move_t)1 << 21)
#define MOVE_PASS ((move_t)1 << 22)
/* Is the ply about to be played Blue's first of a two-ply brax-3p turn? */
static inline bool blue_first_of_two(const brax_t *b)
{
    return b->variant == V_3P && b->stm == BLUE_3P && b->first < 0 && bb128_popcount(b->men[BLUE_3P]) >= 2;
}

/* A team without men, or one man against one after DRAW_QUIET_PLIES. */
static inline bool is_over(const brax_t *b)
{
    int red = bb128_popcount(b->team[RED]), blue = bb128_popcount(b->team[BLUE]);
    return red == 0 || blue == 0 || (red == 1 && blue == 1 && b->quiet >= DRAW_QUIET_PLIES);
}

static inline move_t encode(int from, int to, int mid) { return (move_t)(from | to << 7 | (mid + 1) << 14); }
static inline int move_from(move_t m) { return (int)(m & 127); }
static inline int move_to(move_t m) { return (int)(m >> 7 & 127); }
static inline int move_mid(move_t m) { return (int)(m >> 14 & 127) - 1; }

/* Hash keys (brax_play.c). brax_zobrist_stm[0] is 0 and [1] the two-player
 * side key; the team games add keys for players 2-3, the binding caller
 * and Blue's first man, drawn after the two-player keys so that those stay
 * as they were. One man against one: the quiet plies decide the draw, so
 * they are part of the position (up to the count that ends the game).
 * brax_zobrist_after_r2: brax-3p, Blue's turn after R2's (slot 3) rather than
 * after R1's. */
extern uint64_t brax_zobrist_men[MAX_PLAYERS][N_PTS], brax_zobrist_stm[MAX_PLAYERS], brax_zobrist_called[2];
extern uint64_t brax_zobrist_caller[MAX_PLAYERS], brax_zobrist_first[N_PTS];
extern uint64_t brax_zobrist_quiet[DRAW_QUIET_PLIES + 1];
extern uint64_t brax_zobrist_after_r2;

/* The board tables, the hash keys and the evaluation's tables, once; safe
 * from any thread. */
void brax_tables_ensure(void);

/* For the evaluation: the moves of player pl's men (1-steps and 2-steps to
 * points without a friend, two paths to one end once; double captures
 * not counted) and the enemy men they threaten (both men of a double
 * capture too), all men at once. */
int brax_men_mobility(const brax_t *b, int pl, bb128_t *hits);
/* brax_men_mobility()'s count summed over the players of team t, in one
 * pass; and its threats alone, for one player, those among `targets`. */
int brax_team_mobility(const brax_t *b, int t);
bb128_t brax_men_hits(const brax_t *b, int pl, bb128_t targets);

/* The moves of the position in `part`, with their calls. */
int brax_gen(const brax_t *b, move_t *moves, gen_part_t part);
/* The men the side to move must choose from after a call, or empty. */
bb128_t brax_forced_men(const brax_t *b);
/* The next slot of the turn cycle whose player still has men once the men
 * in `taken` are gone (settled 5). Inline: the generator asks it for every
 * call it tests in the team games. */
static inline int brax_next_slot(const brax_t *b, bb128_t taken)
{
    const uint8_t *cycle = b->variant == V_3P ? cycle_3p : cycle_4p;
    for (int k = 1; k <= 4; k++) {
        int s = (b->slot + k) & 3;
        if (!bb128_empty(bb128_andnot(b->men[cycle[s]], taken)))
            return s;
    }
    return b->slot;
}

/* For the explanations (brax_why.c): the moves of player pl's men in
 * from_set, as the rules of moving allow them (no calls, and neither a call
 * to answer nor Blue's second-move rule applied). */
int brax_plain_moves(const brax_t *b, int pl, bb128_t from_set, move_t *moves);

/* Whether the player to move may add a call to the plain move m (a legal
 * move without its call, or a pass), and if not, which rule refuses it. */
typedef enum brax_call {
    CALL_OK,
    CALL_NONE_IN_VARIANT, /* brax-easy */
    CALL_NOT_FIRST_OF_TWO, /* brax-3p: Blue calls on its second move */
    CALL_TWICE,           /* the team's last turn called (not Zillions) */
    CALL_COUNTS,          /* the men left on each side after m */
    CALL_PARTNER_NEXT,    /* the next player is on the mover's team */
    CALL_NO_THREAT,       /* no man of the next player threatened after m */
} brax_call_t;
brax_call_t brax_call_check(const brax_t *b, move_t m);

/* game_t's rules (see game.h for each one's contract). */
int brax_gen_moves(const position_t *pos, move_t *moves);
int brax_gen_noisy(const position_t *pos, move_t *moves);
int brax_gen_captures(const position_t *pos, move_t *moves);
int brax_gen_quiet(const position_t *pos, move_t *moves);
int brax_count_moves(const position_t *pos);
bool brax_move_legal(const position_t *pos, move_t m);
void brax_make(position_t *pos, move_t m, undo_t *u);
void brax_unmake(position_t *pos, move_t m, const undo_t *u);
bool brax_pass_turn(position_t *pos);
int brax_to_move(const position_t *pos);
uint64_t brax_hash(const position_t *pos);
uint64_t brax_tt_key(const position_t *pos);
player_mask_t brax_players_in(const position_t *pos);
bool brax_decided(const position_t *pos, outcome_t *out);
outcome_t brax_outcome(const position_t *pos);

#endif
