/* ref_brax_team.h: a plain implementation of the Brax team games
 * (`brax-3p`, `brax-4p`) on a grid of owners, written from
 * docs/rules/brax.md and its settled points separately from the engine's
 * bitboard module: the yardstick for the fast generator.
 *
 * Position strings are the engine's (PROTOCOL.md): board rows 9..1 with a
 * letter per player (brax-4p: r South, b West, R North, B East; brax-3p:
 * r R1, b Blue, R R2), the turn (a player's letter; brax-3p Blue's two
 * turns of the cycle are b1 and b2), the teams whose last turn ended with a
 * call (-, r, b, rb), the player whose call binds the mover (- or a letter),
 * the point of the man Blue moved first this turn (- or a point), and the
 * plies since the last capture. */
#ifndef DENHAM_REF_BRAX_TEAM_H
#define DENHAM_REF_BRAX_TEAM_H

#include <stdbool.h>

typedef struct ref_team {
    int owner[9][9]; /* [row][col]: -1 empty, else the player */
    int players;     /* 3 or 4 */
    int slot;        /* place in the turn cycle */
    bool team_called[2];
    int caller;      /* -1: the mover is not bound */
    int first_r, first_c; /* -1: Blue has not moved this turn */
    int quiet;
} ref_team_t;

typedef struct ref_team_move {
    bool pass;
    int fr, fc, tr, tc, mr, mc; /* mr = -1: no captured middle */
    bool call;
    char text[16];
} ref_team_move_t;

bool ref_team_from_fen(ref_team_t *b, const char *fen, int players);
void ref_team_to_fen(const ref_team_t *b, char *out);
int ref_team_moves(const ref_team_t *b, ref_team_move_t *moves);
void ref_team_play(ref_team_t *b, const ref_team_move_t *m);
/* The player to move. */
int ref_team_to_move(const ref_team_t *b);
/* 'n' ongoing, 'r' red team won, 'b' blue team won, '=' drawn. */
char ref_team_result(const ref_team_t *b);

#endif
