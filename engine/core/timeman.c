/*
 * timeman.c: time budgets and the clock (timeman.h).
 * Core: includes nothing above engine/core/ and names no game. Reads the
 * clock; never searches.
 */
#define _POSIX_C_SOURCE 200809L
#include "timeman.h"

#include <time.h>

void limits_init(search_limits_t *l)
{
    *l = (search_limits_t){0};
    for (int i = 0; i < MAX_PLAYERS; i++) {
        l->time[i] = -1;
        l->inc[i] = 0;
    }
}

int64_t timeman_now_ms(void) { return timeman_now_us() / 1000; }

int64_t timeman_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

time_budget_t timeman_budget(const search_limits_t *l, int player, int64_t overhead_ms, int plan_moves)
{
    time_budget_t b = {-1, -1};
    if (l->infinite)
        return b;
    /* A move time is to be used: iterations go on until it runs out, and
     * the search answers with the best root move it has finished. */
    if (l->movetime > 0) {
        int64_t t = max64(1, l->movetime - overhead_ms);
        b.soft_ms = b.hard_ms = t;
        return b;
    }
    int64_t left = l->time[player];
    if (left < 0)
        return b;
    int64_t inc = l->inc[player];
    /* Keep the overhead for every move still to play before the control.
     * Sudden death: each move takes a share of what is left, planned over
     * the game's number of moves (30 where it names none), so a longer
     * game only spends the clock down towards the increment. */
    int plan = plan_moves > 0 ? plan_moves : TIMEMAN_PLAN_MOVES;
    int moves = l->movestogo > 0 ? (l->movestogo < 40 ? l->movestogo : 40) : plan;
    int64_t usable = max64(1, left - overhead_ms * (moves < 5 ? moves : 5));
    int64_t share = usable / moves + inc * 3 / 4;
    b.soft_ms = max64(1, min64(share, usable / 2));
    /* A hard limit well above the share lets an unstable iteration finish,
     * but never risks more than a fifth of the clock on one move (all of the
     * usable clock when only one move is left before the control). */
    int64_t cap = l->movestogo == 1 ? usable * 9 / 10 : usable / 5 + inc / 2;
    b.hard_ms = max64(1, min64(share * 4, min64(cap, usable)));
    if (b.soft_ms > b.hard_ms)
        b.soft_ms = b.hard_ms;
    /* An iteration takes longer than all before it: one started after 60%
     * of the share would rarely finish within it. */
    b.soft_ms = max64(1, b.soft_ms * 6 / 10);
    return b;
}
