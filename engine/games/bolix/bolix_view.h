/* bolix_view.h: Bolix's view for GUIs (bolix_view.c). */
#ifndef DENHAM_BOLIX_VIEW_H
#define DENHAM_BOLIX_VIEW_H

#include "../../core/game.h"

void bolix_view_board(const game_t *g, json_t *j);
void bolix_view_position(const game_t *g, const position_t *pos, json_t *j);
void bolix_view_move(const game_t *g, const position_t *pos, move_t m, json_t *j);

#endif
