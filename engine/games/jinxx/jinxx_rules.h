/*
 * jinxx_rules.h: what the files of the Jinxx game share and nobody else
 * sees: the position (jinxx_t), the move encoding, the board's tables and
 * hash keys, and the small rules the evaluation and the text read.
 * Included by jinxx_*.c only; the search and the protocol reach Jinxx
 * through its game_t (jinxx.h) alone.
 *
 * A cell holds at most one pyramid of each size and a stack always shrinks
 * upwards (L, M, S from the bottom), so a stack is just the set of sizes on
 * its cell: the position is, per player and size, the mask of cells where
 * that player has a pyramid of that size. The top of a cell is its smallest
 * size; a pyramid moves with everything smaller on its cell; it may land
 * where nothing smaller stands, destroying an equal one. A tree is always
 * L, LM or LMS from the bottom, so it is a count (0-3).
 *
 * The die is part of the position (0: to roll, 1-6: the face rolled), and
 * a roll is a move: the six faces are the moves of a chance node.
 */
#ifndef DENHAM_JINXX_RULES_H
#define DENHAM_JINXX_RULES_H

#include "../../core/game.h"

enum { SZ_S, SZ_M, SZ_L };
#define ALL_CELLS 0x1FFu
#define DRAW_TURNS 60
#define CENTRE 4

typedef struct jinxx {
    uint16_t occ[MAX_PLAYERS][3]; /* cells with player p's pyramid of size s */
    uint16_t sizes[3];            /* cells with a pyramid of size s */
    uint8_t tree[MAX_PLAYERS][3]; /* pyramids left in each tree */
    uint64_t hash;
    uint8_t players;
    uint8_t stm;
    uint8_t die;     /* 0: to roll; else face + 1 */
    uint8_t counter; /* turns without destruction or entry */
    uint8_t out;     /* players vaporized */
} jinxx_t;

_Static_assert(sizeof(jinxx_t) <= GAME_POS_BYTES, "position fits");
_Static_assert(sizeof(jinxx_t) <= sizeof(((undo_t *)0)->w), "undo holds a position");

static const char *const face_name[6] = {"S", "M", "L", "SM", "SL", "ML"};
/* The sizes each face allows, as a bit mask of sizes. */
static const uint8_t face_sizes[6] = {1, 2, 4, 3, 5, 6};
static const char size_letter[3] = {'S', 'M', 'L'};
/* Seats South, West, North, East: the edge cell in front of each tree. */
static const uint8_t edge_cell[4][3] = {{0, 1, 2}, {0, 3, 6}, {6, 7, 8}, {2, 5, 8}};
static const uint16_t lines[4] = {0x038, 0x092, 0x111, 0x054}; /* rank 2, file b, diagonals */

/* The board's tables and hash keys (jinxx_rules.c), filled once by
 * jinxx_tables_ensure(). By a set of cells (nine bits): the cells next to
 * any of them, the lines it holds whole, and those it lacks one cell of
 * (bit l: lines[l]); the rules and the evaluation test these per node. */
extern uint16_t jinxx_adjacent[9];
extern uint16_t jinxx_adjacent_to[512];
extern uint8_t jinxx_lines_held[512], jinxx_lines_one_short[512];
/* By a set of cells: the lines it holds two cells of, and one (bits 0-3
 * and 4-7 count them: twos | ones << 4). */
extern uint8_t jinxx_line_counts[512];
/* By a seat and its three trees' counts (tree k's count << 2k): the edge
 * cells in front of the trees holding each size s (bits 9s to 9s + 8). */
extern uint32_t jinxx_tree_cells[4][64];
extern uint64_t jinxx_zobrist_occ[MAX_PLAYERS][3][9], jinxx_zobrist_tree[MAX_PLAYERS][3][4], jinxx_zobrist_die[7];
extern uint64_t jinxx_zobrist_stm[MAX_PLAYERS], jinxx_zobrist_counter[DRAW_TURNS + 1], jinxx_zobrist_out[MAX_PLAYERS];
void jinxx_tables_ensure(void);

static inline jinxx_t *P(position_t *p) { return (jinxx_t *)p->bytes; }
static inline const jinxx_t *CP(const position_t *p) { return (const jinxx_t *)p->bytes; }

static inline int seat_of(const jinxx_t *b, int p) { return b->players == 2 ? 2 * p : p; }
static inline int popcount9(unsigned m) { return __builtin_popcount(m); }
/* A tree of n pyramids holds size s when n >= 3 - s (L from 1, M from 2, S at 3). */
static inline bool tree_has(int n, int s) { return n >= 3 - s; }

/* Cells where a pyramid of size s may land: nothing smaller stands there. */
static inline unsigned landable(const jinxx_t *b, int s)
{
    unsigned smaller = 0;
    for (int t = 0; t < s; t++)
        smaller |= b->sizes[t];
    return ~smaller & ALL_CELLS;
}

/* Cells whose top pyramid belongs to p. */
static inline unsigned tops(const jinxx_t *b, int p)
{
    return b->occ[p][SZ_S] | (b->occ[p][SZ_M] & ~b->sizes[SZ_S]) |
           (b->occ[p][SZ_L] & ~(b->sizes[SZ_S] | b->sizes[SZ_M]));
}

static inline bool holds_line(const jinxx_t *b, int p) { return jinxx_lines_held[tops(b, p)] != 0; }

static inline int pyramids_of(const jinxx_t *b, int p)
{
    int n = b->tree[p][0] + b->tree[p][1] + b->tree[p][2];
    for (int s = 0; s < 3; s++)
        n += popcount9(b->occ[p][s]);
    return n;
}

static inline bool in_game(const jinxx_t *b, int p) { return !(b->out & (1u << p)); }

/* The edge cells in front of player p's trees, by the size each can give:
 * bits 9s to 9s + 8 for size s. */
static inline uint32_t tree_cells(const jinxx_t *b, int p)
{
    return jinxx_tree_cells[seat_of(b, p)][b->tree[p][0] | b->tree[p][1] << 2 | b->tree[p][2] << 4];
}

enum { K_ROLL = 1, K_BOARD, K_TREE, K_REROLL, K_PASS };

/* kind | face << 3 | size << 6 | from (cell or tree) << 8 | to << 12 */
static inline move_t encode(int kind, int face, int size, int from, int to)
{
    return (move_t)(kind | face << 3 | size << 6 | from << 8 | to << 12);
}
static inline int m_kind(move_t m) { return (int)(m & 7); }
static inline int m_face(move_t m) { return (int)(m >> 3 & 7); }
static inline int m_size(move_t m) { return (int)(m >> 6 & 3); }
static inline int m_from(move_t m) { return (int)(m >> 8 & 15); }
static inline int m_to(move_t m) { return (int)(m >> 12 & 15); }

/* Rules the other files read (jinxx_rules.c). */
/* The player who moves after the player to move. */
int jinxx_next_player(const jinxx_t *b);
/* The owner of the pyramid of size s on cell c (there must be one). */
int jinxx_owner_of(const jinxx_t *b, int s, int c);
bool jinxx_is_over(const jinxx_t *b);

/* game_t's rules (see game.h for each one's contract). */
int jinxx_gen_moves(const position_t *pos, move_t *moves);
int jinxx_gen_noisy(const position_t *pos, move_t *moves);
int jinxx_count_moves(const position_t *pos);
int jinxx_chance_outcomes(const position_t *pos, move_t *moves, int *weights);
void jinxx_make(position_t *pos, move_t m, undo_t *u);
void jinxx_unmake(position_t *pos, move_t m, const undo_t *u);
void jinxx_hand_turn(position_t *pos, int player);
int jinxx_to_move(const position_t *pos);
uint64_t jinxx_hash(const position_t *pos);
player_mask_t jinxx_players_in(const position_t *pos);
bool jinxx_decided(const position_t *pos, outcome_t *out);
outcome_t jinxx_outcome(const position_t *pos);

#endif
