/* ref_bolix.h: a plain Bolix rules implementation on (column, number)
 * coordinates, written from docs/rules/bolix.md separately from the
 * engine's bitboard module: the yardstick for the fast generator. */
#ifndef DENHAM_REF_BOLIX_H
#define DENHAM_REF_BOLIX_H

#include <stdbool.h>

typedef struct ref_bolix {
    char cell[10][11]; /* [q][n]: '.', 'b', 'w'; '#' off the board */
    char stm;
    int hand[2]; /* black, white */
    int ko_q, ko_n; /* -1: none */
    int passes;
} ref_bolix_t;

typedef struct ref_bolix_move {
    bool pass;
    int q, n, rq, rn; /* rq = -1: no removal */
    char text[16];
} ref_bolix_move_t;

bool ref_bolix_from_fen(ref_bolix_t *b, const char *fen);
void ref_bolix_to_fen(const ref_bolix_t *b, char *out);
int ref_bolix_moves(const ref_bolix_t *b, ref_bolix_move_t *moves);
void ref_bolix_play(ref_bolix_t *b, const ref_bolix_move_t *m);
/* 'n' ongoing, 'b' or 'w' won, '=' drawn. */
char ref_bolix_result(const ref_bolix_t *b);

#endif
