/*
 * timeman.h: what the search is allowed to spend, and the clock it reads.
 * Core: includes nothing above engine/core/ and names no game.
 */
#ifndef DENHAM_TIMEMAN_H
#define DENHAM_TIMEMAN_H

#include "types.h"

typedef struct search_limits {
    int depth;            /* 0: no limit */
    uint64_t nodes;       /* 0: no limit */
    int64_t movetime;     /* ms, 0: none */
    int64_t time[MAX_PLAYERS]; /* ms left per player, -1: unknown */
    int64_t inc[MAX_PLAYERS];  /* ms per move */
    int movestogo;        /* 0: sudden death */
    int mate;             /* stop at a win in this many moves of the side to move or fewer; 0: none */
    bool infinite;        /* search until stop */
} search_limits_t;

void limits_init(search_limits_t *l);

typedef struct time_budget {
    int64_t soft_ms; /* start no new iteration after this; -1: no limit */
    int64_t hard_ms; /* stop the search at this; -1: no limit */
} time_budget_t;

/* Moves a sudden-death clock is shared over when the game names no number. */
#define TIMEMAN_PLAN_MOVES 30

/* The budget of `player` under l. overhead_ms is kept back per move for
 * the protocol's round trip; without movestogo the clock is shared over
 * plan_moves more moves (0: TIMEMAN_PLAN_MOVES). */
time_budget_t timeman_budget(const search_limits_t *l, int player, int64_t overhead_ms, int plan_moves);

/* Milliseconds on a monotonic clock. */
int64_t timeman_now_ms(void);
int64_t timeman_now_us(void); /* the same clock in microseconds */

#endif
