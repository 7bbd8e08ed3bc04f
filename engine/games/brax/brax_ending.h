/*
 * brax_ending.h: Brax's ending of two men against one, solved. In the
 * two-player games no call is possible in it (rules: the material limits),
 * so a position is the three men's points and the side to move; every one
 * of them is solved by retrograde analysis, with the one-against-one
 * ending it can turn into (ten quiet plies draw it), once, at the first
 * probe or brax_ending_prepare (about 50 ms and 2 MiB per table). Two
 * tables: with double captures (`brax`, `brax-hunt`) and without
 * (`brax-zillions`, `brax-easy`).
 * Private to engine/games/brax/ (and the tests).
 *
 * The result is the side to move's, with best play: a win or a loss in so
 * many plies (to the capture of the last man; the winner takes the
 * shortest way, the loser the longest), or a draw. Safe from any thread.
 */
#ifndef DENHAM_BRAX_ENDING_H
#define DENHAM_BRAX_ENDING_H

#include "../../core/game.h"

/* Two men on two[0] and two[1] of colour two_colour (0 red, 1 blue: the
 * colour a man moves two steps along) against one man on lone; points
 * are row * 9 + column, all different. False when the table could not be
 * built (no memory): nothing is known. */
bool brax_ending_probe(bool double_captures, int two_colour, const int two[2], int lone, bool lone_to_move,
                       ending_t *out);

/* Builds the table now, if not yet built. */
void brax_ending_prepare(bool double_captures);
/* Is the table built (or its building over, failed for want of memory)?
 * Never blocks, never builds. */
bool brax_ending_ready(bool double_captures);

/* One man against one, the mover's man of colour mover_colour on mover,
 * the other on other, after quiet plies without a capture (0-10). */
ending_t brax_ending_probe_one(int mover_colour, int mover, int other, int quiet);

#endif
