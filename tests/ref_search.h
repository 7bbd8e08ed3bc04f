/* ref_search.h: a plain, unpruned search to check the engine's against:
 * full-width minimax over decisions and the exact mean over rolls, with the
 * engine's conventions for sides (paranoid: the root player against the
 * rest; Best-Reply Search: only the strongest opponent replies), leaves
 * (a finished game's result, else the static value) and win scores. It
 * has no window, table, ordering or pruning, so it is slow and obviously
 * what the rules say: use it at small depths. */
#ifndef DENHAM_REF_SEARCH_H
#define DENHAM_REF_SEARCH_H

#include <stdbool.h>

#include "../engine/core/game.h"

/* The value of the decision node root searched `depth` plies, for the side
 * to move: what search_run with an exact request returns as its score. */
score_t ref_search_value(const game_t *g, const position_t *root, int depth, bool brs);

#endif
