/*
 * brandubh_rules.h: what the files of the Brandubh game share and nobody
 * else sees: the position (bdb_t), the move encoding, the board's tables
 * and hash keys, and the sliding-move helpers the evaluation reads.
 * Included by brandubh_*.c only; the search and the protocol reach
 * Brandubh through its game_t (brandubh.h) alone.
 *
 * Square index = rank * 7 + file (a1 = 0, g7 = 48). Sliding moves come from
 * tables indexed by the 7-bit occupancy of the piece's rank or file, so a
 * piece's targets are two loads and an AND. Captures need no search: a move
 * captures exactly when its landing square is next to a victim whose far
 * side is an "anvil" (own piece or hostile square), so the set of capturing
 * landing squares is four shift expressions per position.
 */
#ifndef DENHAM_BRANDUBH_RULES_H
#define DENHAM_BRANDUBH_RULES_H

#include "../../core/bitboard.h"
#include "../../core/game.h"
#include "../../learn/nnue.h"

enum { SIDE_ATT = 0, SIDE_DEF = 1 };
enum { PIECE_ATT = 0, PIECE_DEF = 1, PIECE_KING = 2 };

#define N_SQ 49
#define BOARD_MASK ((bb64_t)0x1FFFFFFFFFFFFull)
#define FILE_A_MASK ((bb64_t)0x0040810204081ull) /* a1 a2 ... a7 */
#define FILE_G_MASK (FILE_A_MASK << 6)
#define RANK_1_MASK ((bb64_t)0x7F)
#define RANK_7_MASK (RANK_1_MASK << 42)
/* The edges: only a king on one can see a corner (corner_lines). */
#define EDGES (FILE_A_MASK | FILE_G_MASK | RANK_1_MASK | RANK_7_MASK)
#define SQ_THRONE 24
#define THRONE ((bb64_t)1 << SQ_THRONE)
#define CORNERS (bb_bit(0) | bb_bit(6) | bb_bit(42) | bb_bit(48))
#define ATTACKERS_AT_START 8 /* the setup's, and the most a FEN may give */
/* b2 f2 b6 f6: an attacker here guards a corner's two approaches. */
#define CORNER_GUARDS (bb_bit(8) | bb_bit(12) | bb_bit(36) | bb_bit(40))
/* b1 f1 a2 g2 a6 g6 b7 f7: one enemy takes a man here against the corner. */
#define BESIDE_CORNERS \
    (bb_bit(1) | bb_bit(5) | bb_bit(7) | bb_bit(13) | bb_bit(35) | bb_bit(41) | bb_bit(43) | bb_bit(47))

typedef struct bdb {
    bb64_t att, def, king; /* king is one bit, or 0 once captured */
    uint64_t hash;
    uint8_t stm;
    uint8_t version; /* 1 or 2 */
    /* The first layer of acc_net for this position, kept by make and
     * unmake once refresh has filled it; NULL: not cached (the default, so
     * that a position's bytes are its FEN's). */
    const nnue_t *acc_net;
    nnue_acc_t acc;
} bdb_t;

_Static_assert(sizeof(bdb_t) <= GAME_POS_BYTES, "position fits");
/* make saves the four bitboard words and the accumulator. */
#define BDB_UNDO_ACC 4
_Static_assert(BDB_UNDO_ACC * 8 + sizeof(nnue_acc_t) <= GAME_UNDO_WORDS * 8, "undo fits");

/* The net's features: a piece kind times 49 plus its square. */
#define BDB_NET_INPUTS (3 * N_SQ)
static inline int bdb_net_feature(int piece, int sq) { return piece * N_SQ + sq; }

/* The board's tables (brandubh_rules.c), filled once by
 * brandubh_tables_ensure(). */
extern int8_t brandubh_neighbour[N_SQ][4]; /* step(sq, dir) */
extern bb64_t brandubh_approach_lines[4][2]; /* each corner's two edges, without the corner */
extern bb64_t brandubh_rank_reach[N_SQ][128];
extern bb64_t brandubh_file_reach[N_SQ][128];
/* Per square: its rank's shift (rank * 7) and its file, for reach(), which
 * would otherwise divide by 7 for every piece; the squares of its rank and
 * file. */
extern uint8_t brandubh_rank_shift[N_SQ], brandubh_file_of[N_SQ];
extern bb64_t brandubh_lines_through[N_SQ];
extern uint64_t brandubh_zobrist_piece[3][N_SQ];
extern uint64_t brandubh_zobrist_side;
void brandubh_tables_ensure(void);
/* Reads the embedded net (brandubh_net.c); brandubh_tables_ensure calls it. */
void brandubh_net_ensure(void);

static const int corner_sq[4] = {0, 6, 42, 48};
/* Directions from each corner along its two edges (into the board). */
static const int corner_dirs[4][2] = {{0, 2}, {0, 3}, {1, 2}, {1, 3}};

static inline bdb_t *P(position_t *p) { return (bdb_t *)p->bytes; }
static inline const bdb_t *CP(const position_t *p) { return (const bdb_t *)p->bytes; }

static inline int sq_file(int sq) { return sq % 7; }
static inline int sq_rank(int sq) { return sq / 7; }

/* Gathers the file's seven bits (7 apart) into one byte: each bit lands on
 * a distinct product bit, so the multiply never carries into bits 56-62. */
#define FILE_GATHER 0x0104104104100000ull /* sum of 2^(56 - 6k), k = 0..6 */
static inline int file_index(bb64_t occ, int file)
{
    return (int)((((occ >> file) & FILE_A_MASK) * FILE_GATHER) >> 56) & 0x7F;
}

/* The square one step from sq: north, south, east, west; -1 off the board. */
static inline int step(int sq, int dir) { return brandubh_neighbour[sq][dir]; }

/* Empty squares a rook on sq reaches. */
static inline bb64_t reach(int sq, bb64_t occ)
{
    return brandubh_rank_reach[sq][(occ >> brandubh_rank_shift[sq]) & 0x7F] |
           brandubh_file_reach[sq][file_index(occ, brandubh_file_of[sq])];
}

/* The empty squares that see a corner along a clear line (all on the
 * EDGES): the king there threatens to go home. */
static inline bb64_t corner_lines(bb64_t occ)
{
    return reach(0, occ) | reach(6, occ) | reach(42, occ) | reach(48, occ);
}

static inline bb64_t occupied(const bdb_t *b) { return b->att | b->def | b->king; }
static inline bool throne_closed(const bdb_t *b) { return b->version == 2; }

/* Where the piece on sq may stop. */
static inline bb64_t targets(const bdb_t *b, int sq, bb64_t occ)
{
    bb64_t t = reach(sq, occ);
    if (!(b->king & bb_bit(sq)))
        return t & ~(CORNERS | THRONE);
    return throne_closed(b) ? t & ~THRONE : t;
}

static inline int piece_on(const bdb_t *b, int sq)
{
    bb64_t bit = bb_bit(sq);
    return (b->att & bit) ? PIECE_ATT : (b->def & bit) ? PIECE_DEF : (b->king & bit) ? PIECE_KING : -1;
}

static inline move_t encode(int from, int to) { return (move_t)(from | to << 6); }
static inline int move_from(move_t m) { return (int)(m & 63); }
static inline int move_to(move_t m) { return (int)(m >> 6 & 63); }

/* game_t's rules (see game.h for each one's contract). */
int bdb_gen_moves(const position_t *pos, move_t *moves);
int bdb_gen_quiet(const position_t *pos, move_t *moves);
int bdb_gen_noisy(const position_t *pos, move_t *moves);
int bdb_count_moves(const position_t *pos);
bool bdb_move_legal(const position_t *pos, move_t m);
bool bdb_must_respond(const position_t *pos);
bool bdb_gives_threat(const position_t *pos, move_t m);
void bdb_make(position_t *pos, move_t m, undo_t *u);
void bdb_unmake(position_t *pos, move_t m, const undo_t *u);
bool bdb_pass_turn(position_t *pos);
int bdb_to_move(const position_t *pos);
uint64_t bdb_hash(const position_t *pos);
bool bdb_decided(const position_t *pos, outcome_t *out);
outcome_t bdb_outcome(const position_t *pos);

#endif
