/* bolix_eval.h: Bolix's evaluation and the window values the rules sum. */
#ifndef DENHAM_BOLIX_EVAL_H
#define DENHAM_BOLIX_EVAL_H

#include "bolix_rules.h"

/* The evaluation's weights. */
extern eval_weights_t bolix_weights;
/* Value of a window holding k marbles of one colour and none of the other. */
int bolix_window_value(int k);

score_t bolix_evaluate(const position_t *pos, eval_trace_t *t);

#endif
