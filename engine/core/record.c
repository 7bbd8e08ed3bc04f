/* record.c: game records and repetition. */
#include "record.h"

#include <assert.h>

void record_init(record_t *r, const game_t *g, const position_t *start)
{
    r->game = g;
    r->start = *start;
    r->pos = *start;
    r->plies = 0;
    r->hashes[0] = g->hash(start);
    r->reversible_from = 0;
}

bool record_play(record_t *r, move_t move)
{
    if (r->plies >= RECORD_MAX_PLIES)
        return false;
    undo_t undo;
    r->game->make(&r->pos, move, &undo);
    r->moves[r->plies++] = move;
    r->hashes[r->plies] = r->game->hash(&r->pos);
    if (move & MOVE_IRREVERSIBLE)
        r->reversible_from = r->plies;
    return true;
}

int record_occurrences(const record_t *r)
{
    int count = 0;
    uint64_t key = r->hashes[r->plies];
    for (int i = r->plies; i >= r->reversible_from; i--)
        count += r->hashes[i] == key;
    return count;
}

outcome_t record_outcome(const record_t *r)
{
    const game_t *g = r->game;
    move_t moves[MAX_MOVES];
    if (g->gen_moves(&r->pos, moves) == 0)
        return g->outcome(&r->pos);
    if (g->repetition_draw && record_occurrences(r) >= 3)
        return (outcome_t){OUTCOME_DRAW, -1, "threefold repetition"};
    return (outcome_t){OUTCOME_NONE, -1, NULL};
}

int record_legal_moves(const record_t *r, move_t *moves)
{
    if (record_outcome(r).kind != OUTCOME_NONE)
        return 0;
    return r->game->gen_moves(&r->pos, moves);
}
