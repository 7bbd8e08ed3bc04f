/* brandubh_view.h: Brandubh's view for GUIs (brandubh_view.c). */
#ifndef DENHAM_BRANDUBH_VIEW_H
#define DENHAM_BRANDUBH_VIEW_H

#include "../../core/game.h"

void bdb_view_board(const game_t *g, json_t *j);
void bdb_view_position(const game_t *g, const position_t *pos, json_t *j);
void bdb_view_move(const game_t *g, const position_t *pos, move_t m, json_t *j);

#endif
