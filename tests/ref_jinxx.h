/* ref_jinxx.h: a plain implementation of Jinxx (`jinxx`, `jinxx-3p`,
 * `jinxx-4p`) written from docs/rules/jinxx.md separately from the
 * engine's module: stacks as arrays, every question answered by scanning.
 *
 * Position strings are the engine's (PROTOCOL.md):
 *   <board> <trees> <turn> <die> <counter>
 * board: ranks 3, 2, 1 separated by '/', each three cells a, b, c separated
 * by ','; a cell is '.' or its pyramids bottom-up, each a size letter and
 * its owner's number (L1M2); trees: per player in seat order, separated by
 * '/', three digits (3 LMS, 2 LM, 1 L, 0 empty) in the order of the
 * player's edge cells, or 'x' for a player who is out; turn: p1..p4; die:
 * '-' to roll, or the face; counter: turns without destruction or entry. */
#ifndef DENHAM_REF_JINXX_H
#define DENHAM_REF_JINXX_H

#include <stdbool.h>

enum { REF_S, REF_M, REF_L };

typedef struct ref_pyr {
    int size, owner;
} ref_pyr_t;

typedef struct ref_jinxx {
    int players;
    ref_pyr_t cell[9][3]; /* index (rank-1)*3 + file, bottom-up */
    int height[9];
    int tree[4][3];       /* pyramids in each tree, from L up */
    bool out[4];
    int stm;
    int die;              /* -1 to roll, else face 0..5: S M L SM SL ML */
    int counter;
    int winner;           /* -1 none, -2 drawn, else the player */
} ref_jinxx_t;

typedef struct ref_jmove {
    int kind; /* 0 roll, 1 board move, 2 tree entry, 3 reroll, 4 pass */
    int face; /* rolls */
    int size, from, to, tree;
    char text[16];
} ref_jmove_t;

bool ref_jinxx_from_fen(ref_jinxx_t *b, const char *fen, int players);
void ref_jinxx_to_fen(const ref_jinxx_t *b, char *out);
/* Rolls (six) where the die is to be rolled, else the moves; 0 when over. */
int ref_jinxx_moves(const ref_jinxx_t *b, ref_jmove_t *moves);
void ref_jinxx_play(ref_jinxx_t *b, const ref_jmove_t *m);

#endif
