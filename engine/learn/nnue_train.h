/*
 * nnue_train.h: training an NNUE-style net (nnue.h) on positions with
 * targets: floating point while it learns, quantized at the end. A sample
 * is a set of features on (one list per symmetry of the board, of which
 * each pass picks one at random, so the net sees every orientation), the
 * head to read (the side to move), a target from 0 to 1 for head 0's side
 * and a base: what the game's evaluation adds to the net's output there
 * (in centipawns for head 0's side; 0 where the net is the whole value).
 * The prediction is 1 / (1 + 10^(-E / NNUE_CP)), E the output plus the
 * base; the loss is its squared error against the target.
 *
 * Knows no game and no file: a data set is numbers.
 */
#ifndef DENHAM_NNUE_TRAIN_H
#define DENHAM_NNUE_TRAIN_H

#include "nnue.h"

#define NNUE_SYMMETRIES_MAX 8

typedef struct nnue_data {
    int inputs, max_active, symmetries;
    size_t n, cap;
    uint16_t *feat;  /* [n][symmetries][max_active] */
    uint8_t *active; /* [n]: features on (the same in every symmetry) */
    uint8_t *head;   /* [n] */
    float *target;   /* [n] */
    float *base;     /* [n], centipawns */
} nnue_data_t;

void nnue_data_init(nnue_data_t *d, int inputs, int max_active, int symmetries);
void nnue_data_free(nnue_data_t *d);
/* Adds a sample: feat holds `symmetries` lists of `active` features each;
 * false when memory is short or the sample is out of range (a base beyond
 * NNUE_BASE_MAX centipawns, either way, is). */
#define NNUE_BASE_MAX 100000
bool nnue_data_add(nnue_data_t *d, const uint16_t *feat, int active, int head, double target, double base);

typedef struct nnue_train_opts {
    int epochs;
    double rate;     /* Adam's step size */
    int batch;       /* samples per step */
    double holdout;  /* the share of samples kept out of training, to measure on */
    uint64_t seed;
    /* Called after each epoch with the losses (train, held out); may be NULL. */
    void (*progress)(void *ctx, int epoch, double train_loss, double test_loss);
    void *ctx;
} nnue_train_opts_t;

typedef struct nnue_train_result {
    size_t train_n, test_n;
    double first_test_loss, test_loss, quantized_test_loss;
} nnue_train_result_t;

/* Trains from scratch and writes the quantized net into out (game named
 * `game`); false when memory is short. */
bool nnue_train(const nnue_data_t *d, const nnue_train_opts_t *o, const char *game, nnue_t *out,
                nnue_train_result_t *res);

/* The quantized net's loss over samples [from, to) of d, first symmetry. */
double nnue_quantized_loss(const nnue_t *n, const nnue_data_t *d, size_t from, size_t to);

#endif
