/*
 * ref_brandubh.h: a plain Brandubh rules implementation on a character grid,
 * written from docs/rules/brandubh.md without looking at the engine's
 * bitboard code. Slow and obvious on purpose: it is the yardstick the fast
 * generator is measured against.
 */
#ifndef DENHAM_REF_BRANDUBH_H
#define DENHAM_REF_BRANDUBH_H

#include <stdbool.h>

typedef struct ref_bdb {
    char sq[7][7]; /* [rank][file], '.', 'a', 'd', 'k' */
    char stm;      /* 'a' or 'd' */
    int version;
} ref_bdb_t;

typedef struct ref_move {
    int from_r, from_f, to_r, to_f;
    bool captures;
    char text[8];
} ref_move_t;

bool ref_bdb_from_fen(ref_bdb_t *b, const char *fen, int version);
void ref_bdb_to_fen(const ref_bdb_t *b, char *out);
int ref_bdb_moves(const ref_bdb_t *b, ref_move_t *moves);
void ref_bdb_play(ref_bdb_t *b, const ref_move_t *m);
/* 'n' ongoing, 'a' attackers won, 'd' defenders won, '=' draw (no moves). */
char ref_bdb_result(const ref_bdb_t *b);

#endif
