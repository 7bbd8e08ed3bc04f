/* brandubh_net.h: Brandubh's learned evaluation (brandubh_net.c), for the
 * game tables (brandubh.c) and the evaluation (brandubh_eval.c). */
#ifndef DENHAM_BRANDUBH_NET_H
#define DENHAM_BRANDUBH_NET_H

#include "brandubh_rules.h"

/* Version 1's net: the options' state and the embedded net. */
extern game_net_t brandubh_net;
int bdb_net_features(const position_t *pos, int sym, uint16_t *out, int *head);
void bdb_refresh(position_t *pos);
/* The net's value of pos for the side to move (pos not decided). */
score_t bdb_net_evaluate(const nnue_t *n, const position_t *pos);

#endif
