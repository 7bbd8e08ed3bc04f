/* bolix_net.h: Bolix's learned evaluation (bolix_net.c), for the game
 * table (bolix.c) and the evaluation (bolix_eval.c). */
#ifndef DENHAM_BOLIX_NET_H
#define DENHAM_BOLIX_NET_H

#include "bolix_rules.h"

/* The options' state and the embedded net. */
extern game_net_t bolix_net;
int bolix_net_features(const position_t *pos, int sym, uint16_t *out, int *head);
void bolix_refresh(position_t *pos);
/* The net's value of pos for the side to move (pos not decided). */
score_t bolix_net_evaluate(const nnue_t *n, const position_t *pos);
/* Reads the embedded net; the tables' set-up calls it. */
void bolix_net_ensure(void);

#endif
