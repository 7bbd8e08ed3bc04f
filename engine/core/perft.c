/*
 * perft.c: perft and its divide (perft.h).
 * Reaches a game through game_t only; includes nothing above engine/core/.
 */
#include "perft.h"

#include <assert.h>
#include <string.h>

/* A roll of the die is no ply (docs/rules/README.md): where the die is
 * still to be rolled, perft N is the sum of perft N over the faces. */
static uint64_t perft_rec(const game_t *g, position_t *pos, int depth, const thr_flag_t *stop);

static uint64_t perft_rolls(const game_t *g, position_t *pos, int depth, int n, const move_t *rolls,
                            const thr_flag_t *stop)
{
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        undo_t undo;
        g->make(pos, rolls[i], &undo);
        total += perft_rec(g, pos, depth, stop);
        g->unmake(pos, rolls[i], &undo);
    }
    return total;
}

/* The rolls at pos when it is a chance node, else 0. */
static int chance_rolls(const game_t *g, const position_t *pos, move_t *rolls)
{
    int weights[MAX_MOVES];
    return g->chance_outcomes ? g->chance_outcomes(pos, rolls, weights) : 0;
}

static uint64_t perft_rec(const game_t *g, position_t *pos, int depth, const thr_flag_t *stop)
{
    if (depth <= 0)
        return 1;
    if (g->chance_outcomes) { /* deterministic games skip even the call */
        move_t rolls[MAX_MOVES];
        int r = chance_rolls(g, pos, rolls);
        if (r > 0)
            return perft_rolls(g, pos, depth, r, rolls, stop);
    }
    if (depth == 1)
        return (uint64_t)g->count_moves(pos);
    if (stop && thr_poll(stop))
        return 0;
    move_t moves[MAX_MOVES];
    int n = g->gen_moves(pos, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        undo_t undo;
        g->make(pos, moves[i], &undo);
        total += perft_rec(g, pos, depth - 1, stop);
        g->unmake(pos, moves[i], &undo);
    }
    return total;
}

uint64_t perft(const game_t *g, position_t *pos, int depth) { return perft_rec(g, pos, depth, NULL); }

perft_stats_t perft_stats(const game_t *g, position_t *pos, int depth)
{
    perft_stats_t s = {0, 0};
    if (depth <= 0) {
        s.nodes = 1;
        return s;
    }
    move_t moves[MAX_MOVES];
    int n = chance_rolls(g, pos, moves);
    if (n > 0) {
        for (int i = 0; i < n; i++) {
            undo_t undo;
            g->make(pos, moves[i], &undo);
            perft_stats_t sub = perft_stats(g, pos, depth);
            g->unmake(pos, moves[i], &undo);
            s.nodes += sub.nodes;
            s.captures += sub.captures;
        }
        return s;
    }
    n = g->gen_moves(pos, moves);
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

/* At a chance node the divide lists each face with perft N after it. */
uint64_t perft_divide(const game_t *g, position_t *pos, int depth, perft_divide_fn each, void *ctx)
{
    bool stopped;
    return perft_divide_stoppable(g, pos, depth, each, ctx, NULL, &stopped);
}

uint64_t perft_divide_stoppable(const game_t *g, position_t *pos, int depth, perft_divide_fn each, void *ctx,
                                const thr_flag_t *stop, bool *stopped)
{
    *stopped = false;
    move_t moves[MAX_MOVES];
    int rolls = depth > 0 ? chance_rolls(g, pos, moves) : 0;
    int n = rolls > 0 ? rolls : depth > 0 ? g->gen_moves(pos, moves) : 0;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        undo_t undo;
        char text[GAME_MOVE_TEXT_MAX];
        g->move_text(pos, moves[i], text, sizeof text);
        g->make(pos, moves[i], &undo);
        uint64_t c = perft_rec(g, pos, rolls > 0 ? depth : depth - 1, stop);
        g->unmake(pos, moves[i], &undo);
        if (stop && thr_flag_up(stop)) { /* this move's count is partial */
            *stopped = true;
            return total;
        }
        total += c;
        each(ctx, text, c);
    }
    return total;
}
