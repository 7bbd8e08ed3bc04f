/* brax_view.h: Brax's view for GUIs, every variant (brax_view.c). */
#ifndef DENHAM_BRAX_VIEW_H
#define DENHAM_BRAX_VIEW_H

#include "../../core/game.h"

void brax_view_board(const game_t *g, json_t *j);
void brax_view_position(const game_t *g, const position_t *pos, json_t *j);
void brax_view_move(const game_t *g, const position_t *pos, move_t m, json_t *j);

#endif
