/* stats.c: Elo, error bars, LOS and the SPRT (see stats.h for the
 * formulas and their sources). Numbers in, numbers out: knows no game,
 * engine or file. */
#include "stats.h"

#include <math.h>

#define Z95 1.959963984540054

double stats_elo_of_score(double score)
{
    if (score <= 0.0)
        return -INFINITY;
    if (score >= 1.0)
        return INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

void stats_wilson(double successes, int n, double *low, double *high)
{
    if (n <= 0) {
        *low = 0.0;
        *high = 1.0;
        return;
    }
    double p = successes / n, z2 = Z95 * Z95;
    double centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    double half = Z95 / (1.0 + z2 / n) * sqrt(p * (1.0 - p) / n + z2 / (4.0 * (double)n * n));
    *low = centre - half > 0.0 ? centre - half : 0.0;
    *high = centre + half < 1.0 ? centre + half : 1.0;
}

double stats_score_of_elo(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

elo_estimate_t stats_elo(wdl_t r)
{
    elo_estimate_t e = {0.5, 0.0, 0.0, 0.0, 0.5, 0.0, 0.5, 0.5};
    int n = r.wins + r.draws + r.losses;
    if (n == 0)
        return e;
    double w = (double)r.wins / n, d = (double)r.draws / n, l = (double)r.losses / n;
    double s = w + d / 2.0;
    double var = w * (1.0 - s) * (1.0 - s) + d * (0.5 - s) * (0.5 - s) + l * s * s;
    double se = sqrt(var / n);
    e.score = s;
    e.elo = stats_elo_of_score(s);
    e.elo_low = stats_elo_of_score(s - Z95 * se);
    e.elo_high = stats_elo_of_score(s + Z95 * se);
    e.score_low = s - Z95 * se;
    e.score_high = s + Z95 * se;
    e.draw_ratio = d;
    int decisive = r.wins + r.losses;
    e.los = decisive ? 0.5 * (1.0 + erf((double)(r.wins - r.losses) / sqrt(2.0 * decisive))) : 0.5;
    return e;
}

double stats_sprt_llr(const penta_t *p, const sprt_t *s)
{
    int n = 0;
    for (int i = 0; i < 5; i++)
        n += p->n[i];
    if (n == 0)
        return 0.0;
    /* A pair's score per game: 0, 0.25, 0.5, 0.75, 1. */
    double mean = 0.0, sq = 0.0;
    for (int i = 0; i < 5; i++) {
        double x = i / 4.0, f = (double)p->n[i] / n;
        mean += f * x;
        sq += f * x * x;
    }
    double var = sq - mean * mean;
    if (var <= 0.0)
        return 0.0;
    double s0 = stats_score_of_elo(s->elo0), s1 = stats_score_of_elo(s->elo1);
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
}

void stats_sprt_bounds(const sprt_t *s, double *lower, double *upper)
{
    *lower = log(s->beta / (1.0 - s->alpha));
    *upper = log((1.0 - s->beta) / s->alpha);
}
