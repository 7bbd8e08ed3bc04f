/* jinxx_view.h: Jinxx's view for GUIs, every variant (jinxx_view.c). */
#ifndef DENHAM_JINXX_VIEW_H
#define DENHAM_JINXX_VIEW_H

#include "../../core/game.h"

void jinxx_view_board(const game_t *g, json_t *j);
void jinxx_view_position(const game_t *g, const position_t *pos, json_t *j);
void jinxx_view_move(const game_t *g, const position_t *pos, move_t m, json_t *j);

#endif
