/*
 * net_option.c: UseNetwork and EvalFile (net_option.h). Reaches the games
 * through the registry and game_net_t: no game's internals. Never called
 * during a search (setoption refuses then), so no search reads a net this
 * frees.
 */
#include "net_option.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../engine/games/variants.h"
#include "../../engine/learn/nnue.h"

void net_option_use(net_use_t how)
{
    for (int i = 0; variants_at(i); i++) {
        game_net_t *n = variants_at(i)->net;
        if (n)
            n->use = how == NET_USE_ALL || (how == NET_USE_AUTO && n->by_default);
    }
}

bool net_option_parse_use(const char *value, net_use_t *how)
{
    static const char *const names[] = {[NET_USE_AUTO] = "auto", [NET_USE_ALL] = "true", [NET_USE_NONE] = "false"};
    for (int k = 0; k < 3; k++)
        if (strcasecmp(value, names[k]) == 0) {
            *how = (net_use_t)k;
            return true;
        }
    return false;
}

/* Frees game net n's file net, if it has one: the embedded one serves. */
static void unload(game_net_t *n)
{
    nnue_t *old = (nnue_t *)n->loaded;
    n->loaded = NULL;
    free(old);
}

bool net_option_load(const char *path, char *why, size_t len)
{
    if (!*path || strcmp(path, NET_OPTION_EMBEDDED) == 0) {
        for (int i = 0; variants_at(i); i++)
            if (variants_at(i)->net)
                unload(variants_at(i)->net);
        return true;
    }
    nnue_t *n = malloc(sizeof *n);
    if (!n) {
        snprintf(why, len, "out of memory");
        return false;
    }
    if (!nnue_load(n, path, why, len)) {
        free(n);
        return false;
    }
    game_net_t *target = NULL;
    for (int i = 0; variants_at(i) && !target; i++) {
        game_net_t *gn = variants_at(i)->net;
        if (gn && strcmp(gn->name, n->game) == 0)
            target = gn;
    }
    /* Its weights are bounded for max_active features: at least the game's. */
    if (!target)
        snprintf(why, len, "the net file is for '%s', which is no game with a network", n->game);
    else if (target->inputs != n->inputs || n->max_active < target->max_active)
        snprintf(why, len, "the net file is for %s but has %d inputs and %d active features (the game: %d and %d)",
                 n->game, n->inputs, n->max_active, target->inputs, target->max_active);
    if (!target || target->inputs != n->inputs || n->max_active < target->max_active) {
        free(n);
        return false;
    }
    unload(target);
    target->loaded = n;
    return true;
}
