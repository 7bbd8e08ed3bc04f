/* ref_brax.h: a plain Brax rules implementation on a grid, written from
 * docs/rules/brax.md separately from the engine's bitboard module: the
 * yardstick for the fast generator. Variants: 0 brax, 1 zillions, 2 easy,
 * 3 hunt. */
#ifndef DENHAM_REF_BRAX_H
#define DENHAM_REF_BRAX_H

#include <stdbool.h>

typedef struct ref_brax {
    char pt[9][9]; /* [row][col]: '.', 'r', 'b' */
    char stm;      /* 'r' or 'b' */
    bool called[2]; /* [0] red, [1] blue: that player's last move called */
    int quiet;
    int variant;
} ref_brax_t;

typedef struct ref_brax_move {
    int fr, fc, tr, tc, mr, mc; /* mr = -1: no captured middle */
    bool call;
    char text[16];
} ref_brax_move_t;

bool ref_brax_from_fen(ref_brax_t *b, const char *fen, int variant);
void ref_brax_to_fen(const ref_brax_t *b, char *out);
int ref_brax_moves(const ref_brax_t *b, ref_brax_move_t *moves);
void ref_brax_play(ref_brax_t *b, const ref_brax_move_t *m);
/* 'n' ongoing, 'r' red won, 'b' blue won, '=' drawn. */
char ref_brax_result(const ref_brax_t *b);

#endif
