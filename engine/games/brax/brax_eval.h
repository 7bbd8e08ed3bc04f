/*
 * brax_eval.h: Brax's evaluation and its probe of the solved endings, for
 * the game tables (brax.c) and the position set-up (brax_text.c), which
 * makes sure the evaluation's tables exist.
 */
#ifndef DENHAM_BRAX_EVAL_H
#define DENHAM_BRAX_EVAL_H

#include "brax_rules.h"

/* The evaluation's weights, every variant's. */
extern eval_weights_t brax_weights;
/* The evaluation's tables derived from the weights: filled once before
 * the first position is set up, and again whenever the weights change. */
void brax_eval_ensure(void);
score_t brax_evaluate(const position_t *pos, eval_trace_t *t);
/* Two men against one, and one against one, solved (two-player games). */
bool brax_probe_ending(const position_t *pos, ending_t *out);

#endif
