/*
 * brandubh_why.h: Brandubh in words for people (brandubh_why.c): why a
 * move is refused and where and why a game ended (game.h, explain_illegal
 * and explain_result). Private to engine/games/brandubh/.
 */
#ifndef DENHAM_BRANDUBH_WHY_H
#define DENHAM_BRANDUBH_WHY_H

#include "../../core/game.h"

void bdb_explain_illegal(const position_t *pos, const char *text, char *buf, size_t len);
void bdb_explain_result(const game_t *g, const position_t *pos, const position_t *before, move_t last,
                        game_why_t *why);

#endif
