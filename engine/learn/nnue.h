/*
 * nnue.h: a small efficiently updated network (NNUE style) and its text
 * form. One hidden layer: the accumulator holds b1 plus the input rows of
 * the features that are on (a piece on a square), kept up to date by the
 * game's make and unmake, so that evaluating costs one pass over the
 * hidden neurons; their clipped value times a head's weights is the
 * output. Integer arithmetic throughout.
 *
 * Knows no game: a feature is a number below `inputs`, a head a number
 * below NNUE_HEADS (the game picks one, as the side to move). The game
 * decides which features a position has and what the output's sign means.
 *
 * The text form is a C initializer, so that a build embeds a net by
 * including its file inside an array's braces, and EvalFile reads the same
 * file at run time:
 *   / * denham-nnue <game> <comment...> * /
 *   1, <inputs>, <hidden>, <heads>, <max active features>,
 *   b1[hidden], w1[inputs][hidden], w2[heads][hidden], b2[heads],
 * every number a decimal integer followed by a comma.
 */
#ifndef DENHAM_NNUE_H
#define DENHAM_NNUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define NNUE_HIDDEN 32
#define NNUE_HEADS 2
#define NNUE_INPUTS_MAX 1024
#define NNUE_GAME_MAX 32
/* Fixed-point scales: a hidden value of 1.0 is NNUE_QA (and is clipped to
 * 0..NNUE_QA), an output weight of 1.0 is NNUE_QB, and an output of 1.0
 * is NNUE_CP centipawns. */
#define NNUE_QA 255
#define NNUE_QB 64
#define NNUE_CP 400
#define NNUE_FORMAT 1

typedef struct nnue {
    char game[NNUE_GAME_MAX]; /* the name in the header comment */
    int inputs;
    int max_active; /* the most features a position has on at once */
    int16_t b1[NNUE_HIDDEN];
    int16_t w1[NNUE_INPUTS_MAX][NNUE_HIDDEN];
    int16_t w2[NNUE_HEADS][NNUE_HIDDEN];
    int32_t b2[NNUE_HEADS];
} nnue_t;

typedef struct nnue_acc {
    int16_t v[NNUE_HIDDEN];
} nnue_acc_t;

static inline void nnue_acc_reset(const nnue_t *n, nnue_acc_t *a)
{
    for (int j = 0; j < NNUE_HIDDEN; j++)
        a->v[j] = n->b1[j];
}

/* Parsing bounds the weights so that no sum of max_active rows leaves
 * int16_t: these never overflow. The rows are restrict: without it the
 * compiler must assume a row may overlap the accumulator and adds the 32
 * lanes one by one (three quarters of Brandubh's make, in perf). */
static inline void nnue_acc_add(const nnue_t *n, nnue_acc_t *restrict a, int feature)
{
    const int16_t *restrict w = n->w1[feature];
    for (int j = 0; j < NNUE_HIDDEN; j++)
        a->v[j] = (int16_t)(a->v[j] + w[j]);
}

static inline void nnue_acc_sub(const nnue_t *n, nnue_acc_t *restrict a, int feature)
{
    const int16_t *restrict w = n->w1[feature];
    for (int j = 0; j < NNUE_HIDDEN; j++)
        a->v[j] = (int16_t)(a->v[j] - w[j]);
}

/* The output of head `head`, in centipawns (truncated toward zero). */
int nnue_output(const nnue_t *n, const nnue_acc_t *a, int head);

/* Reads a net from its numbers (the text form's, in order) as the build
 * embeds them; false, with why, when they are not one (sizes past the
 * limits, weights whose sums could overflow). */
bool nnue_from_ints(nnue_t *n, const char *game, const int32_t *v, size_t count, char *why, size_t whylen);
/* Reads a net from its text form (text[0..len), need not end in a NUL);
 * false, with why, when it is not one (bad numbers, sizes past the limits,
 * weights whose sums could overflow). */
bool nnue_parse(nnue_t *n, const char *text, size_t len, char *why, size_t whylen);
/* Reads the file at path; false, with why, when it cannot or is no net. */
bool nnue_load(nnue_t *n, const char *path, char *why, size_t whylen);
/* Writes n's text form, with a comment after the game's name. */
void nnue_write(const nnue_t *n, FILE *out, const char *comment);

/* The largest magnitude a first-layer weight or bias may have for
 * max_active features at once. */
int nnue_w1_limit(int max_active);

#endif
