/* stats.c: Elo, error bars, LOS and the SPRT (see stats.h for the
 * formulas and their sources). Numbers in, numbers out: knows no game,
 * engine or file. */
#include "stats.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define Z95 1.959963984540054

double stats_elo_of_score(double score)
{
    if (score <= 0.0)
        return -INFINITY;
    if (score >= 1.0)
        return INFINITY;
    return 400.0 * log10(score / (1.0 - score)); /* (+0.0 at an even score: the printed Elo is never "-0.0") */
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

/* The root x of the secular equation f(x) = sum p_i a_i / (1 + x a_i) = 0,
 * where the a_i take both signs and every p_i > 0: f falls from +inf to
 * -inf between the poles -1/max(a) and -1/min(a), so Newton's steps, kept
 * inside a bracket that each step narrows (bisecting where a step would
 * leave it), find the one root. */
static double secular_root(const double *a, const double *p, int k)
{
    double amin = a[0], amax = a[0];
    for (int i = 1; i < k; i++) {
        amin = a[i] < amin ? a[i] : amin;
        amax = a[i] > amax ? a[i] : amax;
    }
    double lo = -1.0 / amax, hi = -1.0 / amin, x = 0.0;
    for (int iter = 0; iter < 400; iter++) {
        double f = 0.0, df = 0.0;
        for (int i = 0; i < k; i++) {
            double t = a[i] / (1.0 + x * a[i]);
            f += p[i] * t;
            df -= p[i] * t * t;
        }
        if (f == 0.0)
            return x;
        if (f > 0.0)
            lo = x;
        else
            hi = x;
        double next = x - f / df;
        if (!(next > lo && next < hi))
            next = lo + (hi - lo) / 2.0;
        if (next == x || fabs(next - x) <= 1e-15 * (1.0 + fabs(x)))
            return next;
        x = next;
    }
    return x;
}

/* The distribution of largest likelihood given the empirical p (over the
 * scores a) whose expected score is s: q_i = p_i / (1 + x (a_i - s)). */
static void most_likely_with_mean(const double *a, const double *p, int k, double s, double *q)
{
    double shifted[5] = {0};
    for (int i = 0; i < k; i++)
        shifted[i] = a[i] - s;
    double x = secular_root(shifted, p, k);
    for (int i = 0; i < k; i++)
        q[i] = p[i] / (1.0 + x * shifted[i]);
}

double stats_gsprt_llr(const int *counts, int k, const sprt_t *s)
{
    assert(k == 3 || k == 5);
    double c[5], a[5], p[5], q0[5], q1[5], n = 0.0;
    int games = 0;
    for (int i = 0; i < k; i++) {
        games += counts[i];
        c[i] = counts[i] > 0 ? (double)counts[i] : 1e-3; /* LLRcalc.py's regularisation */
        n += c[i];
        a[i] = (double)i / (k - 1);
    }
    if (games == 0)
        return 0.0;
    for (int i = 0; i < k; i++)
        p[i] = c[i] / n;
    most_likely_with_mean(a, p, k, stats_score_of_elo(s->elo0), q0);
    most_likely_with_mean(a, p, k, stats_score_of_elo(s->elo1), q1);
    double llr = 0.0;
    for (int i = 0; i < k; i++)
        llr += c[i] * (log(q1[i]) - log(q0[i]));
    return llr;
}

double stats_sprt_llr(const penta_t *p, const sprt_t *s) { return stats_gsprt_llr(p->n, 5, s); }

double stats_sprt_llr_wdl(wdl_t r, const sprt_t *s)
{
    int counts[3] = {r.losses, r.draws, r.wins};
    return stats_gsprt_llr(counts, 3, s);
}

int stats_sprt_decide(double llr, const sprt_t *s)
{
    double lo, hi;
    stats_sprt_bounds(s, &lo, &hi);
    return llr > hi ? 1 : llr < lo ? -1 : 0;
}

void stats_sprt_bounds(const sprt_t *s, double *lower, double *upper)
{
    *lower = log(s->beta / (1.0 - s->alpha));
    *upper = log((1.0 - s->beta) / s->alpha);
}

/* A decimal number and nothing else: an optional sign, digits, a point. */
static bool read_decimal(const char *w, double *v)
{
    char *end;
    if (!w || !w[0] || strspn(w, "+-0123456789.eE") != strlen(w))
        return false;
    *v = strtod(w, &end);
    return *end == 0 && end != w && isfinite(*v);
}

const char *stats_sprt_parse(const char *const words[4], sprt_t *s)
{
    double v[4];
    for (int i = 0; i < 4; i++)
        if (!read_decimal(words[i], &v[i]))
            return "--sprt takes four numbers: ELO0 ELO1 ALPHA BETA (such as 0 5 0.05 0.05)";
    if (fabs(v[0]) > 1000 || fabs(v[1]) > 1000 || !(v[0] < v[1]))
        return "--sprt's ELO0 must be below ELO1, both within -1000 and 1000";
    if (!(v[2] > 0 && v[3] > 0 && v[2] + v[3] < 1))
        return "--sprt's ALPHA and BETA must be above 0, and their sum below 1";
    *s = (sprt_t){v[0], v[1], v[2], v[3]};
    return NULL;
}
