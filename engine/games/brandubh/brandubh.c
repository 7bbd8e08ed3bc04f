/*
 * brandubh.c: Brandubh on 64-bit bitboards.
 *
 * Square index = rank * 7 + file (a1 = 0, g7 = 48). Sliding moves come from
 * tables indexed by the 7-bit occupancy of the piece's rank or file, so a
 * piece's targets are two loads and an AND. Captures need no search: a move
 * captures exactly when its landing square is next to a victim whose far
 * side is an "anvil" (own piece or hostile square), so the set of capturing
 * landing squares is four shift expressions per position.
 */
#include "brandubh.h"
#include "brandubh_view.h"

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../../core/bitboard.h"
#include "../../core/rng.h"

enum { SIDE_ATT = 0, SIDE_DEF = 1 };
enum { PIECE_ATT = 0, PIECE_DEF = 1, PIECE_KING = 2 };

#define N_SQ 49
#define BOARD_MASK ((bb64_t)0x1FFFFFFFFFFFFull)
#define FILE_A_MASK ((bb64_t)0x0040810204081ull) /* a1 a2 ... a7 */
#define FILE_G_MASK (FILE_A_MASK << 6)
#define SQ_THRONE 24
#define THRONE ((bb64_t)1 << SQ_THRONE)
#define CORNERS (bb_bit(0) | bb_bit(6) | bb_bit(42) | bb_bit(48))
#define RANK_1_MASK ((bb64_t)0x7F)
/* The edges: the only squares from which a corner is one move away. */
#define EDGES (RANK_1_MASK | RANK_1_MASK << 42 | FILE_A_MASK | FILE_G_MASK)
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
} bdb_t;

_Static_assert(sizeof(bdb_t) <= GAME_POS_BYTES, "position fits");

static int8_t neighbour[N_SQ][4]; /* step(sq, dir) */
static const int corner_sq[4] = {0, 6, 42, 48};
/* Directions from each corner along its two edges (into the board). */
static const int corner_dirs[4][2] = {{0, 2}, {0, 3}, {1, 2}, {1, 3}};
static bb64_t approach_lines[4][2]; /* each corner's two edges, without the corner */
static bb64_t rank_reach[N_SQ][128];
static bb64_t file_reach[N_SQ][128];
static uint64_t zobrist_piece[3][N_SQ];
static uint64_t zobrist_side;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static bdb_t *P(position_t *p) { return (bdb_t *)p->bytes; }
static const bdb_t *CP(const position_t *p) { return (const bdb_t *)p->bytes; }

/* ---- geometry ---- */

static int sq_file(int sq) { return sq % 7; }
static int sq_rank(int sq) { return sq / 7; }

/* Gathers the file's seven bits (7 apart) into one byte: each bit lands on
 * a distinct product bit, so the multiply never carries into bits 56-62. */
#define FILE_GATHER 0x0104104104100000ull /* sum of 2^(56 - 6k), k = 0..6 */
static int file_index(bb64_t occ, int file)
{
    return (int)((((occ >> file) & FILE_A_MASK) * FILE_GATHER) >> 56) & 0x7F;
}

static bb64_t shift_north(bb64_t b) { return (b << 7) & BOARD_MASK; }
static bb64_t shift_south(bb64_t b) { return b >> 7; }
static bb64_t shift_east(bb64_t b) { return (b & ~FILE_G_MASK) << 1; }
static bb64_t shift_west(bb64_t b) { return (b & ~FILE_A_MASK) >> 1; }

/* Squares one step away in each direction: north, south, east, west;
 * -1 off the board. Computed once into neighbour[], which step() reads. */
static int step_on_board(int sq, int dir)
{
    int f = sq_file(sq), r = sq_rank(sq);
    switch (dir) {
    case 0: return r < 6 ? sq + 7 : -1;
    case 1: return r > 0 ? sq - 7 : -1;
    case 2: return f < 6 ? sq + 1 : -1;
    default: return f > 0 ? sq - 1 : -1;
    }
}

static void init_tables(void)
{
    for (int sq = 0; sq < N_SQ; sq++)
        for (int d = 0; d < 4; d++)
            neighbour[sq][d] = (int8_t)step_on_board(sq, d);
    for (int c = 0; c < 4; c++)
        for (int i = 0; i < 2; i++)
            for (int sq = step_on_board(corner_sq[c], corner_dirs[c][i]); sq >= 0;
                 sq = step_on_board(sq, corner_dirs[c][i]))
                approach_lines[c][i] |= bb_bit(sq);
    for (int sq = 0; sq < N_SQ; sq++) {
        int f = sq_file(sq), r = sq_rank(sq);
        for (int occ = 0; occ < 128; occ++) {
            bb64_t rr = 0, fr = 0;
            for (int x = f + 1; x < 7 && !(occ >> x & 1); x++) rr |= bb_bit(r * 7 + x);
            for (int x = f - 1; x >= 0 && !(occ >> x & 1); x--) rr |= bb_bit(r * 7 + x);
            for (int y = r + 1; y < 7 && !(occ >> y & 1); y++) fr |= bb_bit(y * 7 + f);
            for (int y = r - 1; y >= 0 && !(occ >> y & 1); y--) fr |= bb_bit(y * 7 + f);
            rank_reach[sq][occ] = rr;
            file_reach[sq][occ] = fr;
        }
    }
    rng_t rng = {0xB8A2D0B0u};
    for (int pc = 0; pc < 3; pc++)
        for (int sq = 0; sq < N_SQ; sq++)
            zobrist_piece[pc][sq] = rng_next(&rng);
    zobrist_side = rng_next(&rng);
}

static void ensure_tables(void) { pthread_once(&tables_once, init_tables); }

static int step(int sq, int dir) { return neighbour[sq][dir]; }

/* Empty squares a rook on sq reaches. */
static bb64_t reach(int sq, bb64_t occ)
{
    int f = sq_file(sq), r = sq_rank(sq);
    return rank_reach[sq][(occ >> (r * 7)) & 0x7F] | file_reach[sq][file_index(occ, f)];
}

static bb64_t occupied(const bdb_t *b) { return b->att | b->def | b->king; }

/* ---- captures ---- */

static bool throne_closed(const bdb_t *b) { return b->version == 2; }

/* Squares that, for the side capturing, complete a sandwich of a man. */
static bb64_t anvils(const bdb_t *b, int side)
{
    bb64_t a = CORNERS | (side == SIDE_ATT ? b->att : b->def | b->king);
    /* Version 2: the empty throne is hostile to the men of both sides. */
    if (b->version == 2 && !(b->king & THRONE))
        a |= THRONE;
    return a;
}

/* Landing squares from which `side` captures a man of the other side. */
static bb64_t man_capture_squares(const bdb_t *b, int side)
{
    bb64_t victims = side == SIDE_ATT ? b->def : b->att;
    bb64_t a = anvils(b, side);
    return shift_south(victims & shift_south(a)) | shift_north(victims & shift_north(a)) |
           shift_west(victims & shift_west(a)) | shift_east(victims & shift_east(a));
}

/* With attackers on `att`, one of them next to the king and facing it in
 * direction dir, is the king captured? */
static bool king_taken_from(const bdb_t *b, bb64_t att, int dir)
{
    int k = bb_lsb(b->king);
    if (b->version == 2) {
        bool on_throne = k == SQ_THRONE;
        bool beside_throne = false;
        for (int d = 0; d < 4; d++)
            beside_throne |= step(k, d) == SQ_THRONE;
        if (on_throne || beside_throne) {
            for (int d = 0; d < 4; d++) {
                int n = step(k, d);
                if (n != SQ_THRONE && !(att & bb_bit(n)))
                    return false;
            }
            return true;
        }
    }
    int far = step(k, dir);
    return far >= 0 && ((att | CORNERS) & bb_bit(far));
}

static int opposite(int dir) { return dir ^ 1; }

/* Empty squares on which an attacker's landing captures the king. */
static bb64_t king_capture_squares(const bdb_t *b)
{
    if (!b->king)
        return 0;
    int k = bb_lsb(b->king);
    bb64_t out = 0, occ = occupied(b);
    for (int d = 0; d < 4; d++) {
        int s = step(k, d);
        if (s < 0 || (occ & bb_bit(s)))
            continue;
        /* The attacker on s faces the king in direction opposite(d). */
        if (king_taken_from(b, b->att | bb_bit(s), opposite(d)))
            out |= bb_bit(s);
    }
    return out;
}

/* Pieces captured by the piece of side `side` that has just landed on to. */
static bb64_t captures_at(const bdb_t *b, int side, int to)
{
    bb64_t victims = side == SIDE_ATT ? b->def : b->att;
    bb64_t a = anvils(b, side);
    bb64_t taken = 0;
    for (int d = 0; d < 4; d++) {
        int n = neighbour[to][d];
        if (n < 0)
            continue;
        int far = neighbour[n][d];
        if ((victims & bb_bit(n)) && far >= 0 && (a & bb_bit(far)))
            taken |= bb_bit(n);
        if (side == SIDE_ATT && (b->king & bb_bit(n)) && king_taken_from(b, b->att, d))
            taken |= bb_bit(n);
    }
    return taken;
}

/* ---- move generation ---- */

static move_t encode(int from, int to) { return (move_t)(from | to << 6); }
static int move_from(move_t m) { return (int)(m & 63); }
static int move_to(move_t m) { return (int)(m >> 6 & 63); }

static bool is_decided(const bdb_t *b) { return !b->king || (b->king & CORNERS); }

/* Where the piece on sq may stop. */
static bb64_t targets(const bdb_t *b, int sq, bb64_t occ)
{
    bb64_t t = reach(sq, occ);
    if (!(b->king & bb_bit(sq)))
        return t & ~(CORNERS | THRONE);
    return throne_closed(b) ? t & ~THRONE : t;
}

static bb64_t movers(const bdb_t *b) { return b->stm == SIDE_ATT ? b->att : b->def | b->king; }

/* The squares where a piece of the side to move captures on arrival. */
static bb64_t capturing_squares(const bdb_t *b)
{
    bb64_t capturing = man_capture_squares(b, b->stm);
    if (b->stm == SIDE_ATT)
        capturing |= king_capture_squares(b);
    return capturing;
}

/* The moves of the piece on `from`, flagged. */
static int gen_piece(const bdb_t *b, int from, bb64_t occ, bb64_t capturing, gen_part_t part, move_t *moves)
{
    int n = 0;
    bb64_t t = targets(b, from, occ);
    bb64_t wins = (b->king & bb_bit(from)) ? t & CORNERS : 0;
    if (part == GEN_NOISY)
        t &= capturing | wins;
    else if (part == GEN_QUIET)
        t &= ~(capturing | wins);
    while (t) {
        int to = bb_pop(&t);
        move_t m = encode(from, to);
        if (capturing & bb_bit(to))
            m |= MOVE_CAPTURE | MOVE_IRREVERSIBLE | MOVE_NOISY;
        if (wins & bb_bit(to))
            m |= MOVE_NOISY;
        moves[n++] = m;
    }
    return n;
}

static int gen(const bdb_t *b, move_t *moves, gen_part_t part)
{
    if (is_decided(b))
        return 0;
    bb64_t occ = occupied(b), capturing = capturing_squares(b);
    int n = 0;
    for (bb64_t pcs = movers(b); pcs;)
        n += gen_piece(b, bb_pop(&pcs), occ, capturing, part, moves + n);
    return n;
}

/* Only the moved piece's moves are listed. */
static bool bdb_move_legal(const position_t *pos, move_t m)
{
    const bdb_t *b = CP(pos);
    if (is_decided(b) || MOVE_BODY(m) >> 12 || !(movers(b) & bb_bit(move_from(m))))
        return false;
    move_t moves[MAX_MOVES];
    return move_in(m, moves, gen_piece(b, move_from(m), occupied(b), capturing_squares(b), GEN_ALL, moves));
}

/* The king sees a corner: with the defenders to move it escapes. */
static bool king_sees_corner(const bdb_t *b)
{
    return b->king && (reach(bb_lsb(b->king), occupied(b)) & CORNERS);
}

/* The attackers must answer an open path from the king to a corner, as a
 * chess player answers check. */
static bool bdb_must_respond(const position_t *pos)
{
    const bdb_t *b = CP(pos);
    return b->stm == SIDE_ATT && !is_decided(b) && king_sees_corner(b);
}

static void bdb_make(position_t *pos, move_t m, undo_t *u);
static void bdb_unmake(position_t *pos, move_t m, const undo_t *u);

/* Does the king see a corner after the quiet move m (no capture)? Only the
 * moved piece changes the board: the king's square, or a line cleared. */
static bool sees_corner_after_quiet(const bdb_t *b, move_t m)
{
    assert(!(m & MOVE_CAPTURE));
    int from = move_from(m), to = move_to(m);
    bb64_t king = (b->king & bb_bit(from)) ? bb_bit(to) : b->king;
    if (!king || (king & CORNERS))
        return false;
    return reach(bb_lsb(king), occupied(b) ^ bb_bit(from) ^ bb_bit(to)) & CORNERS;
}

static bool made_sees_corner(const position_t *pos, move_t m)
{
    position_t after = *pos;
    undo_t u;
    bdb_make(&after, m, &u);
    return !is_decided(CP(&after)) && king_sees_corner(CP(&after));
}

/* must_respond after m: only a defenders' move can open a corner to the
 * king (it then is the attackers' turn). */
static bool bdb_gives_threat(const position_t *pos, move_t m)
{
    const bdb_t *b = CP(pos);
    if (b->stm != SIDE_DEF)
        return false;
    return (m & MOVE_CAPTURE) ? made_sees_corner(pos, m) : sees_corner_after_quiet(b, m);
}

static int bdb_gen_moves(const position_t *pos, move_t *moves) { return gen(CP(pos), moves, GEN_ALL); }
static int bdb_gen_quiet(const position_t *pos, move_t *moves) { return gen(CP(pos), moves, GEN_QUIET); }

/* Noisy moves; facing an open path to a corner, every answer instead: the
 * moves after which the king is taken or sees no corner (a capture can
 * open a path as well as a block close one, so each is tried). */
static int bdb_gen_noisy(const position_t *pos, move_t *moves)
{
    if (!bdb_must_respond(pos))
        return gen(CP(pos), moves, GEN_NOISY);
    move_t all[MAX_MOVES];
    int n = gen(CP(pos), all, GEN_ALL), out = 0;
    for (int i = 0; i < n; i++)
        if ((all[i] & MOVE_CAPTURE) ? !made_sees_corner(pos, all[i]) : !sees_corner_after_quiet(CP(pos), all[i]))
            moves[out++] = all[i];
    return out;
}

static int bdb_count_moves(const position_t *pos)
{
    const bdb_t *b = CP(pos);
    if (is_decided(b))
        return 0;
    bb64_t occ = occupied(b);
    int n = 0;
    for (bb64_t pcs = movers(b); pcs;)
        n += bb_popcount(targets(b, bb_pop(&pcs), occ));
    return n;
}

/* ---- make / unmake ---- */

static void toggle(bdb_t *b, int piece, int sq)
{
    bb64_t bit = bb_bit(sq);
    if (piece == PIECE_ATT) b->att ^= bit;
    else if (piece == PIECE_DEF) b->def ^= bit;
    else b->king ^= bit;
    b->hash ^= zobrist_piece[piece][sq];
}

static int piece_on(const bdb_t *b, int sq)
{
    bb64_t bit = bb_bit(sq);
    return (b->att & bit) ? PIECE_ATT : (b->def & bit) ? PIECE_DEF : (b->king & bit) ? PIECE_KING : -1;
}

static void bdb_make(position_t *pos, move_t m, undo_t *u)
{
    bdb_t *b = P(pos);
    u->w[0] = b->att;
    u->w[1] = b->def;
    u->w[2] = b->king;
    u->w[3] = b->hash;
    int from = move_from(m), to = move_to(m);
    int piece = piece_on(b, from);
    assert(piece >= 0 && piece_on(b, to) < 0);
    toggle(b, piece, from);
    toggle(b, piece, to);
    /* The generator flags captures: a quiet move needs no test. */
    bb64_t taken = (m & MOVE_CAPTURE) ? captures_at(b, b->stm, to) : 0;
    assert(taken == captures_at(b, b->stm, to));
    while (taken) {
        int sq = bb_pop(&taken);
        toggle(b, piece_on(b, sq), sq);
    }
    b->stm ^= 1;
    b->hash ^= zobrist_side;
}

static void bdb_unmake(position_t *pos, move_t m, const undo_t *u)
{
    (void)m;
    bdb_t *b = P(pos);
    b->att = u->w[0];
    b->def = u->w[1];
    b->king = u->w[2];
    b->hash = u->w[3];
    b->stm ^= 1;
}

/* Tafl has almost no positions where having to move hurts. */
static bool bdb_pass_turn(position_t *pos)
{
    bdb_t *b = P(pos);
    b->stm ^= 1;
    b->hash ^= zobrist_side;
    return true;
}

/* ---- state queries ---- */

static int bdb_to_move(const position_t *pos) { return CP(pos)->stm; }
static uint64_t bdb_hash(const position_t *pos) { return CP(pos)->hash; }

static bool bdb_decided(const position_t *pos, outcome_t *out)
{
    const bdb_t *b = CP(pos);
    if (!b->king) {
        *out = (outcome_t){OUTCOME_WIN, player_bit(SIDE_ATT), "king captured"};
        return true;
    }
    if (b->king & CORNERS) {
        *out = (outcome_t){OUTCOME_WIN, player_bit(SIDE_DEF), "king escaped"};
        return true;
    }
    return false;
}

static outcome_t bdb_outcome(const position_t *pos)
{
    outcome_t o;
    if (bdb_decided(pos, &o))
        return o;
    if (bdb_count_moves(pos) == 0)
        return (outcome_t){OUTCOME_DRAW, 3, "no legal move"};
    return (outcome_t){OUTCOME_NONE, 0, NULL};
}

/* ---- evaluation ---- */

/* Weights tuned by fixed-node self-play (commit a9386b7: each against the
 * set before it). ROUTE_SINGLE changed no game at 20,000 nodes (200 did
 * not): quiescence answers a king that sees a corner before it stands pat. */
enum {
    VAL_ATTACKER = 100,
    VAL_DEFENDER = 160, /* 200 lost 32 Elo: the defenders' men are worth less than the king's freedom */
    MOBILITY = 3,
    KING_MOBILITY = 8,
    ROUTE_NOW_DEF_TO_MOVE = 2000, /* king walks home next move */
    ROUTE_DOUBLE = 1200,          /* two open corners: one block is not enough */
    ROUTE_SINGLE = 120,           /* forces the attackers to block */
    ROUTE_TWO_MOVES = 50,
    KING_PRESSURE = 30,
    APPROACH_BLOCKED = 10,
    CORNER_GUARD = 10,
    KING_TO_CORNER = 25, /* per step nearer the nearest corner (Manhattan) */
    BESIDE_CORNER = 20,  /* an attacker next to a corner: one defender captures it */
};

/* Corners the king reaches in one move, and squares it reaches from which
 * a corner is one more move away. */
static void king_routes(const bdb_t *b, bb64_t occ, int *now, int *two)
{
    int k = bb_lsb(b->king);
    bb64_t r = targets(b, k, occ);
    *now = bb_popcount(r & CORNERS);
    *two = 0;
    for (bb64_t t = r & EDGES & ~CORNERS; t;) {
        int s = bb_pop(&t);
        if (reach(s, occ & ~b->king) & CORNERS)
            (*two)++;
    }
}

/* Approach lines to the corners whose first piece, walking out from the
 * corner along the edge, is an attacker: the king cannot use that line.
 * The first piece is the line's lowest or highest occupied square, as the
 * walk goes up (north, east: directions 0 and 2) or down. */
static int blocked_approaches(const bdb_t *b, bb64_t occ)
{
    int blocked = 0;
    for (int c = 0; c < 4; c++)
        for (int i = 0; i < 2; i++) {
            bb64_t on = occ & approach_lines[c][i];
            if (on) {
                int first = corner_dirs[c][i] % 2 == 0 ? bb_lsb(on) : bb_msb(on);
                blocked += (b->att >> first) & 1;
            }
        }
    return blocked;
}

static score_t bdb_evaluate(const position_t *pos, eval_trace_t *t)
{
    const bdb_t *b = CP(pos);
    bb64_t occ = occupied(b);
    int v_att = 0, v_def = 0;

    int mat_a = VAL_ATTACKER * bb_popcount(b->att), mat_d = VAL_DEFENDER * bb_popcount(b->def);
    eval_trace_add(t, "material", mat_a, mat_d);

    int mob_a = 0, mob_d = 0;
    for (bb64_t p = b->att; p;)
        mob_a += bb_popcount(targets(b, bb_pop(&p), occ));
    for (bb64_t p = b->def; p;)
        mob_d += bb_popcount(targets(b, bb_pop(&p), occ));
    eval_trace_add(t, "mobility", MOBILITY * mob_a, MOBILITY * mob_d);
    v_att += mat_a + MOBILITY * mob_a;
    v_def += mat_d + MOBILITY * mob_d;

    if (b->king) {
        int k = bb_lsb(b->king);
        int now, two;
        king_routes(b, occ, &now, &two);
        int route = ROUTE_TWO_MOVES * two;
        if (now >= 1 && b->stm == SIDE_DEF)
            route += ROUTE_NOW_DEF_TO_MOVE;
        else if (now >= 2)
            route += ROUTE_DOUBLE;
        else if (now == 1)
            route += ROUTE_SINGLE;
        int kmob = KING_MOBILITY * bb_popcount(targets(b, k, occ));
        eval_trace_add(t, "king routes", 0, route);
        eval_trace_add(t, "king mobility", 0, kmob);
        v_def += route + kmob;

        int near = 0;
        for (int d = 0; d < 4; d++) {
            int n = step(k, d);
            near += n >= 0 && (b->att & bb_bit(n));
        }
        eval_trace_add(t, "king pressure", KING_PRESSURE * near, 0);
        v_att += KING_PRESSURE * near;

        int f = sq_file(k), r = sq_rank(k);
        int to_corner = (f < 6 - f ? f : 6 - f) + (r < 6 - r ? r : 6 - r); /* 6 on the throne */
        int nearer = KING_TO_CORNER * (6 - to_corner);
        eval_trace_add(t, "king to corner", 0, nearer);
        v_def += nearer;
    }

    int guards = bb_popcount(b->att & CORNER_GUARDS);
    int blockade = APPROACH_BLOCKED * blocked_approaches(b, occ) + CORNER_GUARD * guards;
    eval_trace_add(t, "blockade", blockade, 0);
    v_att += blockade;
    int beside = -BESIDE_CORNER * bb_popcount(b->att & BESIDE_CORNERS);
    eval_trace_add(t, "beside a corner", beside, 0);
    v_att += beside;

    score_t s = (score_t)(v_att - v_def);
    return b->stm == SIDE_ATT ? s : -s;
}

/* ---- text ---- */

static void square_name(int sq, char *out)
{
    out[0] = (char)('a' + sq_file(sq));
    out[1] = (char)('1' + sq_rank(sq));
    out[2] = 0;
}

static void bdb_move_text(const position_t *pos, move_t m, char *buf, size_t len)
{
    (void)pos;
    char a[3], b[3];
    square_name(move_from(m), a);
    square_name(move_to(m), b);
    snprintf(buf, len, "%s%s", a, b);
}

static move_t bdb_parse_move(const position_t *pos, const char *text)
{
    return game_find_move(&brandubh_v1, pos, text);
}

static int bdb_move_key(move_t m) { return move_from(m) * N_SQ + move_to(m); }

static void rehash(bdb_t *b)
{
    b->hash = b->stm == SIDE_DEF ? zobrist_side : 0;
    for (int sq = 0; sq < N_SQ; sq++) {
        int pc = piece_on(b, sq);
        if (pc >= 0)
            b->hash ^= zobrist_piece[pc][sq];
    }
}

static void set_start(position_t *pos, int version)
{
    ensure_tables();
    memset(pos, 0, sizeof *pos);
    bdb_t *b = P(pos);
    static const int att[] = {3, 10, 21, 22, 26, 27, 38, 45};
    static const int def[] = {17, 23, 25, 31};
    for (int i = 0; i < 8; i++) b->att |= bb_bit(att[i]);
    for (int i = 0; i < 4; i++) b->def |= bb_bit(def[i]);
    b->king = THRONE;
    b->stm = SIDE_ATT;
    b->version = (uint8_t)version;
    rehash(b);
}

static void set_start_v1(position_t *pos) { set_start(pos, 1); }
static void set_start_v2(position_t *pos) { set_start(pos, 2); }

static bool parse_fen(position_t *pos, const char *fen, char *err, size_t errlen, int version)
{
    ensure_tables();
    memset(pos, 0, sizeof *pos);
    bdb_t *b = P(pos);
    b->version = (uint8_t)version;
    const char *c = fen;
    for (int r = 6; r >= 0; r--) {
        int f = 0;
        while (*c && *c != '/' && *c != ' ') {
            if (*c >= '1' && *c <= '7') {
                f += *c - '0';
            } else {
                if (f > 6)
                    return game_fail(err, errlen, "rank too long");
                bb64_t bit = bb_bit(r * 7 + f);
                if (*c == 'a') b->att |= bit;
                else if (*c == 'd') b->def |= bit;
                else if (*c == 'k') {
                    if (b->king)
                        return game_fail(err, errlen, "more than one king");
                    b->king = bit;
                } else
                    return game_fail(err, errlen, "unknown piece letter (expected a, d, k or 1-7)");
                f++;
            }
            if (f > 7)
                return game_fail(err, errlen, "rank too long");
            c++;
        }
        if (f != 7)
            return game_fail(err, errlen, "each rank must have 7 squares");
        if (r > 0) {
            if (*c != '/')
                return game_fail(err, errlen, "expected 7 ranks separated by '/'");
            c++;
        }
    }
    if (*c != ' ')
        return game_fail(err, errlen, "expected a space and the side to move");
    c++;
    if (*c == 'a') b->stm = SIDE_ATT;
    else if (*c == 'd') b->stm = SIDE_DEF;
    else return game_fail(err, errlen, "side to move must be 'a' or 'd'");
    if (c[1] != 0)
        return game_fail(err, errlen, "unexpected text after the side to move");
    if ((b->att | b->def) & (CORNERS | THRONE))
        return game_fail(err, errlen, "only the king may stand on the throne or a corner");
    if (bb_popcount(b->att) > 8 || bb_popcount(b->def) > 4)
        return game_fail(err, errlen, "too many pieces (at most 8 attackers and 4 defenders)");
    rehash(b);
    return true;
}

static bool parse_fen_v1(position_t *pos, const char *fen, char *err, size_t len)
{
    return parse_fen(pos, fen, err, len, 1);
}

static bool parse_fen_v2(position_t *pos, const char *fen, char *err, size_t len)
{
    return parse_fen(pos, fen, err, len, 2);
}

static char square_char(const bdb_t *b, int sq)
{
    switch (piece_on(b, sq)) {
    case PIECE_ATT: return 'a';
    case PIECE_DEF: return 'd';
    case PIECE_KING: return 'k';
    default: return 0;
    }
}

static void bdb_write_fen(const position_t *pos, char *buf, size_t len)
{
    const bdb_t *b = CP(pos);
    char out[GAME_FEN_MAX];
    size_t n = 0;
    for (int r = 6; r >= 0; r--) {
        char cells[7];
        for (int f = 0; f < 7; f++)
            cells[f] = square_char(b, r * 7 + f);
        fen_append_row(out, &n, cells, 7);
        if (r)
            out[n++] = '/';
    }
    out[n++] = ' ';
    out[n++] = b->stm == SIDE_ATT ? 'a' : 'd';
    out[n] = 0;
    snprintf(buf, len, "%s", out);
}

static void bdb_print_board(const position_t *pos, char *buf, size_t len, bool ansi)
{
    const bdb_t *b = CP(pos);
    size_t n = 0;
#define OUT(...) (n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
    for (int r = 6; r >= 0; r--) {
        OUT(" %d ", r + 1);
        for (int f = 0; f < 7; f++) {
            int sq = r * 7 + f;
            char ch = square_char(b, sq);
            bool special = (CORNERS | THRONE) & bb_bit(sq);
            if (!ch)
                OUT(" %c", special ? '+' : '.');
            else if (ansi)
                OUT(" %s%c\033[0m", ch == 'a' ? "\033[1;31m" : ch == 'k' ? "\033[1;33m" : "\033[1;37m", ch);
            else
                OUT(" %c", ch);
        }
        OUT("\n");
    }
    OUT("    a b c d e f g\n");
    OUT("%s to move (%s)\n", b->stm == SIDE_ATT ? "Attackers" : "Defenders",
        b->version == 2 ? "version 2" : "version 1");
#undef OUT
}

static const char *const bench_fens[] = {
    "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a",
    "3a3/1a5/3d3/a1dkd1a/3d1a1/3a3/7 d",
    "7/3a3/1a1d3/a1dkd1a/2d4/5a1/2a4 a",
    "2a4/7/a2d1a1/2dk2a/1d1d3/3a3/3a3 d",
    "3a3/7/1a5/a2kd1a/2d1d2/3a3/2a4 a",
    "7/2a1a2/3d3/a2k2a/1d1d3/a6/3a3 d",
    NULL,
};

#define BRANDUBH_GAME(var, vname, desc, version)                                                               \
    const game_t var = {                                                                                         \
        .name = vname,                                                                                           \
        .description = desc,                                                                                     \
        .players = 2,                                                                                            \
        .team_of = {0, 1},                                                                                       \
        .player_names = {"attackers", "defenders"},                                                              \
        .repetition_draw = true,                                                                                 \
        .move_keys = N_SQ * N_SQ,                                                                                \
        .bench_fens = bench_fens,                                                                                \
        .bench_depth = 9,                                                                                        \
        .set_start = set_start_##version,                                                                        \
        .parse_fen = parse_fen_##version,                                                                        \
        .write_fen = bdb_write_fen,                                                                              \
        .print_board = bdb_print_board,                                                                          \
        .to_move = bdb_to_move,                                                                                  \
        .hash = bdb_hash,                                                                                        \
        .pass_turn = bdb_pass_turn,                                                                              \
        .gen_moves = bdb_gen_moves,                                                                              \
        .gen_noisy = bdb_gen_noisy,                                                                              \
        .must_respond = bdb_must_respond,                                                                        \
        .gives_threat = bdb_gives_threat,                                                                        \
        .count_moves = bdb_count_moves,                                                                          \
        .move_legal = bdb_move_legal,                                                                            \
        .gen_quiet = bdb_gen_quiet,                                                                              \
        .make = bdb_make,                                                                                        \
        .unmake = bdb_unmake,                                                                                    \
        .decided = bdb_decided,                                                                                  \
        .outcome = bdb_outcome,                                                                                  \
        .evaluate = bdb_evaluate,                                                                                \
        .move_text = bdb_move_text,                                                                              \
        .parse_move = bdb_parse_move,                                                                            \
        .move_key = bdb_move_key,                                                                                \
        .chance_outcomes = NULL,                                                                                 \
        .view_board = bdb_view_board,                                                                            \
        .view_position = bdb_view_position,                                                                      \
        .view_move = bdb_view_move,                                                                              \
    }

BRANDUBH_GAME(brandubh_v1, "brandubh", "Brandubh, 7x7 tafl, version 1", v1);
BRANDUBH_GAME(brandubh_v2, "brandubh-v2", "Brandubh, 7x7 tafl, version 2", v2);
