/*
 * brandubh_net.c: Brandubh's learned evaluation: which features a position
 * has (a piece kind on a square; the head is the side to move, the output
 * the attackers' value), the cache's refresh, and the net the build embeds
 * (brandubh.nnue, trained by `denham tune --network` on `denham datagen`
 * games: PROTOCOL.md, "Training data"). Reads the position; the cache is
 * kept by make and unmake (brandubh_rules.c).
 */
#include "brandubh_net.h"

#include "../../core/thread.h"
#include "../../learn/game_net.h"

/* The board's eight symmetries (the rules have them all: the throne in the
 * middle, a corner in each corner): square sq seen under symmetry sym. */
static int transform(int sq, int sym)
{
    int f = sq_file(sq), r = sq_rank(sq);
    if (sym & 1)
        f = 6 - f;
    if (sym & 2)
        r = 6 - r;
    if (sym & 4) {
        int t = f;
        f = r;
        r = t;
    }
    return r * 7 + f;
}

int bdb_net_features(const position_t *pos, int sym, uint16_t *out, int *head)
{
    const bdb_t *b = CP(pos);
    const bb64_t kinds[3] = {b->att, b->def, b->king};
    int n = 0;
    for (int k = 0; k < 3; k++)
        for (bb64_t p = kinds[k]; p;)
            out[n++] = (uint16_t)bdb_net_feature(k, transform(bb_pop(&p), sym));
    *head = b->stm;
    return n;
}

void bdb_refresh(position_t *pos)
{
    bdb_t *b = P(pos);
    game_net_fill(&brandubh_net, b->version == 1 ? game_net_in_use(&brandubh_net) : NULL, pos, &b->acc_net, &b->acc);
}

score_t bdb_net_evaluate(const nnue_t *n, const position_t *pos)
{
    const bdb_t *b = CP(pos);
    int v = game_net_output(&brandubh_net, n, pos, b->acc_net, &b->acc, b->stm);
    return (score_t)(b->stm == SIDE_ATT ? v : -v);
}

/* UseNetwork's default in brandubh: on, since an SPRT at equal time
 * accepted the net against the hand-written evaluation (docs/sprt-log.md:
 * 4+0.04, [0, 10], H1 after 208 games, +43.7 [-2.0, +90.9]). */
#define BDB_NET_DEFAULT true

/* The embedded net's numbers: the file itself, as an initializer. */
static const int32_t embedded_ints[] = {
#include "brandubh.nnue"
};
static nnue_t embedded;
static thr_once_t embedded_once = THR_ONCE_INIT;

static void read_embedded(void)
{
    game_net_embed(&brandubh_net, &embedded, embedded_ints, sizeof embedded_ints / sizeof embedded_ints[0]);
}

void brandubh_net_ensure(void) { thr_once(&embedded_once, read_embedded); }

game_net_t brandubh_net = {
    .name = "brandubh",
    .inputs = BDB_NET_INPUTS,
    .max_active = 13, /* 8 attackers, 4 defenders, the king */
    .symmetries = 8,
    .features = bdb_net_features,
    .use = BDB_NET_DEFAULT,
    .by_default = BDB_NET_DEFAULT,
};
