/* brandubh_eval.h: Brandubh's evaluation, for the game tables (brandubh.c). */
#ifndef DENHAM_BRANDUBH_EVAL_H
#define DENHAM_BRANDUBH_EVAL_H

#include "brandubh_rules.h"

/* The evaluation's weights, both versions'. */
extern eval_weights_t brandubh_weights;
score_t bdb_evaluate(const position_t *pos, eval_trace_t *t);

#endif
