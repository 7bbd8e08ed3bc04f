/*
 * stats.h: match statistics. Scores are from the first engine's view.
 *
 * Elo from a score s: -400 log10(1/s - 1). The 95% interval comes from the
 * per-game (trinomial) standard error of the score mapped through that
 * formula; LOS is the normal approximation 0.5 (1 + erf((W - L) / sqrt(2 (W + L)))).
 * The SPRT uses the generalised SPRT on game pairs (pentanomial), as the
 * fishtest framework does: LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v), with m
 * and v the mean and variance of a pair's score per game, and s0, s1 the
 * scores that elo0 and elo1 predict.
 */
#ifndef DENHAM_STATS_H
#define DENHAM_STATS_H

#include <stdbool.h>

typedef struct wdl {
    int wins, draws, losses;
} wdl_t;

typedef struct elo_estimate {
    double score;      /* 0..1 */
    double elo;        /* may be +-inf when the score is 1 or 0 */
    double elo_low;    /* 95% interval */
    double elo_high;
    double los;        /* likelihood of superiority, 0..1 */
    double draw_ratio; /* 0..1 */
    double score_low;  /* the 95% interval of the score itself */
    double score_high;
} elo_estimate_t;

/* The 95% Wilson score interval of a proportion: `successes` (which may be
 * a half, for draws) out of n trials. Unlike the normal approximation it
 * stays inside [0, 1] and is sound for small n and extreme proportions;
 * n == 0 gives [0, 1]. */
void stats_wilson(double successes, int n, double *low, double *high);

double stats_elo_of_score(double score);
double stats_score_of_elo(double elo);
elo_estimate_t stats_elo(wdl_t r);

/* Pentanomial counts: pairs whose two games scored 0, 0.5, 1, 1.5, 2 in all. */
typedef struct penta {
    int n[5];
} penta_t;

typedef struct sprt {
    double elo0, elo1, alpha, beta;
} sprt_t;

double stats_sprt_llr(const penta_t *p, const sprt_t *s);
/* ln(beta / (1 - alpha)) and ln((1 - beta) / alpha). */
void stats_sprt_bounds(const sprt_t *s, double *lower, double *upper);

#endif
