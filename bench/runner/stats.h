/*
 * stats.h: match statistics. Scores are from the first engine's view.
 *
 * Elo from a score s: -400 log10(1/s - 1). The 95% interval comes from the
 * per-game (trinomial) standard error of the score mapped through that
 * formula; LOS is the normal approximation 0.5 (1 + erf((W - L) / sqrt(2 (W + L)))).
 * The SPRT is the generalised SPRT as fishtest computes it (LLRcalc.py,
 * LLR_logistic): the results counted in k categories scoring i / (k - 1)
 * (game pairs: k = 5, the pentanomial; single games: k = 3, L/D/W), every
 * empty category given 1e-3 of a count; under each hypothesis the
 * distribution of largest likelihood whose expected score is s0 = L(elo0),
 * resp. s1 = L(elo1) (L the logistic curve of Elo); the LLR is
 * sum_i n_i ln(q1_i / q0_i). The bounds are Wald's, ln(beta / (1 - alpha))
 * and ln((1 - beta) / alpha); fishtest's server adds a correction for
 * overshoot that is not made here (a check after every pair overshoots
 * little).
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

/* The GSPRT's log-likelihood ratio of counts[0..k-1] (k 3 or 5, above). */
double stats_gsprt_llr(const int *counts, int k, const sprt_t *s);
/* The same of game pairs, and of single games (L, D, W). */
double stats_sprt_llr(const penta_t *p, const sprt_t *s);
double stats_sprt_llr_wdl(wdl_t r, const sprt_t *s);
/* +1 when llr is above the upper bound (H1 accepted), -1 below the lower
 * (H0 accepted), else 0. */
int stats_sprt_decide(double llr, const sprt_t *s);
/* Reads the SPRT's four numbers as --sprt takes them ("ELO0 ELO1 ALPHA
 * BETA", each a whole decimal number: no blank, no "inf" or "nan"): Elo
 * within +-1000, ELO0 below ELO1, ALPHA and BETA above 0 with ALPHA + BETA
 * below 1. NULL when good (s set); else what is wrong. */
const char *stats_sprt_parse(const char *const words[4], sprt_t *s);
/* ln(beta / (1 - alpha)) and ln((1 - beta) / alpha). */
void stats_sprt_bounds(const sprt_t *s, double *lower, double *upper);

#endif
