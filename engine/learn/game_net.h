/* game_net.h: what every game with a learned evaluation does alike with
 * its net (game_net_t, game.h) and a position's cached first layer: sum
 * it from the game's features, fill the cache, read the output from the
 * cache or afresh, take in the numbers the build embeds. Knows game_t's
 * net interface and nnue.h; no game's internals (the game says where its
 * position keeps the cache). */
#ifndef DENHAM_GAME_NET_H
#define DENHAM_GAME_NET_H

#include "../core/game.h"
#include "nnue.h"

/* n's first layer for pos, summed over the game's features. */
void game_net_accumulate(const game_net_t *gn, const nnue_t *n, const position_t *pos, nnue_acc_t *a);
/* Fills a position's cache (*cache_net, *cache) for n, or empties it
 * (NULL and zeros) when n is NULL. */
void game_net_fill(const game_net_t *gn, const nnue_t *n, const position_t *pos, const nnue_t **cache_net,
                   nnue_acc_t *cache);
/* n's output for pos at head (nnue_output): from the cache when it holds
 * n's layer (debug builds check it against a fresh sum), else afresh. */
int game_net_output(const game_net_t *gn, const nnue_t *n, const position_t *pos, const nnue_t *cache_net,
                    const nnue_acc_t *cache, int head);
/* Reads the embedded numbers into n and makes n gn's embedded net; the
 * numbers must be a net of gn's inputs (asserted). */
void game_net_embed(game_net_t *gn, nnue_t *n, const int32_t *ints, size_t count);

#endif
