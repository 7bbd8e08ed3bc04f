/*
 * bolix_net.c: Bolix's learned evaluation: which features a position has
 * (a window of five that one colour alone holds, by how many marbles: the
 * shapes five in a row is made of; the head is the side to move, the
 * output black's value), the cache's refresh, and the net the build embeds
 * (bolix.nnue, trained by `denham tune --network` on `denham datagen`
 * games: PROTOCOL.md, "Training data"). Reads the position; the cache is
 * kept by make and unmake (bolix_rules.c).
 */
#include "bolix_net.h"

#include "bolix_eval.h"

#include <assert.h>
#include <string.h>

#include "../../core/thread.h"

int bolix_net_features(const position_t *pos, int sym, uint16_t *out, int *head)
{
    const bolix_t *b = CP(pos);
    const uint8_t *image = bolix_window_image[sym];
    int n = 0;
    for (int w = 0; w < N_WINDOWS; w++) {
        int f = bolix_net_feature(image[w], b->count[w]);
        if (f >= 0)
            out[n++] = (uint16_t)f;
    }
    *head = b->stm;
    return n;
}

static void accumulate(const nnue_t *n, const position_t *pos, nnue_acc_t *a)
{
    uint16_t f[GAME_NET_ACTIVE_MAX];
    int head, count = bolix_net_features(pos, 0, f, &head);
    nnue_acc_reset(n, a);
    for (int i = 0; i < count; i++)
        nnue_acc_add(n, a, f[i]);
}

void bolix_refresh(position_t *pos)
{
    bolix_t *b = P(pos);
    b->acc_net = game_net_in_use(&bolix_net);
    if (b->acc_net)
        accumulate(b->acc_net, pos, &b->acc);
    else
        memset(&b->acc, 0, sizeof b->acc);
}

score_t bolix_net_evaluate(const nnue_t *n, const position_t *pos)
{
    const bolix_t *b = CP(pos);
    nnue_acc_t fresh;
    const nnue_acc_t *a = &b->acc;
    if (b->acc_net != n) {
        accumulate(n, pos, &fresh);
        a = &fresh;
    }
#ifndef NDEBUG
    else {
        accumulate(n, pos, &fresh);
        assert(memcmp(&fresh, a, sizeof fresh) == 0);
    }
#endif
    int v = nnue_output(n, a, b->stm);
    return (score_t)(b->stm == BLACK ? v : -v);
}

/* UseNetwork's default in bolix: the SPRT's verdict (docs/sprt-log.md). */
#define BOLIX_NET_DEFAULT false

/* The embedded net's numbers: the file itself, as an initializer. */
static const int32_t embedded_ints[] = {
#include "bolix.nnue"
};
static nnue_t embedded;
static thr_once_t embedded_once = THR_ONCE_INIT;

static void read_embedded(void)
{
    char why[200];
    bool ok = nnue_from_ints(&embedded, "bolix", embedded_ints, sizeof embedded_ints / sizeof embedded_ints[0], why,
                             sizeof why);
    assert(ok && embedded.inputs == BOLIX_NET_INPUTS);
    (void)ok;
    bolix_net.embedded = &embedded;
}

void bolix_net_ensure(void) { thr_once(&embedded_once, read_embedded); }

game_net_t bolix_net = {
    .name = "bolix",
    .inputs = BOLIX_NET_INPUTS,
    .max_active = N_WINDOWS,
    .symmetries = BOLIX_SYMMETRIES,
    .features = bolix_net_features,
    .base = bolix_net_base,
    .use = BOLIX_NET_DEFAULT,
    .by_default = BOLIX_NET_DEFAULT,
};
