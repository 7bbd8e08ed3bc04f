/*
 * brax_why.h: Brax in words for people (brax_why.c): why a move is refused
 * and where and why a game ended (game.h, explain_illegal and
 * explain_result). Private to engine/games/brax/.
 */
#ifndef DENHAM_BRAX_WHY_H
#define DENHAM_BRAX_WHY_H

#include "../../core/game.h"

void brax_explain_illegal(const position_t *pos, const char *text, char *buf, size_t len);
void brax_explain_result(const game_t *g, const position_t *pos, const position_t *before, move_t last,
                         game_why_t *why);

#endif
