/*
 * nnue_train.c: Adam on minibatches over a float copy of the net, then
 * rounding to nnue.h's fixed point (nnue_train.h). Knows no game and no
 * file. Deterministic for a seed: one thread, a fixed order of sums.
 */
#include "nnue_train.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/rng.h"

#define LN10 2.302585092994046

void nnue_data_init(nnue_data_t *d, int inputs, int max_active, int symmetries)
{
    memset(d, 0, sizeof *d);
    d->inputs = inputs;
    d->max_active = max_active;
    d->symmetries = symmetries;
}

void nnue_data_free(nnue_data_t *d)
{
    free(d->feat);
    free(d->active);
    free(d->head);
    free(d->target);
    free(d->base);
    memset(d, 0, sizeof *d);
}

static bool grow(nnue_data_t *d)
{
    size_t cap = d->cap ? d->cap * 2 : 4096, row = (size_t)d->symmetries * (size_t)d->max_active;
    uint16_t *f = realloc(d->feat, cap * row * sizeof *f);
    if (f)
        d->feat = f;
    uint8_t *a = realloc(d->active, cap);
    if (a)
        d->active = a;
    uint8_t *h = realloc(d->head, cap);
    if (h)
        d->head = h;
    float *t = realloc(d->target, cap * sizeof *t);
    if (t)
        d->target = t;
    float *base = realloc(d->base, cap * sizeof *base);
    if (base)
        d->base = base;
    if (!f || !a || !h || !t || !base)
        return false;
    d->cap = cap;
    return true;
}

bool nnue_data_add(nnue_data_t *d, const uint16_t *feat, int active, int head, double target, double base)
{
    if (active < 0 || active > d->max_active || head < 0 || head >= NNUE_HEADS || !(target >= 0 && target <= 1) ||
        !(base >= -NNUE_BASE_MAX && base <= NNUE_BASE_MAX))
        return false;
    for (int i = 0; i < active * d->symmetries; i++)
        if (feat[i] >= d->inputs)
            return false;
    if (d->n == d->cap && !grow(d))
        return false;
    size_t row = (size_t)d->symmetries * (size_t)d->max_active;
    uint16_t *dst = d->feat + d->n * row;
    for (int s = 0; s < d->symmetries; s++)
        memcpy(dst + (size_t)s * d->max_active, feat + (size_t)s * active, (size_t)active * sizeof *feat);
    d->active[d->n] = (uint8_t)active;
    d->head[d->n] = (uint8_t)head;
    d->target[d->n] = (float)target;
    d->base[d->n] = (float)base;
    d->n++;
    return true;
}

/* The float net, its gradient and Adam's moments share this shape. */
typedef struct fnet {
    float b1[NNUE_HIDDEN];
    float w1[NNUE_INPUTS_MAX][NNUE_HIDDEN];
    float w2[NNUE_HEADS][NNUE_HIDDEN];
    float b2[NNUE_HEADS];
} fnet_t;

#define FNET_FLOATS (sizeof(fnet_t) / sizeof(float))

static const uint16_t *features_of(const nnue_data_t *d, size_t i, int sym)
{
    return d->feat + (i * (size_t)d->symmetries + (size_t)sym) * (size_t)d->max_active;
}

/* The output (in units of NNUE_CP) of sample i in symmetry sym, its base
 * included; the pre-clip hidden sums into acc. */
static double forward(const fnet_t *f, const nnue_data_t *d, size_t i, int sym, float *acc)
{
    memcpy(acc, f->b1, sizeof f->b1);
    const uint16_t *ft = features_of(d, i, sym);
    for (int k = 0; k < d->active[i]; k++)
        for (int j = 0; j < NNUE_HIDDEN; j++)
            acc[j] += f->w1[ft[k]][j];
    int head = d->head[i];
    double out = f->b2[head];
    for (int j = 0; j < NNUE_HIDDEN; j++)
        out += (double)f->w2[head][j] * (acc[j] < 0 ? 0 : acc[j] > 1 ? 1 : acc[j]);
    return out + d->base[i] / NNUE_CP;
}

static double predict(double out) { return 1.0 / (1.0 + exp(-out * LN10)); }

static double float_loss(const fnet_t *f, const nnue_data_t *d, size_t from, size_t to)
{
    float acc[NNUE_HIDDEN];
    double sum = 0;
    for (size_t i = from; i < to; i++) {
        double e = predict(forward(f, d, i, 0, acc)) - d->target[i];
        sum += e * e;
    }
    return to > from ? sum / (double)(to - from) : 0;
}

/* Adds sample i's gradient of the squared error into g; returns the error. */
static double backward(const fnet_t *f, const nnue_data_t *d, size_t i, int sym, fnet_t *g)
{
    float acc[NNUE_HIDDEN];
    double p = predict(forward(f, d, i, sym, acc)), err = p - d->target[i];
    float dout = (float)(2 * err * p * (1 - p) * LN10);
    int head = d->head[i];
    g->b2[head] += dout;
    float dacc[NNUE_HIDDEN];
    for (int j = 0; j < NNUE_HIDDEN; j++) {
        bool live = acc[j] > 0 && acc[j] < 1;
        g->w2[head][j] += dout * (acc[j] < 0 ? 0 : acc[j] > 1 ? 1 : acc[j]);
        dacc[j] = live ? dout * f->w2[head][j] : 0;
        g->b1[j] += dacc[j];
    }
    const uint16_t *ft = features_of(d, i, sym);
    for (int k = 0; k < d->active[i]; k++)
        for (int j = 0; j < NNUE_HIDDEN; j++)
            g->w1[ft[k]][j] += dacc[j];
    return err * err;
}

static float uniform(rng_t *r, float scale) { return scale * ((float)rng_below(r, 1u << 24) / (float)(1u << 23) - 1); }

static void init_net(fnet_t *f, int inputs, int max_active, rng_t *r)
{
    memset(f, 0, sizeof *f);
    float s1 = 1.0f / sqrtf((float)max_active);
    for (int j = 0; j < NNUE_HIDDEN; j++) {
        f->b1[j] = 0.5f;
        for (int i = 0; i < inputs; i++)
            f->w1[i][j] = uniform(r, s1);
        for (int h = 0; h < NNUE_HEADS; h++)
            f->w2[h][j] = uniform(r, 1.0f / sqrtf(NNUE_HIDDEN));
    }
}

/* Keeps the float weights inside what quantization can hold. */
static void clip(fnet_t *f, int inputs, int max_active)
{
    float l1 = (float)nnue_w1_limit(max_active) / NNUE_QA, l2 = (float)INT16_MAX / NNUE_QB;
    for (int j = 0; j < NNUE_HIDDEN; j++) {
        f->b1[j] = fmaxf(-l1, fminf(l1, f->b1[j]));
        for (int i = 0; i < inputs; i++)
            f->w1[i][j] = fmaxf(-l1, fminf(l1, f->w1[i][j]));
        for (int h = 0; h < NNUE_HEADS; h++)
            f->w2[h][j] = fmaxf(-l2, fminf(l2, f->w2[h][j]));
    }
}

static void adam_step(float *w, const float *g, float *m, float *v, size_t n, double rate, int t, double scale)
{
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    double c1 = 1 - pow(b1, t), c2 = 1 - pow(b2, t);
    for (size_t k = 0; k < n; k++) {
        if (g[k] == 0 && m[k] == 0)
            continue; /* a feature no sample of the batch had, never moved yet */
        double gk = g[k] * scale;
        m[k] = (float)(b1 * m[k] + (1 - b1) * gk);
        v[k] = (float)(b2 * v[k] + (1 - b2) * gk * gk);
        w[k] -= (float)(rate * (m[k] / c1) / (sqrt(v[k] / c2) + eps));
    }
}

static void quantize(const fnet_t *f, int inputs, int max_active, const char *game, nnue_t *n)
{
    memset(n, 0, sizeof *n);
    snprintf(n->game, sizeof n->game, "%s", game);
    n->inputs = inputs;
    n->max_active = max_active;
    for (int j = 0; j < NNUE_HIDDEN; j++) {
        n->b1[j] = (int16_t)lrintf(f->b1[j] * NNUE_QA);
        for (int i = 0; i < inputs; i++)
            n->w1[i][j] = (int16_t)lrintf(f->w1[i][j] * NNUE_QA);
        for (int h = 0; h < NNUE_HEADS; h++)
            n->w2[h][j] = (int16_t)lrintf(f->w2[h][j] * NNUE_QB);
    }
    for (int h = 0; h < NNUE_HEADS; h++)
        n->b2[h] = (int32_t)lrint((double)f->b2[h] * NNUE_QA * NNUE_QB);
}

double nnue_quantized_loss(const nnue_t *n, const nnue_data_t *d, size_t from, size_t to)
{
    double sum = 0;
    for (size_t i = from; i < to; i++) {
        nnue_acc_t a;
        nnue_acc_reset(n, &a);
        const uint16_t *ft = features_of(d, i, 0);
        for (int k = 0; k < d->active[i]; k++)
            nnue_acc_add(n, &a, ft[k]);
        double e = predict(((double)nnue_output(n, &a, d->head[i]) + d->base[i]) / NNUE_CP) - d->target[i];
        sum += e * e;
    }
    return to > from ? sum / (double)(to - from) : 0;
}

bool nnue_train(const nnue_data_t *d, const nnue_train_opts_t *o, const char *game, nnue_t *out,
                nnue_train_result_t *res)
{
    size_t test_n = (size_t)((double)d->n * o->holdout), train_n = d->n - test_n;
    fnet_t *f = malloc(sizeof *f), *g = malloc(sizeof *g), *m = calloc(1, sizeof *m), *v = calloc(1, sizeof *v);
    size_t *order = malloc((train_n ? train_n : 1) * sizeof *order);
    bool ok = f && g && m && v && order;
    if (ok) {
        rng_t r = {o->seed};
        init_net(f, d->inputs, d->max_active, &r);
        res->train_n = train_n;
        res->test_n = test_n;
        res->first_test_loss = float_loss(f, d, train_n, d->n);
        for (size_t i = 0; i < train_n; i++)
            order[i] = i;
        int step = 0, batch = o->batch > 0 ? o->batch : 1;
        for (int e = 1; e <= o->epochs; e++) {
            for (size_t i = train_n; i > 1; i--) { /* Fisher-Yates */
                size_t k = rng_below(&r, (uint32_t)i), t = order[i - 1];
                order[i - 1] = order[k];
                order[k] = t;
            }
            double sum = 0;
            for (size_t b = 0; b < train_n; b += (size_t)batch) {
                size_t end = b + (size_t)batch < train_n ? b + (size_t)batch : train_n;
                memset(g, 0, sizeof *g);
                for (size_t i = b; i < end; i++)
                    sum += backward(f, d, order[i], (int)rng_below(&r, (uint32_t)d->symmetries), g);
                adam_step((float *)f, (const float *)g, (float *)m, (float *)v, FNET_FLOATS, o->rate, ++step,
                          1.0 / (double)(end - b));
                clip(f, d->inputs, d->max_active);
            }
            res->test_loss = float_loss(f, d, train_n, d->n);
            if (o->progress)
                o->progress(o->ctx, e, train_n ? sum / (double)train_n : 0, res->test_loss);
        }
        if (o->epochs == 0)
            res->test_loss = res->first_test_loss;
        quantize(f, d->inputs, d->max_active, game, out);
        res->quantized_test_loss = nnue_quantized_loss(out, d, train_n, d->n);
    }
    free(f);
    free(g);
    free(m);
    free(v);
    free(order);
    return ok;
}
