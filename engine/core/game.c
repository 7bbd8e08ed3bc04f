/* game.c: helpers shared by every game implementation. */
#include "game.h"

#include <string.h>

move_t game_find_move(const game_t *g, const position_t *pos, const char *text)
{
    move_t moves[MAX_MOVES];
    int n = g->gen_moves(pos, moves);
    char buf[GAME_MOVE_TEXT_MAX];
    for (int i = 0; i < n; i++) {
        g->move_text(pos, moves[i], buf, sizeof buf);
        if (strcmp(buf, text) == 0)
            return moves[i];
    }
    return MOVE_NONE;
}
