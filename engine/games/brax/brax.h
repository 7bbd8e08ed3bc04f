/*
 * brax.h: Brax (Denham, 1889) and its variants, per docs/rules/brax.md:
 * `brax`, `brax-zillions`, `brax-easy`, `brax-hunt` for two players, and
 * the team games `brax-3p` and `brax-4p`. Team 0 is red, team 1 blue.
 * Two players: player 0 is Red, who moves first; player 1 is Blue.
 * brax-4p: players South, West, North, East (teams red, blue, red, blue);
 * brax-3p: R1, Blue, R2 (turn order R1, Blue, R2, Blue).
 * The game's only public header (with brax_geometry.h for the board tests):
 * the rest of engine/games/brax/ is private to it.
 *
 * Position string: the points from row 9 down to row 1, rows separated by
 * '/', 'r' a red man, 'b' a blue man, a digit for that many empty points;
 * the side to move, 'r' or 'b'; the players whose last move called Brax
 * ('-', 'r', 'b' or 'rb'); the plies since the last capture.
 *   start: 1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r - 0
 * Moves: start and end point (`e3e5`); a double capture names its middle
 * point (`e6f6f5`); a Brax call appends `+`. Input may name the middle point
 * of any 2-step.
 *
 * Team games: board letters r South/R1, b West/Blue, R North/R2, B East;
 * then the turn (the mover's letter; brax-3p Blue's turn after R1 is `b1`,
 * after R2 `b2`), the teams whose last turn ended with a call, the player
 * whose call binds the mover (`-` or a letter), the point of the man Blue
 * moved first this turn (`-` or a point), the plies since the last capture.
 *   brax-4p start: 3RRR3/9/9/b7B/b7B/b7B/9/9/3rrr3 r - - - 0
 *   brax-3p start: 2bbbbb2/9/9/9/9/9/9/9/1rrr1RRR1 r - - - 0
 * Moves as above, plus `pass` (a player who cannot move while a partner
 * can, or Blue's impossible second move) and `pass+` (that last, calling).
 */
#ifndef DENHAM_BRAX_H
#define DENHAM_BRAX_H

#include "../../core/game.h"

extern const game_t brax_denham;
extern const game_t brax_zillions;
extern const game_t brax_easy;
extern const game_t brax_hunt;
extern const game_t brax_3p;
extern const game_t brax_4p;

#endif
