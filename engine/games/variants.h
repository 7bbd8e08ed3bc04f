/*
 * variants.h: the registry of every implemented variant.
 * Above the games: engine/core/ and engine/search/ may not include it.
 */
#ifndef DENHAM_VARIANTS_H
#define DENHAM_VARIANTS_H

#include "../core/game.h"

/* The variant the engine starts with. */
const game_t *variants_default(void);
/* The variant called name, in any case, or NULL. */
const game_t *variants_find(const char *name);
/* The i-th variant in the order the protocol lists them, or NULL past the end. */
const game_t *variants_at(int i);

#endif
