/*
 * prepare_wait.h: a game's solved endings (game_t.prepare: Brax's two men
 * against one, about 90 ms to build) built on a thread of their own, so
 * that a search that must wait for them can still answer `stop`, and its
 * time limit, at once. isready and ucinewgame build them outright
 * (game_prepare); this is for a `go` that came first.
 * Knows games only through game_t; starts no search.
 */
#ifndef DENHAM_PREPARE_WAIT_H
#define DENHAM_PREPARE_WAIT_H

#include <stdbool.h>

#include "../../engine/core/game.h"

/* Starts building g's endings on a thread of their own, unless they are
 * built or being built (one thread per game at most, for the process). */
void prepare_start(const game_t *g);
/* Waits until g's endings are built (starting the build if none runs), or
 * until give_up(ctx) says so: it is asked first, then every millisecond.
 * True when they are built (at once for a game without any). */
bool prepare_wait(const game_t *g, bool (*give_up)(void *ctx), void *ctx);

#endif
