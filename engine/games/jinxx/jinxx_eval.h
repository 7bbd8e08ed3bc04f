/* jinxx_eval.h: Jinxx's evaluation, for the game tables (jinxx.c). */
#ifndef DENHAM_JINXX_EVAL_H
#define DENHAM_JINXX_EVAL_H

#include "jinxx_rules.h"

/* The evaluation's weights, every variant's. */
extern eval_weights_t jinxx_weights;
score_t jinxx_evaluate(const position_t *pos, eval_trace_t *t);
void jinxx_evaluate_players(const position_t *pos, score_t value[MAX_PLAYERS]);

#endif
