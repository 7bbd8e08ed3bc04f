/*
 * brandubh_rules.c: the rules of both Brandubh versions: the board's
 * tables, captures (men and king), moves, make/unmake, the end of the
 * game. May not reach into the evaluation or the text.
 */
#include "brandubh_rules.h"

#include <assert.h>
#include <string.h>

#include "../../core/rng.h"
#include "../../core/thread.h"

int8_t brandubh_neighbour[N_SQ][4]; /* step(sq, dir) */
bb64_t brandubh_approach_lines[4][2]; /* each corner's two edges, without the corner */
bb64_t brandubh_rank_reach[N_SQ][128];
bb64_t brandubh_file_reach[N_SQ][128];
uint8_t brandubh_rank_shift[N_SQ], brandubh_file_of[N_SQ];
bb64_t brandubh_lines_through[N_SQ];
uint64_t brandubh_zobrist_piece[3][N_SQ];
uint64_t brandubh_zobrist_side;
static thr_once_t tables_once = THR_ONCE_INIT;

/* A capture's flags: it takes a piece off (no repetition across it), and
 * the picker and quiescence list it among the noisy moves. */
static const move_t CAPTURE_FLAGS = MOVE_CAPTURE | MOVE_IRREVERSIBLE | MOVE_NOISY;

/* ---- geometry ---- */

static bb64_t shift_north(bb64_t b) { return (b << 7) & BOARD_MASK; }
static bb64_t shift_south(bb64_t b) { return b >> 7; }
static bb64_t shift_east(bb64_t b) { return (b & ~FILE_G_MASK) << 1; }
static bb64_t shift_west(bb64_t b) { return (b & ~FILE_A_MASK) >> 1; }

/* Squares one step away in each direction: north, south, east, west;
 * -1 off the board. Computed once into brandubh_neighbour[], which step() reads. */
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
            brandubh_neighbour[sq][d] = (int8_t)step_on_board(sq, d);
    for (int c = 0; c < 4; c++)
        for (int i = 0; i < 2; i++)
            for (int sq = step_on_board(corner_sq[c], corner_dirs[c][i]); sq >= 0;
                 sq = step_on_board(sq, corner_dirs[c][i]))
                brandubh_approach_lines[c][i] |= bb_bit(sq);
    for (int sq = 0; sq < N_SQ; sq++) {
        int f = sq_file(sq), r = sq_rank(sq);
        brandubh_rank_shift[sq] = (uint8_t)(r * 7);
        brandubh_file_of[sq] = (uint8_t)f;
        brandubh_lines_through[sq] = (RANK_1_MASK << (r * 7)) | (FILE_A_MASK << f);
        for (int occ = 0; occ < 128; occ++) {
            bb64_t rr = 0, fr = 0;
            for (int x = f + 1; x < 7 && !(occ >> x & 1); x++) rr |= bb_bit(r * 7 + x);
            for (int x = f - 1; x >= 0 && !(occ >> x & 1); x--) rr |= bb_bit(r * 7 + x);
            for (int y = r + 1; y < 7 && !(occ >> y & 1); y++) fr |= bb_bit(y * 7 + f);
            for (int y = r - 1; y >= 0 && !(occ >> y & 1); y--) fr |= bb_bit(y * 7 + f);
            brandubh_rank_reach[sq][occ] = rr;
            brandubh_file_reach[sq][occ] = fr;
        }
    }
    rng_t rng = {0xB8A2D0B0u};
    for (int pc = 0; pc < 3; pc++)
        for (int sq = 0; sq < N_SQ; sq++)
            brandubh_zobrist_piece[pc][sq] = rng_next(&rng);
    brandubh_zobrist_side = rng_next(&rng);
}

void brandubh_tables_ensure(void)
{
    thr_once(&tables_once, init_tables);
    brandubh_net_ensure();
}

/* ---- captures ---- */

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
    /* Version 2: on the throne or beside it (never on an edge), the king
     * falls to attackers on all its other sides, the throne being one. */
    if (b->version == 2 && (b->king & (THRONE | shift_north(THRONE) | shift_south(THRONE) | shift_east(THRONE) |
                                       shift_west(THRONE)))) {
        bb64_t sides = shift_north(b->king) | shift_south(b->king) | shift_east(b->king) | shift_west(b->king);
        return !(sides & ~THRONE & ~att);
    }
    int far = step(bb_lsb(b->king), dir);
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
        int n = brandubh_neighbour[to][d];
        if (n < 0)
            continue;
        int far = brandubh_neighbour[n][d];
        if ((victims & bb_bit(n)) && far >= 0 && (a & bb_bit(far)))
            taken |= bb_bit(n);
        if (side == SIDE_ATT && (b->king & bb_bit(n)) && king_taken_from(b, b->att, d))
            taken |= bb_bit(n);
    }
    return taken;
}

/* ---- move generation ---- */

static bool is_decided(const bdb_t *b) { return !b->king || (b->king & CORNERS); }

static bb64_t movers(const bdb_t *b) { return b->stm == SIDE_ATT ? b->att : b->def | b->king; }

/* The squares where a piece of the side to move captures on arrival. */
static bb64_t capturing_squares(const bdb_t *b)
{
    bb64_t capturing = man_capture_squares(b, b->stm);
    if (b->stm == SIDE_ATT)
        capturing |= king_capture_squares(b);
    return capturing;
}

/* The moves of the piece on `from`, flagged. A king's move to a square
 * that sees a corner threatens to win at once: forcing, as a chess check,
 * so that quiescence follows the answers and sees a king that reaches two
 * corners at once (issue 33's brandubh-v2 games). */
static int gen_piece(const bdb_t *b, int from, bb64_t occ, bb64_t capturing, gen_part_t part, move_t *moves)
{
    int n = 0;
    bb64_t t = targets(b, from, occ);
    bool king = b->king & bb_bit(from);
    bb64_t wins = king ? t & CORNERS : 0;
    /* Only an edge square sees a corner. */
    bb64_t threats = king && (t & EDGES & ~(CORNERS | capturing))
                         ? t & ~(CORNERS | capturing) & corner_lines(occ & ~b->king)
                         : 0;
    bb64_t noisy = capturing | wins | threats;
    if (part == GEN_NOISY)
        t &= noisy;
    else if (part == GEN_QUIET)
        t &= ~noisy;
    while (t) {
        int to = bb_pop(&t);
        move_t m = encode(from, to);
        if (noisy & bb_bit(to)) {
            if (capturing & bb_bit(to))
                m |= CAPTURE_FLAGS;
            if (wins & bb_bit(to))
                m |= MOVE_NOISY;
            if (threats & bb_bit(to))
                m |= MOVE_NOISY | MOVE_FORCING;
        }
        moves[n++] = m;
    }
    return n;
}

/* The moves of the man on `from` to its targets t, as gen_piece lists
 * them: a man's only noisy moves are its captures, so each part is one
 * flag for all but GEN_ALL's (most pieces at most nodes are men). */
static int gen_man(int from, bb64_t t, bb64_t capturing, gen_part_t part, move_t *moves)
{
    int n = 0;
    if (part == GEN_ALL) {
        while (t) {
            int to = bb_pop(&t);
            moves[n++] = encode(from, to) | ((capturing & bb_bit(to)) ? CAPTURE_FLAGS : 0);
        }
        return n;
    }
    move_t flags = part == GEN_NOISY ? CAPTURE_FLAGS : 0;
    for (t &= part == GEN_NOISY ? capturing : ~capturing; t;)
        moves[n++] = encode(from, bb_pop(&t)) | flags;
    return n;
}

static int gen(const bdb_t *b, move_t *moves, gen_part_t part)
{
    if (is_decided(b))
        return 0;
    bb64_t occ = occupied(b), capturing = capturing_squares(b), pcs = movers(b);
    /* Without a capture only the king has noisy moves (to a corner, or
     * to a square that sees one). */
    if (part == GEN_NOISY && !capturing)
        pcs &= b->king;
    int n = 0;
    /* A man's noisy moves are its captures: one in line with none has none. */
    bb64_t men_land = part == GEN_NOISY ? capturing : ~(bb64_t)0;
    while (pcs) {
        int from = bb_pop(&pcs);
        if (b->king & bb_bit(from))
            n += gen_piece(b, from, occ, capturing, part, moves + n);
        else if (brandubh_lines_through[from] & men_land)
            n += gen_man(from, targets(b, from, occ), capturing, part, moves + n);
    }
    return n;
}

/* Found without listing the piece's moves: the square must be one of its
 * targets, and the flags those gen_piece gives it, from the tests of that
 * square alone (the search asks this of the table's move and the killers
 * at every node). */
bool bdb_move_legal(const position_t *pos, move_t m)
{
    const bdb_t *b = CP(pos);
    int from = move_from(m), to = move_to(m);
    if (is_decided(b) || (MOVE_BODY(m) >> 12) || !(movers(b) & bb_bit(from)))
        return false;
    bb64_t occ = occupied(b), t = targets(b, from, occ);
    if (!(t & bb_bit(to)))
        return false;
    move_t want = encode(from, to);
    /* Capturing: a man sandwiched, or (attackers) the king taken; the king
     * test only beside the king. */
    bb64_t capturing = man_capture_squares(b, b->stm) & bb_bit(to);
    if (b->stm == SIDE_ATT && !capturing && b->king && (brandubh_lines_through[to] & b->king) &&
        (king_capture_squares(b) & bb_bit(to)))
        capturing = bb_bit(to);
    if (capturing)
        want |= CAPTURE_FLAGS;
    if (b->king & bb_bit(from)) {
        if (CORNERS & bb_bit(to))
            want |= MOVE_NOISY;
        else if (!capturing && (EDGES & bb_bit(to)) && (corner_lines(occ & ~b->king) & bb_bit(to)))
            want |= MOVE_NOISY | MOVE_FORCING;
    }
#ifndef NDEBUG
    move_t moves[MAX_MOVES];
    assert((m == want) ==
           move_in(m, moves, gen_piece(b, from, occ, capturing_squares(b), GEN_ALL, moves)));
#endif
    return m == want;
}

/* The boards of b after the move m of the side to move, with its
 * captures; the hash and the side to move stay as they were. */
static void play_boards(bdb_t *b, move_t m)
{
    int from = move_from(m), to = move_to(m);
    bb64_t moved = bb_bit(from) | bb_bit(to);
    if (b->att & bb_bit(from)) b->att ^= moved;
    else if (b->def & bb_bit(from)) b->def ^= moved;
    else b->king ^= moved;
    bb64_t taken = (m & MOVE_CAPTURE) ? captures_at(b, b->stm, to) : 0;
    b->att &= ~taken;
    b->def &= ~taken;
    b->king &= ~taken;
}

/* The king sees a corner: with the defenders to move it escapes. */
static bool king_sees_corner(const bdb_t *b)
{
    return (b->king & EDGES) && (reach(bb_lsb(b->king), occupied(b)) & CORNERS);
}

/* The attackers must answer an open path from the king to a corner, as a
 * chess player answers check. */
bool bdb_must_respond(const position_t *pos)
{
    const bdb_t *b = CP(pos);
    return b->stm == SIDE_ATT && !is_decided(b) && king_sees_corner(b);
}

/* Does the king see a corner after the quiet move m (no capture)? Only the
 * moved piece changes the board: the king's square, or a line cleared. */
static bool sees_corner_after_quiet(const bdb_t *b, move_t m)
{
    assert(!(m & MOVE_CAPTURE));
    int from = move_from(m), to = move_to(m);
    bb64_t king = (b->king & bb_bit(from)) ? bb_bit(to) : b->king;
    if (!(king & EDGES) || (king & CORNERS)) /* off the edges no line leads to a corner */
        return false;
    return reach(bb_lsb(king), occupied(b) ^ bb_bit(from) ^ bb_bit(to)) & CORNERS;
}

/* Does the king see a corner after the move m (any move), the game going
 * on? Played on a copy of the boards alone (no hash): this runs for every
 * capture that answers a king on an open line. */
static bool made_sees_corner(const position_t *pos, move_t m)
{
    bdb_t after = *CP(pos);
    play_boards(&after, m);
    return !is_decided(&after) && king_sees_corner(&after);
}

/* must_respond after m: only a defenders' move can open a corner to the
 * king (it then is the attackers' turn). */
bool bdb_gives_threat(const position_t *pos, move_t m)
{
    const bdb_t *b = CP(pos);
    if (b->stm != SIDE_DEF)
        return false;
    return (m & MOVE_CAPTURE) ? made_sees_corner(pos, m) : sees_corner_after_quiet(b, m);
}

int bdb_gen_moves(const position_t *pos, move_t *moves) { return gen(CP(pos), moves, GEN_ALL); }
int bdb_gen_quiet(const position_t *pos, move_t *moves) { return gen(CP(pos), moves, GEN_QUIET); }

#ifndef NDEBUG
/* The answers to an open path, from every move: bdb_gen_noisy's check. */
static int answers_by_all_moves(const position_t *pos, move_t *out)
{
    move_t all[MAX_MOVES];
    int n = gen(CP(pos), all, GEN_ALL), k = 0;
    for (int i = 0; i < n; i++)
        if ((all[i] & MOVE_CAPTURE) ? !made_sees_corner(pos, all[i]) : !sees_corner_after_quiet(CP(pos), all[i]))
            out[k++] = all[i];
    return k;
}
#endif

/* Noisy moves; facing an open path to a corner, every answer instead: the
 * moves after which the king is taken or sees no corner (a capture can
 * open a path as well as a block close one, so each is tried). The king,
 * on the edge, does not move, so an answer lands on a square the king
 * reaches: a block lands on its path, and a capture of the king beside it
 * (taking a man elsewhere only opens lines). Only the moves landing there
 * are listed and tried, in gen_moves' order and with its flags. */
int bdb_gen_noisy(const position_t *pos, move_t *moves)
{
    if (!bdb_must_respond(pos))
        return gen(CP(pos), moves, GEN_NOISY);
    const bdb_t *b = CP(pos);
    assert(b->stm == SIDE_ATT);
    bb64_t occ = occupied(b), capturing = capturing_squares(b), land = reach(bb_lsb(b->king), occ);
    move_t cand[MAX_MOVES];
    int n = 0, out = 0;
    for (bb64_t pcs = b->att; pcs;) {
        int from = bb_pop(&pcs);
        n += gen_man(from, targets(b, from, occ) & land, capturing, GEN_ALL, cand + n);
    }
    for (int i = 0; i < n; i++)
        if ((cand[i] & MOVE_CAPTURE) ? !made_sees_corner(pos, cand[i]) : !sees_corner_after_quiet(b, cand[i]))
            moves[out++] = cand[i];
#ifndef NDEBUG
    move_t all[MAX_MOVES];
    assert(out == answers_by_all_moves(pos, all) && !memcmp(all, moves, (size_t)out * sizeof *moves));
#endif
    return out;
}

int bdb_count_moves(const position_t *pos)
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
    b->hash ^= brandubh_zobrist_piece[piece][sq];
}

/* The cached first layer follows the move: the mover's row off its old
 * square and onto the new, each captured man's off. */
static void net_follow(bdb_t *b, int piece, int from, int to, bb64_t taken)
{
    const nnue_t *n = b->acc_net;
    nnue_acc_sub(n, &b->acc, bdb_net_feature(piece, from));
    nnue_acc_add(n, &b->acc, bdb_net_feature(piece, to));
    while (taken) {
        int sq = bb_pop(&taken);
        nnue_acc_sub(n, &b->acc, bdb_net_feature(piece_on(b, sq), sq));
    }
}

void bdb_make(position_t *pos, move_t m, undo_t *u)
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
    if (b->acc_net) {
        memcpy(&u->w[BDB_UNDO_ACC], &b->acc, sizeof b->acc);
        net_follow(b, piece, from, to, taken);
    }
    while (taken) {
        int sq = bb_pop(&taken);
        toggle(b, piece_on(b, sq), sq);
    }
    b->stm ^= 1;
    b->hash ^= brandubh_zobrist_side;
}

void bdb_unmake(position_t *pos, move_t m, const undo_t *u)
{
    (void)m;
    bdb_t *b = P(pos);
    b->att = u->w[0];
    b->def = u->w[1];
    b->king = u->w[2];
    b->hash = u->w[3];
    b->stm ^= 1;
    if (b->acc_net)
        memcpy(&b->acc, &u->w[BDB_UNDO_ACC], sizeof b->acc);
}

/* The king reaches, in one move, a corner or a square that sees one. */
static bool king_near_home(const bdb_t *b)
{
    if (!b->king)
        return false;
    bb64_t occ = occupied(b);
    return targets(b, bb_lsb(b->king), occ) & (CORNERS | corner_lines(occ & ~b->king));
}

/* Tafl has almost no positions where having to move hurts. But a pass
 * tests nothing while the king is two moves from a corner: the defenders'
 * quiet king moves then build threats (two corners at once) deeper than
 * the pass's reduced search sees, and the attackers' pass would cut off
 * the line that answers them (the brandubh-v2 games of issue 33). */
bool bdb_pass_turn(position_t *pos)
{
    bdb_t *b = P(pos);
    if (b->stm == SIDE_ATT && king_near_home(b))
        return false;
    b->stm ^= 1;
    b->hash ^= brandubh_zobrist_side;
    return true;
}

/* ---- state queries ---- */

int bdb_to_move(const position_t *pos) { return CP(pos)->stm; }
uint64_t bdb_hash(const position_t *pos) { return CP(pos)->hash; }

bool bdb_decided(const position_t *pos, outcome_t *out)
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

outcome_t bdb_outcome(const position_t *pos)
{
    outcome_t o;
    if (bdb_decided(pos, &o))
        return o;
    if (bdb_count_moves(pos) == 0)
        return (outcome_t){OUTCOME_DRAW, 3, "no legal move"};
    return (outcome_t){OUTCOME_NONE, 0, NULL};
}

