/* perft.c */
#include "perft.h"

#include <assert.h>
#include <string.h>

uint64_t perft(const game_t *g, position_t *pos, int depth)
{
    if (depth <= 0)
        return 1;
    if (depth == 1)
        return (uint64_t)g->count_moves(pos);
    move_t moves[MAX_MOVES];
    int n = g->gen_moves(pos, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        undo_t undo;
        g->make(pos, moves[i], &undo);
        total += perft(g, pos, depth - 1);
        g->unmake(pos, moves[i], &undo);
    }
    return total;
}

perft_stats_t perft_stats(const game_t *g, position_t *pos, int depth)
{
    perft_stats_t s = {0, 0};
    if (depth <= 0) {
        s.nodes = 1;
        return s;
    }
    move_t moves[MAX_MOVES];
    int n = g->gen_moves(pos, moves);
    for (int i = 0; i < n; i++) {
        if (depth == 1) {
            s.nodes++;
            s.captures += (moves[i] & MOVE_CAPTURE) != 0;
            continue;
        }
        undo_t undo;
#ifndef NDEBUG
        position_t before = *pos;
#endif
        g->make(pos, moves[i], &undo);
        perft_stats_t sub = perft_stats(g, pos, depth - 1);
        g->unmake(pos, moves[i], &undo);
        assert(memcmp(&before, pos, sizeof before) == 0);
        s.nodes += sub.nodes;
        s.captures += sub.captures;
    }
    return s;
}

uint64_t perft_divide(const game_t *g, position_t *pos, int depth, perft_divide_fn each, void *ctx)
{
    move_t moves[MAX_MOVES];
    int n = depth > 0 ? g->gen_moves(pos, moves) : 0;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        undo_t undo;
        char text[GAME_MOVE_TEXT_MAX];
        g->move_text(pos, moves[i], text, sizeof text);
        g->make(pos, moves[i], &undo);
        uint64_t c = perft(g, pos, depth - 1);
        g->unmake(pos, moves[i], &undo);
        total += c;
        each(ctx, text, c);
    }
    return total;
}
