/*
 * brandubh.h: Brandubh, the 7x7 tafl game, in its two versions
 * (docs/rules/brandubh.md). Player 0 (team 0) is the attackers, who move
 * first; player 1 (team 1) is the defenders with the king.
 * The game's only public header: the rest of engine/games/brandubh/ is
 * private to it.
 *
 * Position string: the board from rank 7 down to rank 1, ranks separated by
 * '/', 'a' attacker, 'd' defender, 'k' king, a digit for that many empty
 * squares; a space; the side to move, 'a' or 'd'.
 *   start: 3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a
 * Moves are the start and end squares: "d2c2".
 */
#ifndef DENHAM_BRANDUBH_H
#define DENHAM_BRANDUBH_H

#include "../../core/game.h"

extern const game_t brandubh_v1;
extern const game_t brandubh_v2;

#endif
