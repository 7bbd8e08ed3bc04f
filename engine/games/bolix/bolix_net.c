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

#include "../../core/thread.h"
#include "../../learn/game_net.h"
#include "bolix_eval.h"

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

void bolix_refresh(position_t *pos)
{
    bolix_t *b = P(pos);
    game_net_fill(&bolix_net, game_net_in_use(&bolix_net), pos, &b->acc_net, &b->acc);
}

score_t bolix_net_evaluate(const nnue_t *n, const position_t *pos)
{
    const bolix_t *b = CP(pos);
    int v = game_net_output(&bolix_net, n, pos, b->acc_net, &b->acc, b->stm);
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
    game_net_embed(&bolix_net, &embedded, embedded_ints, sizeof embedded_ints / sizeof embedded_ints[0]);
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
