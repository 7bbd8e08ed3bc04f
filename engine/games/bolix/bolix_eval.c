/*
 * bolix_eval.c: Bolix's evaluation, with every weight: the value of a
 * window one colour alone holds (which make and unmake sum as they go),
 * capture threats, marbles in hand, a four to play. Reads the position;
 * may not change it.
 */
#include "bolix_eval.h"

/* Value of a window holding k marbles of one colour and none of the other. */
const int bolix_window_value[5] = {0, 1, 8, 40, 300};
/* The other terms' weights. */
enum { CAPTURE_THREAT = 30, HAND_MARBLE = 2, TO_MOVE_FOUR = 5000 };

score_t bolix_evaluate(const position_t *pos, eval_trace_t *t)
{
    const bolix_t *b = CP(pos);
    const int lines[2] = {b->lines[0], b->lines[1]}; /* kept by make and unmake */
    eval_trace_add(t, "lines", lines[0], lines[1]);
    int caps[2];
    for (int pl = 0; pl < 2; pl++)
        caps[pl] = CAPTURE_THREAT * bb128_popcount(bolix_capture_cells(b, pl));
    eval_trace_add(t, "capture threats", caps[0], caps[1]);
    int hand[2] = {HAND_MARBLE * b->hand[0], HAND_MARBLE * b->hand[1]};
    eval_trace_add(t, "marbles in hand", hand[0], hand[1]);
    int stm = b->stm, opp = stm ^ 1;
    /* A four of the side to move with a free cell wins next move. */
    int win[2] = {0, 0};
    if (b->fours[stm] && b->hand[stm] && !bb128_empty(bb128_andnot(bolix_five_makers(b, stm),
                                                             b->ko == NO_CELL ? bb128_zero() : bb128_bit(b->ko))))
        win[stm] = TO_MOVE_FOUR;
    eval_trace_add(t, "four to play", win[0], win[1]);
    int v[2];
    for (int pl = 0; pl < 2; pl++)
        v[pl] = lines[pl] + caps[pl] + hand[pl] + win[pl];
    return (score_t)(v[stm] - v[opp]);
}

