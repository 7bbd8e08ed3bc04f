/*
 * texel.c: the fit (texel.h): the loss and its gradient over the data on
 * threads, the scaling constant by golden-section search, the weights by
 * Adam. Knows no game and no file.
 */
#include "texel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/thread.h"

#define TEXEL_THREADS_MAX 64
/* Keeps log() finite for a certain prediction. */
#define P_EPSILON 1e-12

void texel_data_init(texel_data_t *d, int weights, int sides)
{
    memset(d, 0, sizeof *d);
    d->weights = weights;
    d->sides = sides;
}

void texel_data_free(texel_data_t *d)
{
    free(d->target);
    free(d->stm);
    free(d->in);
    free(d->fixed);
    free(d->coef);
    memset(d, 0, sizeof *d);
}

static bool grow(void **p, size_t count, size_t size)
{
    void *q = realloc(*p, count * size);
    if (!q)
        return false;
    *p = q;
    return true;
}

bool texel_data_add(texel_data_t *d, const eval_trace_t *t, int stm, unsigned in, double target)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 4096, s = (size_t)d->sides, k = (size_t)d->weights;
        if (!grow((void **)&d->target, cap, sizeof *d->target) || !grow((void **)&d->stm, cap, 1) ||
            !grow((void **)&d->in, cap, 1) || !grow((void **)&d->fixed, cap * s, sizeof *d->fixed) ||
            !grow((void **)&d->coef, cap * s * k, sizeof *d->coef))
            return false;
        d->cap = cap;
    }
    size_t i = d->n++;
    d->target[i] = (float)target;
    d->stm[i] = (uint8_t)stm;
    d->in[i] = (uint8_t)in;
    for (int s = 0; s < d->sides; s++) {
        d->fixed[i * (size_t)d->sides + (size_t)s] = t->fixed[s];
        for (int k = 0; k < d->weights; k++)
            d->coef[(i * (size_t)d->sides + (size_t)s) * (size_t)d->weights + (size_t)k] = t->coef[k][s];
    }
    return true;
}

/* V(s) for sample i. */
static double side_value(const texel_data_t *d, size_t i, int s, const double *w)
{
    const int32_t *c = d->coef + (i * (size_t)d->sides + (size_t)s) * (size_t)d->weights;
    double v = d->fixed[i * (size_t)d->sides + (size_t)s];
    for (int k = 0; k < d->weights; k++)
        v += w[k] * c[k];
    return v;
}

/* The evaluation of sample i, and the side it is measured against (-1: none). */
static double eval_against(const texel_data_t *d, size_t i, const double *w, int *other)
{
    int stm = d->stm[i];
    double best = 0;
    *other = -1;
    for (int s = 0; s < d->sides; s++) {
        if (s == stm || !(d->in[i] >> s & 1))
            continue;
        double v = side_value(d, i, s, w);
        if (*other < 0 || v > best) {
            best = v;
            *other = s;
        }
    }
    return side_value(d, i, stm, w) - (*other < 0 ? 0 : best);
}

double texel_eval(const texel_data_t *d, size_t i, const double *w)
{
    int other;
    return eval_against(d, i, w, &other);
}

static double predict(double e, double k) { return 1.0 / (1.0 + pow(10.0, -k * e / 400.0)); }

/* One thread's share: samples [from, to). */
typedef struct part {
    const texel_data_t *d;
    const double *w;
    double k;
    size_t from, to;
    bool gradient;
    double loss, grad[EVAL_WEIGHTS_MAX];
} part_t;

static void *run_part(void *arg)
{
    part_t *p = arg;
    const texel_data_t *d = p->d;
    double slope = p->k * log(10.0) / 400.0;
    for (size_t i = p->from; i < p->to; i++) {
        int other;
        double e = eval_against(d, i, p->w, &other), q = predict(e, p->k), r = d->target[i];
        double qc = q < P_EPSILON ? P_EPSILON : q > 1 - P_EPSILON ? 1 - P_EPSILON : q;
        p->loss -= r * log(qc) + (1 - r) * log(1 - qc);
        if (!p->gradient)
            continue;
        double g = (q - r) * slope;
        const int32_t *cs = d->coef + (i * (size_t)d->sides + d->stm[i]) * (size_t)d->weights;
        const int32_t *co = other < 0 ? NULL : d->coef + (i * (size_t)d->sides + (size_t)other) * (size_t)d->weights;
        for (int k = 0; k < d->weights; k++)
            p->grad[k] += g * (cs[k] - (co ? co[k] : 0));
    }
    return NULL;
}

/* The mean loss, and its gradient into grad when not NULL. */
static double loss_and_gradient(const texel_data_t *d, const double *w, double k, int threads, double *grad)
{
    if (d->n == 0)
        return 0;
    if (threads < 1)
        threads = 1;
    if (threads > TEXEL_THREADS_MAX)
        threads = TEXEL_THREADS_MAX;
    part_t parts[TEXEL_THREADS_MAX];
    thr_t ids[TEXEL_THREADS_MAX];
    bool started[TEXEL_THREADS_MAX] = {false};
    size_t per = (d->n + (size_t)threads - 1) / (size_t)threads;
    for (int t = 0; t < threads; t++) {
        size_t from = per * (size_t)t, to = from + per < d->n ? from + per : d->n;
        parts[t] = (part_t){.d = d, .w = w, .k = k, .from = from < d->n ? from : d->n, .to = to};
        parts[t].gradient = grad != NULL;
        started[t] = t > 0 && thr_create(&ids[t], run_part, &parts[t]);
        if (t > 0 && !started[t])
            run_part(&parts[t]);
    }
    run_part(&parts[0]);
    double loss = 0;
    if (grad)
        memset(grad, 0, (size_t)d->weights * sizeof *grad);
    for (int t = 0; t < threads; t++) {
        if (started[t])
            thr_join(ids[t]);
        loss += parts[t].loss;
        for (int j = 0; grad && j < d->weights; j++)
            grad[j] += parts[t].grad[j] / (double)d->n;
    }
    return loss / (double)d->n;
}

double texel_loss(const texel_data_t *d, const double *w, double k, int threads)
{
    return loss_and_gradient(d, w, k, threads, NULL);
}

double texel_fit_k(const texel_data_t *d, const double *w, int threads)
{
    /* The loss is convex in K: golden-section search. */
    double lo = 0.01, hi = 10.0, r = (sqrt(5.0) - 1) / 2;
    double a = hi - r * (hi - lo), b = lo + r * (hi - lo);
    double fa = texel_loss(d, w, a, threads), fb = texel_loss(d, w, b, threads);
    for (int it = 0; it < 60; it++) {
        if (fa < fb) {
            hi = b;
            b = a;
            fb = fa;
            a = hi - r * (hi - lo);
            fa = texel_loss(d, w, a, threads);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + r * (hi - lo);
            fb = texel_loss(d, w, b, threads);
        }
    }
    return (lo + hi) / 2;
}

double texel_tune(const texel_data_t *d, double *w, double k, const texel_options_t *o)
{
    double m[EVAL_WEIGHTS_MAX] = {0}, v[EVAL_WEIGHTS_MAX] = {0}, grad[EVAL_WEIGHTS_MAX], scale[EVAL_WEIGHTS_MAX];
    const double beta1 = 0.9, beta2 = 0.999, eps = 1e-12;
    /* Steps in proportion to each weight's size: a man of 100 and a four
     * of 5000 both reach their values within the run. */
    for (int j = 0; j < d->weights; j++)
        scale[j] = fabs(w[j]) / 25 > 1 ? fabs(w[j]) / 25 : 1;
    for (int it = 1; it <= o->iterations; it++) {
        loss_and_gradient(d, w, k, o->threads, grad);
        /* The step shrinks to a tenth over the run, to settle. */
        double rate = o->rate * (1.0 - 0.9 * (it - 1) / (double)o->iterations);
        for (int j = 0; j < d->weights; j++) {
            if (o->frozen && o->frozen[j])
                continue;
            m[j] = beta1 * m[j] + (1 - beta1) * grad[j];
            v[j] = beta2 * v[j] + (1 - beta2) * grad[j] * grad[j];
            double mh = m[j] / (1 - pow(beta1, it)), vh = v[j] / (1 - pow(beta2, it));
            w[j] -= rate * scale[j] * mh / (sqrt(vh) + eps);
        }
    }
    return texel_loss(d, w, k, o->threads);
}
