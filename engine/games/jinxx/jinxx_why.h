/*
 * jinxx_why.h: Jinxx in words for people (jinxx_why.c): why a move is
 * refused and where and why a game ended (game.h, explain_illegal and
 * explain_result). Private to engine/games/jinxx/.
 */
#ifndef DENHAM_JINXX_WHY_H
#define DENHAM_JINXX_WHY_H

#include "../../core/game.h"

void jinxx_explain_illegal(const position_t *pos, const char *text, char *buf, size_t len);
void jinxx_explain_result(const game_t *g, const position_t *pos, const position_t *before, move_t last,
                          game_why_t *why);

#endif
