/*
 * jinxx.h: Jinxx for 2, 3 and 4 players, per docs/rules/jinxx.md:
 * `jinxx`, `jinxx-3p`, `jinxx-4p`.
 * The game's only public header: the rest of engine/games/jinxx/ is private
 * to it.
 *
 * Players in turn order: two players South (p1) and North (p2); three
 * South, West, North; four South, West, North, East. Every player is a team
 * of its own. A roll of the die is a chance event: where the die is still
 * to be rolled, the moves are the six faces (S, M, L, SM, SL, ML).
 *
 * Position string: <board> <trees> <turn> <die> <counter>
 *   board: ranks 3, 2, 1 separated by '/', each three cells a, b, c
 *     separated by ','; a cell is '.' or its pyramids bottom-up, each a size
 *     letter and its owner's number: L1M2S1;
 *   trees: per player in turn order, separated by '/', three digits (3
 *     LMS, 2 LM, 1 L, 0 empty) in the order of the player's edge cells
 *     (South a1 b1 c1, West a1 a2 a3, North a3 b3 c3, East c1 c2 c3), or 'x'
 *     for a player who is out (vaporized);
 *   turn: p1..p4, the player to move (after a move that ends the game, the
 *     player who made it); die: '-' still to be rolled, or the face;
 *   counter: turns since the last destruction or entry (draw at 60).
 *   start (2 players): .,.,./.,.,./.,.,. 333/333 p1 - 0
 * Moves: a face (a roll), `Mb1b2` (size, from, to), `M@b1` (from the
 * mover's tree in front of b1), `reroll`, `pass`.
 */
#ifndef DENHAM_JINXX_H
#define DENHAM_JINXX_H

#include "../../core/game.h"

extern const game_t jinxx_2p;
extern const game_t jinxx_3p;
extern const game_t jinxx_4p;

#endif
