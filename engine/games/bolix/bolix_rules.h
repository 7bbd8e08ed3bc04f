/*
 * bolix_rules.h: what the files of the Bolix game share and nobody else
 * sees: the position (bolix_t) with its running window sums, the move
 * encoding, the board's tables and hash keys, and the rules the evaluation
 * and the text read. Included by bolix_*.c only; the search and the
 * protocol reach Bolix through its game_t (bolix.h) alone.
 *
 * Cells are indexed column by column (a1 = 0 ... j10 = 79). Everything the
 * rules look at is precomputed: the 116 five-cell windows and, per cell,
 * the windows through it; per cell and direction, the three cells of a
 * possible sandwich (own, enemy, enemy, own with the placed marble at one
 * end). The position keeps, per window, the marbles of each colour, and
 * the sums the rules and the evaluation need (fives, open fours, line
 * values), updated by make and unmake: nothing rescans the board.
 */
#ifndef DENHAM_BOLIX_RULES_H
#define DENHAM_BOLIX_RULES_H

#include <stddef.h>

#include "../../core/bb128.h"
#include "../../core/game.h"
#include "../../learn/nnue.h"

enum { BLACK = 0, WHITE = 1 };

#define N_CELLS 80
#define N_WINDOWS 116
#define HAND 36
#define NO_CELL 127
#define MAX_WINDOWS_PER_CELL 15

typedef struct bolix_pos {
    bb128_t men[2];
    uint64_t hash;
    uint8_t stm;
    uint8_t hand[2];
    uint8_t ko;     /* cell the side to move may not place on, or NO_CELL */
    uint8_t passes; /* passes just made in a row */
    uint8_t fives;  /* bit s: colour s has five in a row */
    uint8_t fours[2];  /* windows of four of s and none of the other */
    int16_t lines[2];  /* window_value summed over the windows s alone holds */
    /* By window index: the windows holding three (four) of s and none of
     * the other, where a placement makes a four (five). */
    bb128_t open3[2], open4[2];
    /* Per window of five, the marbles of each colour (black in the low
     * nibble, white in the high), kept by make and unmake: the rules and
     * the evaluation read them instead of rescanning the board. */
    uint8_t count[N_WINDOWS];
    /* The first layer of acc_net for this position (NULL: none cached),
     * kept by make and unmake as the window counts change: a net's
     * features are the windows' counts (bolix_net_feature). */
    const nnue_t *acc_net;
    nnue_acc_t acc;
} bolix_t;

/* What make saves and unmake restores by copy; the counts are undone
 * from the move. */
#define BOLIX_HEAD offsetof(bolix_t, count)

_Static_assert(sizeof(bolix_t) <= GAME_POS_BYTES, "position fits");
_Static_assert(BOLIX_HEAD <= sizeof(((undo_t *)0)->w), "undo holds the position's head");

/* The net's inputs: per window, black alone with 1, 2, 3, 4 (or five)
 * marbles, then white alone likewise; a window both colours hold, or none,
 * has no feature on. bolix_net_slot[count byte] is the slot (0-7) or -1. */
#define BOLIX_NET_INPUTS (N_WINDOWS * 8)
extern int8_t bolix_net_slot[256];
static inline int bolix_net_feature(int window, int byte)
{
    int slot = bolix_net_slot[byte];
    return slot < 0 ? -1 : window * 8 + slot;
}
/* The board's symmetries (the identity first; then the two mirror lines
 * and the half turn: its sides are 6, 6, 5, 6, 6, 5 cells, so no third
 * of a turn keeps it), as images of the windows: the net's training sees
 * a position under any of them. The tables' set-up finds them and checks
 * that there are BOLIX_SYMMETRIES. */
#define BOLIX_SYMMETRIES 4
extern uint8_t bolix_window_image[BOLIX_SYMMETRIES][N_WINDOWS];

/* The board's tables (bolix_rules.c), filled once by bolix_tables_ensure(). */
extern int bolix_cell_q[N_CELLS], bolix_cell_n[N_CELLS];
extern int8_t bolix_cell_at[10][11]; /* [q][n], -1 off the board */
/* Column q (a-j) holds the cells numbered col_lo[q] to col_hi[q]. */
static const int col_lo[10] = {1, 1, 1, 1, 1, 1, 2, 3, 4, 5};
static const int col_hi[10] = {6, 7, 8, 9, 10, 10, 10, 10, 10, 10};
/* The cell at column q, number n, or -1 off the board. */
static inline int at(int q, int n) { return q >= 0 && q < 10 && n >= 1 && n <= 10 ? bolix_cell_at[q][n] : -1; }
extern uint64_t bolix_zobrist_men[2][N_CELLS], bolix_zobrist_side, bolix_zobrist_ko[N_CELLS + 1], bolix_zobrist_pass;
void bolix_tables_ensure(void);
/* Sets what a window holding k marbles of one colour alone is worth
 * (line_value[0..5]), from the evaluation's line weights: at start-up and
 * when the weights change (positions set up after it sum with the new
 * values). The rules keep the sums; the evaluation owns the values. */
void bolix_worth_set(const int16_t line_value[6]);

static inline bolix_t *P(position_t *p) { return (bolix_t *)p->bytes; }
static inline const bolix_t *CP(const position_t *p) { return (const bolix_t *)p->bytes; }

/* place (7 bits) | (removed + 1) << 7 | PLACED; a pass is PASS. The
 * marker bit keeps a plain placement on a1 (cell 0) from being move 0. */
#define PASS ((move_t)NO_CELL)
#define PLACED ((move_t)1 << 14)
static inline move_t encode(int place, int removed) { return (move_t)(place | (removed + 1) << 7) | PLACED; }
static inline int move_place(move_t m) { return (int)(m & 127); }
static inline int move_removed(move_t m) { return (int)(m >> 7 & 127) - 1; }

/* The cells where a marble of s makes five now. */
bb128_t bolix_five_makers(const bolix_t *b, int s);
/* The cells where a marble of s captures. */
bb128_t bolix_capture_cells(const bolix_t *b, int s);
/* How many, for both colours: bb128_popcount(bolix_capture_cells(b, s)),
 * faster. */
void bolix_capture_counts(const bolix_t *b, int counts[2]);
/* The window counts and sums from the boards (position strings, the start). */
void bolix_recount(bolix_t *b);

/* game_t's rules (see game.h for each one's contract). */
int bolix_gen_moves(const position_t *pos, move_t *moves);
int bolix_gen_quiet(const position_t *pos, move_t *moves);
int bolix_gen_noisy(const position_t *pos, move_t *moves);
int bolix_count_moves(const position_t *pos);
bool bolix_move_legal(const position_t *pos, move_t m);
bool bolix_must_respond(const position_t *pos);
bool bolix_gives_threat(const position_t *pos, move_t m);
void bolix_make(position_t *pos, move_t m, undo_t *u);
void bolix_unmake(position_t *pos, move_t m, const undo_t *u);
bool bolix_pass_turn(position_t *pos);
int bolix_to_move(const position_t *pos);
uint64_t bolix_hash(const position_t *pos);
bool bolix_decided(const position_t *pos, outcome_t *out);
outcome_t bolix_outcome(const position_t *pos);

#endif
