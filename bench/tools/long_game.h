/*
 * long_game.h: very long legal games, for the record's tests and the
 * long-game benchmark. No rule bounds a game of reversible moves, so the
 * record, the protocol and the runner must cope with any length.
 */
#ifndef DENHAM_LONG_GAME_H
#define DENHAM_LONG_GAME_H

#include "../../engine/core/game.h"

/* A game of `plies` moves from `fen` that never captures and never repeats
 * a position a third time, chosen at random (seeded) among the least
 * visited successors, as the text of a position command without the word
 * "position": "fen <fen> moves m1 m2 ...". Writes the final position's FEN
 * to final_fen. NULL when no such game was found or memory ran out;
 * free() the result. */
char *long_game_text(const game_t *g, const char *fen, int plies, uint64_t seed, char *final_fen, size_t len);

#endif
