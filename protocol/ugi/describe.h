/* describe.h: the JSON descriptions for GUIs (describe.c). Each writes one
 * object into j; false when the game has no view or memory ran short. */
#ifndef DENHAM_DESCRIBE_H
#define DENHAM_DESCRIBE_H

#include "../../engine/core/game.h"
#include "../../engine/core/record.h"

bool describe_layout(const game_t *g, json_t *j);
bool describe_state(const record_t *r, json_t *j);
bool describe_moves(const record_t *r, json_t *j);

#endif
