/*
 * bolix_why.h: Bolix in words for people (bolix_why.c): why a move is
 * refused and where and why a game ended (game.h, explain_illegal and
 * explain_result). Private to engine/games/bolix/.
 */
#ifndef DENHAM_BOLIX_WHY_H
#define DENHAM_BOLIX_WHY_H

#include "../../core/game.h"

void bolix_explain_illegal(const position_t *pos, const char *text, char *buf, size_t len);
void bolix_explain_result(const game_t *g, const position_t *pos, const position_t *before, move_t last,
                          game_why_t *why);

#endif
