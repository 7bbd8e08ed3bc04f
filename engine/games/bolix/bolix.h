/*
 * bolix.h: Bolix (Bollux, Boku; Rob Nelson 1994) on the 80-cell hex board,
 * per docs/rules/bolix.md. Player 0 (team 0) is Black, who places first;
 * player 1 is White.
 * The game's only public header: the rest of engine/games/bolix/ is private
 * to it.
 *
 * Cells are named by column a-j and number (a1-a6, b1-b7, c1-c8, d1-d9,
 * e1-e10, f1-f10, g2-g10, h3-h10, i4-i10, j5-j10).
 *
 * Position string: the ten columns a to j, each from its lowest number up,
 * separated by '/': 'b' black, 'w' white, a number for that many empty
 * cells; the side to move ('b' or 'w'); black's and white's marbles in
 * hand; the cell barred by ko for the side to move, or '-'; the number of
 * passes just made in a row (0 or 1).
 *   start: 6/7/8/9/10/10/9/8/7/6 b 36 36 - 0
 * Moves: the cell (`e5`), the cell and the removed marble (`e5xf6`), `pass`.
 */
#ifndef DENHAM_BOLIX_H
#define DENHAM_BOLIX_H

#include "../../core/game.h"

extern const game_t bolix;

/* Number of five-cell windows on the board (116 by the ruling). */
int bolix_window_count(void);

#endif
