/*
 * texel.h: fitting an evaluation's weights to game results (Texel's
 * method): a sample is a position's coefficients (eval_trace_t: the
 * feature each weight multiplies, per side) and the result for the side to
 * move; the prediction is the logistic of the evaluation those weights
 * give, and the loss its cross-entropy against the results. Knows no game
 * and no file: a data set is numbers.
 *
 * The evaluation of a sample is V(stm) - max of V(s) over the other sides
 * in play, V(s) = sum over k of w[k] coef[k][s] + fixed[s]: in games of two
 * sides the plain difference, in free-for-all games the mover against the
 * strongest other player (as Denham's evaluations are).
 */
#ifndef DENHAM_TEXEL_H
#define DENHAM_TEXEL_H

#include <stddef.h>
#include <stdint.h>

#include "../core/game.h"

typedef struct texel_data {
    int weights; /* coefficients per side */
    int sides;   /* 2 (teams), or the players of a free-for-all game */
    size_t n, cap;
    float *target;   /* [n]: the result for the side to move, 0 to 1 */
    uint8_t *stm;    /* [n]: the side to move */
    uint8_t *in;     /* [n]: bit s set when side s is in play */
    int32_t *fixed;  /* [n][sides] */
    int32_t *coef;   /* [n][sides][weights] */
} texel_data_t;

void texel_data_init(texel_data_t *d, int weights, int sides);
void texel_data_free(texel_data_t *d);
/* Adds a sample from a trace; false when memory is short. */
bool texel_data_add(texel_data_t *d, const eval_trace_t *t, int stm, unsigned in, double target);

/* The evaluation of sample i under weights w. */
double texel_eval(const texel_data_t *d, size_t i, const double *w);
/* The mean cross-entropy of the results against 1 / (1 + 10^(-K E / 400)),
 * on up to `threads` threads. */
double texel_loss(const texel_data_t *d, const double *w, double k, int threads);
/* The K (0.01 to 10) that minimises the loss under weights w. */
double texel_fit_k(const texel_data_t *d, const double *w, int threads);

typedef struct texel_options {
    int iterations;   /* full passes over the data */
    double rate;      /* Adam's step, in units of a 25th of each weight's start (at least 1) */
    int threads;
    const bool *frozen; /* weights left as they are (NULL: none) */
} texel_options_t;

/* Moves w (in place) down the loss gradient with K fixed (Adam, full
 * batch); returns the final loss. */
double texel_tune(const texel_data_t *d, double *w, double k, const texel_options_t *o);

#endif
