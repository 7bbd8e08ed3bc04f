/* bolix_eval.h: Bolix's evaluation and the window values the rules sum. */
#ifndef DENHAM_BOLIX_EVAL_H
#define DENHAM_BOLIX_EVAL_H

#include "bolix_rules.h"

/* The evaluation's weights. */
extern eval_weights_t bolix_weights;
/* Hands the window values to the rules, once; every position is set up
 * after it (the text's set-up calls it), so make and unmake sum them. */
void bolix_eval_ensure(void);

score_t bolix_evaluate(const position_t *pos, eval_trace_t *t);
/* What the evaluation adds to the net's output (game_net_t.base): the
 * whole hand-written evaluation, for black. */
int bolix_net_base(const position_t *pos);

#endif
