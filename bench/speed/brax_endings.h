/*
 * brax_endings.h: solves Brax's endings of two men against one (and one
 * against one, with the quiet plies that draw it) by retrograde analysis,
 * for any two-player Brax variant, and prints how many positions are won,
 * lost and drawn. `bench_denham brax-endings [variant]`. A second solver,
 * written apart from the engine's (engine/games/brax/brax_ending.c, which works
 * on the points directly): the tests check the engine's table against its
 * counts.
 */
#ifndef DENHAM_BRAX_ENDINGS_H
#define DENHAM_BRAX_ENDINGS_H

#include <stdio.h>

#include "../../engine/core/game.h"

/* 0 when solved and printed; 1 when memory ran short. */
int brax_endings(const game_t *g, FILE *out);

#endif
