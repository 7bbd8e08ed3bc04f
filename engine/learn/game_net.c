/*
 * game_net.c: a game's net and a position's cache, the same for every
 * game (game_net.h). Reaches a game only through game_net_t.
 */
#include "game_net.h"

#include <assert.h>
#include <string.h>

void game_net_accumulate(const game_net_t *gn, const nnue_t *n, const position_t *pos, nnue_acc_t *a)
{
    uint16_t f[GAME_NET_ACTIVE_MAX];
    int head, count = gn->features(pos, 0, f, &head);
    nnue_acc_reset(n, a);
    for (int i = 0; i < count; i++)
        nnue_acc_add(n, a, f[i]);
}

void game_net_fill(const game_net_t *gn, const nnue_t *n, const position_t *pos, const nnue_t **cache_net,
                   nnue_acc_t *cache)
{
    *cache_net = n;
    if (n)
        game_net_accumulate(gn, n, pos, cache);
    else
        memset(cache, 0, sizeof *cache);
}

int game_net_output(const game_net_t *gn, const nnue_t *n, const position_t *pos, const nnue_t *cache_net,
                    const nnue_acc_t *cache, int head)
{
    nnue_acc_t fresh;
    const nnue_acc_t *a = cache;
    if (cache_net != n) {
        game_net_accumulate(gn, n, pos, &fresh);
        a = &fresh;
    }
#ifndef NDEBUG
    else {
        game_net_accumulate(gn, n, pos, &fresh);
        assert(memcmp(&fresh, a, sizeof fresh) == 0);
    }
#endif
    return nnue_output(n, a, head);
}

void game_net_embed(game_net_t *gn, nnue_t *n, const int32_t *ints, size_t count)
{
    char why[200];
    bool ok = nnue_from_ints(n, gn->name, ints, count, why, sizeof why);
    assert(ok && n->inputs == gn->inputs);
    (void)ok;
    gn->embedded = n;
}
