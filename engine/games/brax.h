/*
 * brax.h: Brax (Denham, 1889) and its two-player variants, per
 * shared/rules/brax.md: `brax`, `brax-zillions`, `brax-easy`, `brax-hunt`.
 * Player 0 (team 0) is Red, who moves first; player 1 (team 1) is Blue.
 *
 * Position string: the points from row 9 down to row 1, rows separated by
 * '/', 'r' a red man, 'b' a blue man, a digit for that many empty points;
 * the side to move, 'r' or 'b'; the players whose last move called Brax
 * ('-', 'r', 'b' or 'rb'); the plies since the last capture.
 *   start: 1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r - 0
 * Moves: start and end point (`e3e5`); a double capture names its middle
 * point (`e6f6f5`); a Brax call appends `+`. Input may name the middle point
 * of any 2-step.
 */
#ifndef DENHAM_BRAX_H
#define DENHAM_BRAX_H

#include "../core/game.h"

extern const game_t brax_denham;
extern const game_t brax_zillions;
extern const game_t brax_easy;
extern const game_t brax_hunt;

/* The colour of the segment between two orthogonally adjacent points
 * (index row * 9 + column): 0 red, 1 blue; -1 when not adjacent. */
int brax_segment_colour(int a, int b);

#endif
