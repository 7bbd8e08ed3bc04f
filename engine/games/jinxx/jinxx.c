/*
 * jinxx.c: Jinxx on nine-bit cell masks.
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
#include "jinxx.h"
#include "jinxx_view.h"

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/number.h"
#include "../../core/rng.h"

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

static uint16_t adjacent[9];
static uint64_t zobrist_occ[MAX_PLAYERS][3][9], zobrist_tree[MAX_PLAYERS][3][4], zobrist_die[7];
static uint64_t zobrist_stm[MAX_PLAYERS], zobrist_counter[DRAW_TURNS + 1], zobrist_out[MAX_PLAYERS];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static jinxx_t *P(position_t *p) { return (jinxx_t *)p->bytes; }
static const jinxx_t *CP(const position_t *p) { return (const jinxx_t *)p->bytes; }

static void init_tables(void)
{
    for (int c = 0; c < 9; c++) {
        int r = c / 3, f = c % 3;
        adjacent[c] = (uint16_t)((r > 0 ? 1u << (c - 3) : 0) | (r < 2 ? 1u << (c + 3) : 0) |
                                 (f > 0 ? 1u << (c - 1) : 0) | (f < 2 ? 1u << (c + 1) : 0));
    }
    rng_t rng = {0x71A77u};
    for (int p = 0; p < MAX_PLAYERS; p++) {
        for (int s = 0; s < 3; s++)
            for (int c = 0; c < 9; c++)
                zobrist_occ[p][s][c] = rng_next(&rng);
        for (int k = 0; k < 3; k++)
            for (int n = 0; n < 4; n++)
                zobrist_tree[p][k][n] = rng_next(&rng);
        zobrist_stm[p] = rng_next(&rng);
        zobrist_out[p] = rng_next(&rng);
    }
    for (int d = 0; d < 7; d++)
        zobrist_die[d] = rng_next(&rng);
    for (int n = 0; n <= DRAW_TURNS; n++)
        zobrist_counter[n] = rng_next(&rng);
}

static void ensure_tables(void) { pthread_once(&tables_once, init_tables); }

static int seat_of(const jinxx_t *b, int p) { return b->players == 2 ? 2 * p : p; }
static int popcount9(unsigned m) { return __builtin_popcount(m); }
/* A tree of n pyramids holds size s when n >= 3 - s (L from 1, M from 2, S at 3). */
static bool tree_has(int n, int s) { return n >= 3 - s; }

/* Cells where a pyramid of size s may land: nothing smaller stands there. */
static unsigned landable(const jinxx_t *b, int s)
{
    unsigned smaller = 0;
    for (int t = 0; t < s; t++)
        smaller |= b->sizes[t];
    return ~smaller & ALL_CELLS;
}

/* Cells whose top pyramid belongs to p. */
static unsigned tops(const jinxx_t *b, int p)
{
    return b->occ[p][SZ_S] | (b->occ[p][SZ_M] & ~b->sizes[SZ_S]) |
           (b->occ[p][SZ_L] & ~(b->sizes[SZ_S] | b->sizes[SZ_M]));
}

static bool holds_line(const jinxx_t *b, int p)
{
    unsigned t = tops(b, p);
    for (int l = 0; l < 4; l++)
        if ((t & lines[l]) == lines[l])
            return true;
    return false;
}

static int pyramids_of(const jinxx_t *b, int p)
{
    int n = b->tree[p][0] + b->tree[p][1] + b->tree[p][2];
    for (int s = 0; s < 3; s++)
        n += popcount9(b->occ[p][s]);
    return n;
}

static bool in_game(const jinxx_t *b, int p) { return !(b->out & (1u << p)); }

/* ---- moves ---- */

enum { K_ROLL = 1, K_BOARD, K_TREE, K_REROLL, K_PASS };

/* kind | face << 3 | size << 6 | from (cell or tree) << 8 | to << 12 */
static move_t encode(int kind, int face, int size, int from, int to)
{
    return (move_t)(kind | face << 3 | size << 6 | from << 8 | to << 12);
}
static int m_kind(move_t m) { return (int)(m & 7); }
static int m_face(move_t m) { return (int)(m >> 3 & 7); }
static int m_size(move_t m) { return (int)(m >> 6 & 3); }
static int m_from(move_t m) { return (int)(m >> 8 & 15); }
static int m_to(move_t m) { return (int)(m >> 12 & 15); }

/* A destruction removes material for good: the move is noisy, and like an
 * entry it resets the draw counter (no earlier position can recur). */
static move_t flags(const jinxx_t *b, int size, int to, bool entry)
{
    bool destroys = (b->sizes[size] >> to) & 1;
    return (destroys ? MOVE_CAPTURE | MOVE_NOISY : 0) | (destroys || entry ? MOVE_IRREVERSIBLE : 0);
}

/* Board moves of player p's pyramids of the sizes in `sizes`. */
static int gen_board(const jinxx_t *b, int p, unsigned sizes, move_t *moves)
{
    int n = 0;
    for (int s = 0; s < 3; s++) {
        if (!(sizes & (1u << s)))
            continue;
        unsigned land = landable(b, s);
        for (unsigned from = b->occ[p][s]; from; from &= from - 1) {
            int c = __builtin_ctz(from);
            for (unsigned to = adjacent[c] & land; to; to &= to - 1) {
                int t = __builtin_ctz(to);
                moves[n++] = encode(K_BOARD, 0, s, c, t) | flags(b, s, t, false);
            }
        }
    }
    return n;
}

static int gen_trees(const jinxx_t *b, int p, unsigned sizes, move_t *moves)
{
    int n = 0, seat = seat_of(b, p);
    for (int k = 0; k < 3; k++)
        for (int s = 0; s < 3; s++) {
            int t = edge_cell[seat][k];
            if ((sizes & (1u << s)) && tree_has(b->tree[p][k], s) && ((landable(b, s) >> t) & 1))
                moves[n++] = encode(K_TREE, 0, s, k, t) | flags(b, s, t, true);
        }
    return n;
}

static int gen_own(const jinxx_t *b, int p, unsigned sizes, move_t *moves)
{
    int n = gen_board(b, p, sizes, moves);
    return n + gen_trees(b, p, sizes, moves + n);
}

static bool is_over(const jinxx_t *b);

static int jinxx_gen_moves(const position_t *pos, move_t *moves)
{
    const jinxx_t *b = CP(pos);
    if (is_over(b))
        return 0;
    if (b->die == 0) {
        for (int f = 0; f < 6; f++)
            moves[f] = encode(K_ROLL, f, 0, 0, 0);
        return 6;
    }
    unsigned sizes = face_sizes[b->die - 1];
    int n = gen_own(b, b->stm, sizes, moves);
    if (n > 0)
        return n; /* settled point 1: the face's own moves are compulsory */
    /* Settled points 2-4: another player's pyramid on the board, or a
     * reroll when some face would give an own move; else pass. */
    move_t any[MAX_MOVES];
    bool reroll = gen_own(b, b->stm, 7, any) > 0;
    for (int p = 0; p < b->players; p++)
        if (p != b->stm && in_game(b, p))
            n += gen_board(b, p, sizes, moves + n);
    if (reroll)
        moves[n++] = encode(K_REROLL, 0, 0, 0, 0);
    if (n == 0)
        moves[n++] = encode(K_PASS, 0, 0, 0, 0);
    return n;
}

/* Quiescence looks at destructions only; a roll or a quiet move is never
 * noisy (the searcher stands pat at chance nodes). */
static int jinxx_gen_noisy(const position_t *pos, move_t *moves)
{
    const jinxx_t *b = CP(pos);
    if (b->die == 0)
        return 0;
    move_t all[MAX_MOVES];
    int n = jinxx_gen_moves(pos, all), k = 0;
    for (int i = 0; i < n; i++)
        if (all[i] & MOVE_NOISY)
            moves[k++] = all[i];
    return k;
}

static int jinxx_count_moves(const position_t *pos)
{
    move_t moves[MAX_MOVES];
    return jinxx_gen_moves(pos, moves);
}

static int jinxx_chance_outcomes(const position_t *pos, move_t *moves, int *weights)
{
    const jinxx_t *b = CP(pos);
    if (b->die != 0 || is_over(b))
        return 0;
    for (int f = 0; f < 6; f++) {
        moves[f] = encode(K_ROLL, f, 0, 0, 0);
        weights[f] = 1;
    }
    return 6;
}

/* ---- make / unmake ---- */

static void toggle(jinxx_t *b, int p, int s, int c)
{
    b->occ[p][s] ^= (uint16_t)(1u << c);
    b->sizes[s] ^= (uint16_t)(1u << c);
    b->hash ^= zobrist_occ[p][s][c];
}

static void set_tree(jinxx_t *b, int p, int k, int n)
{
    b->hash ^= zobrist_tree[p][k][b->tree[p][k]] ^ zobrist_tree[p][k][n];
    b->tree[p][k] = (uint8_t)n;
}

static void set_die(jinxx_t *b, int d)
{
    b->hash ^= zobrist_die[b->die] ^ zobrist_die[d];
    b->die = (uint8_t)d;
}

static void set_counter(jinxx_t *b, int n)
{
    b->hash ^= zobrist_counter[b->counter] ^ zobrist_counter[n];
    b->counter = (uint8_t)n;
}

static int owner_of(const jinxx_t *b, int s, int c)
{
    for (int p = 0; p < b->players; p++)
        if ((b->occ[p][s] >> c) & 1)
            return p;
    assert(!"no pyramid there");
    return 0;
}

/* Removes the pyramid of size s on cell t, if any; returns its owner or -1. */
static int destroy_at(jinxx_t *b, int s, int t)
{
    if (!((b->sizes[s] >> t) & 1))
        return -1;
    int d = owner_of(b, s, t);
    toggle(b, d, s, t);
    return d;
}

/* Settled point 7: both remaining pyramids go; what stood on them settles
 * by itself, since a stack is only the sizes on its cell. */
static void vaporize(jinxx_t *b, int p)
{
    for (int s = 0; s < 3; s++)
        for (unsigned m = b->occ[p][s]; m; m &= m - 1)
            toggle(b, p, s, __builtin_ctz(m));
    for (int k = 0; k < 3; k++)
        set_tree(b, p, k, 0);
    b->out |= (uint8_t)(1u << p);
    b->hash ^= zobrist_out[p];
}

static int next_player(const jinxx_t *b)
{
    for (int k = 1; k <= b->players; k++) {
        int q = (b->stm + k) % b->players;
        if (in_game(b, q))
            return q;
    }
    return b->stm;
}

static int winner_by_line(const jinxx_t *b)
{
    for (int k = 0; k < b->players; k++) {
        int q = (b->stm + k) % b->players;
        if (in_game(b, q) && holds_line(b, q))
            return q;
    }
    return -1;
}

static bool is_over(const jinxx_t *b)
{
    return winner_by_line(b) >= 0 || popcount9(b->out) == b->players - 1 || b->counter >= DRAW_TURNS;
}

/* Settled point 6: destruction, vaporization, lines, last player, counter.
 * A move that ends the game leaves the turn with its maker. */
static void end_turn(jinxx_t *b, int destroyed_owner, bool reset)
{
    if (destroyed_owner >= 0 && pyramids_of(b, destroyed_owner) == 2)
        vaporize(b, destroyed_owner);
    if (winner_by_line(b) >= 0 || popcount9(b->out) == b->players - 1)
        return;
    set_counter(b, reset ? 0 : b->counter + 1);
    if (b->counter >= DRAW_TURNS)
        return;
    int next = next_player(b);
    b->hash ^= zobrist_stm[b->stm] ^ zobrist_stm[next];
    b->stm = (uint8_t)next;
    set_die(b, 0);
}

static void play(jinxx_t *b, move_t m)
{
    int s = m_size(m), t = m_to(m), p = b->stm;
    switch (m_kind(m)) {
    case K_ROLL:
        set_die(b, m_face(m) + 1);
        return;
    case K_REROLL:
        set_die(b, 0);
        return;
    case K_PASS:
        end_turn(b, -1, false);
        return;
    case K_BOARD: {
        int c = m_from(m);
        int d = destroy_at(b, s, t);
        for (int q = 0; q <= s; q++) /* the pyramid and all smaller above it */
            if ((b->sizes[q] >> c) & 1) {
                int o = owner_of(b, q, c);
                toggle(b, o, q, c);
                toggle(b, o, q, t);
            }
        end_turn(b, d, d >= 0);
        return;
    }
    default: {
        int k = m_from(m), n = b->tree[p][k];
        int d = destroy_at(b, s, t);
        for (int q = 0; q <= s; q++)
            if (tree_has(n, q))
                toggle(b, p, q, t);
        set_tree(b, p, k, 2 - s); /* the larger pyramids stay */
        end_turn(b, d, true);
        return;
    }
    }
}

static void jinxx_make(position_t *pos, move_t m, undo_t *u)
{
    memcpy(u->w, P(pos), sizeof(jinxx_t));
    play(P(pos), m);
}

static void jinxx_unmake(position_t *pos, move_t m, const undo_t *u)
{
    (void)m;
    memcpy(P(pos), u->w, sizeof(jinxx_t));
}

static void jinxx_hand_turn(position_t *pos, int player)
{
    jinxx_t *b = P(pos);
    assert(in_game(b, player));
    b->hash ^= zobrist_stm[b->stm] ^ zobrist_stm[player];
    b->stm = (uint8_t)player;
    set_die(b, 0);
}

/* ---- state ---- */

static int jinxx_to_move(const position_t *pos) { return CP(pos)->stm; }
static uint64_t jinxx_hash(const position_t *pos) { return CP(pos)->hash; }

static player_mask_t jinxx_players_in(const position_t *pos)
{
    const jinxx_t *b = CP(pos);
    return (player_mask_t)(((1u << b->players) - 1) & ~b->out);
}

static bool jinxx_decided(const position_t *pos, outcome_t *out)
{
    const jinxx_t *b = CP(pos);
    int w = winner_by_line(b);
    if (w >= 0) {
        *out = (outcome_t){OUTCOME_WIN, player_bit(w), "line held"};
        return true;
    }
    if (popcount9(b->out) == b->players - 1) {
        *out = (outcome_t){OUTCOME_WIN, jinxx_players_in(pos), "the others vaporized"};
        return true;
    }
    if (b->counter >= DRAW_TURNS) {
        *out = (outcome_t){OUTCOME_DRAW, jinxx_players_in(pos), "sixty turns without destruction or entry"};
        return true;
    }
    return false;
}

static outcome_t jinxx_outcome(const position_t *pos)
{
    outcome_t o;
    if (jinxx_decided(pos, &o))
        return o;
    return (outcome_t){OUTCOME_NONE, 0, NULL};
}

/* ---- evaluation ---- */

enum {
    EV_CENTRE = 40,       /* the centre top: every line runs through it */
    EV_LINE_TWO = 70,     /* two of a line's three tops, the third open to us */
    EV_LINE_ONE = 10,
    EV_PYRAMID = 12,      /* each pyramid kept */
    EV_DANGER = 120,      /* each pyramid fewer than five: vaporization nears */
    EV_STRIKE = 25,       /* a top of ours that can destroy an enemy top now */
    EV_EXPOSED = 15,      /* a top of ours an enemy top can destroy */
    EV_WIN_ODDS = 120,    /* the next roller: times the faces (of six) that complete a line */
};

/* The sizes with which player p could complete a line on its next move: a
 * top pyramid of p's, from outside the line, or one from p's tree, landing
 * on the line's one cell whose top is not p's. */
static unsigned line_sizes(const jinxx_t *b, int p, unsigned mine)
{
    unsigned sizes = 0;
    for (int l = 0; l < 4; l++) {
        unsigned missing = lines[l] & ~mine;
        if (popcount9(missing) != 1)
            continue;
        int c = __builtin_ctz(missing);
        for (int s = 0; s < 3; s++) {
            if (!((landable(b, s) >> c) & 1))
                continue;
            unsigned from = mine & b->occ[p][s] & adjacent[c] & ~lines[l];
            bool tree = false;
            for (int k = 0; k < 3; k++)
                tree |= edge_cell[seat_of(b, p)][k] == c && tree_has(b->tree[p][k], s);
            if (from || tree)
                sizes |= 1u << s;
        }
    }
    return sizes;
}

static int next_player(const jinxx_t *b);

/* The player whose roll comes next: the player to move before its roll,
 * the next one after it. */
static int next_roller(const jinxx_t *b) { return b->die == 0 ? b->stm : next_player(b); }

/* How many of the six faces allow one of `sizes`: the die's odds. */
static int faces_allowing(unsigned sizes)
{
    int n = 0;
    for (int f = 0; f < 6; f++)
        n += (face_sizes[f] & sizes) != 0;
    return n;
}

/* Cells where player p could land a top pyramid of size s next turn: the
 * neighbours of p's tops of size s, and the edge cells of trees holding s.
 * Every size shows on three of the six faces, so each such move comes with
 * even odds; the terms below are weighted with that in mind. */
static unsigned reach(const jinxx_t *b, int p, int s)
{
    unsigned r = 0, own_tops = tops(b, p) & b->occ[p][s];
    for (unsigned m = own_tops; m; m &= m - 1)
        r |= adjacent[__builtin_ctz(m)];
    for (int k = 0; k < 3; k++)
        if (tree_has(b->tree[p][k], s))
            r |= 1u << edge_cell[seat_of(b, p)][k];
    return r & landable(b, s);
}

/* Each player's value: the sum of its terms, recorded in the trace. */
static void evaluate_all(const jinxx_t *b, score_t value[MAX_PLAYERS], eval_trace_t *t)
{
    for (int p = 0; p < MAX_PLAYERS; p++)
        value[p] = 0;
    unsigned top[MAX_PLAYERS] = {0};
    for (int p = 0; p < b->players; p++)
        top[p] = tops(b, p);
    for (int p = 0; p < b->players; p++) {
        if (!in_game(b, p))
            continue;
        int centre = (top[p] >> CENTRE & 1) ? EV_CENTRE : 0, line = 0, strike = 0, exposed = 0;
        for (int l = 0; l < 4; l++) {
            int have = popcount9(top[p] & lines[l]);
            line += have == 2 ? EV_LINE_TWO : have == 1 ? EV_LINE_ONE : 0;
        }
        int left = pyramids_of(b, p);
        int material = EV_PYRAMID * left - (left < 5 ? EV_DANGER * (5 - left) : 0);
        for (int s = 0; s < 3; s++) {
            unsigned enemy = 0, mine = top[p] & b->occ[p][s];
            for (int q = 0; q < b->players; q++)
                if (q != p)
                    enemy |= top[q] & b->occ[q][s];
            strike += EV_STRIKE * popcount9(reach(b, p, s) & enemy);
            for (int q = 0; q < b->players; q++)
                if (q != p && in_game(b, q))
                    exposed -= EV_EXPOSED * popcount9(reach(b, q, s) & mine);
        }
        /* Only the next player to roll gets the die's odds before anyone
         * can answer; the player to move after a roll knows its face. */
        int odds = p == next_roller(b) ? EV_WIN_ODDS * faces_allowing(line_sizes(b, p, top[p])) : 0;
        eval_trace_set(t, "win odds", p, odds);
        eval_trace_set(t, "centre", p, centre);
        eval_trace_set(t, "lines", p, line);
        eval_trace_set(t, "pyramids", p, material);
        eval_trace_set(t, "can destroy", p, strike);
        eval_trace_set(t, "exposed", p, exposed);
        value[p] = (score_t)(centre + line + material + strike + exposed + odds);
    }
}

static void jinxx_evaluate_players(const position_t *pos, score_t value[MAX_PLAYERS])
{
    evaluate_all(CP(pos), value, NULL);
}

/* Two-sided view: the player to move against the strongest other player
 * (in the two-player game, simply the other). */
static score_t jinxx_evaluate(const position_t *pos, eval_trace_t *t)
{
    const jinxx_t *b = CP(pos);
    score_t v[MAX_PLAYERS];
    evaluate_all(b, v, t);
    score_t best_other = -SCORE_INF;
    for (int p = 0; p < b->players; p++)
        if (p != b->stm && in_game(b, p) && v[p] > best_other)
            best_other = v[p];
    return best_other == -SCORE_INF ? v[b->stm] : v[b->stm] - best_other;
}

/* ---- text ---- */

static void cell_name(int c, char *out)
{
    out[0] = (char)('a' + c % 3);
    out[1] = (char)('1' + c / 3);
    out[2] = 0;
}

static void jinxx_move_text(const position_t *pos, move_t m, char *buf, size_t len)
{
    (void)pos;
    char from[3], to[3];
    cell_name(m_to(m), to);
    switch (m_kind(m)) {
    case K_ROLL: snprintf(buf, len, "%s", face_name[m_face(m)]); break;
    case K_REROLL: snprintf(buf, len, "reroll"); break;
    case K_PASS: snprintf(buf, len, "pass"); break;
    case K_BOARD:
        cell_name(m_from(m), from);
        snprintf(buf, len, "%c%s%s", size_letter[m_size(m)], from, to);
        break;
    default: snprintf(buf, len, "%c@%s", size_letter[m_size(m)], to); break;
    }
}

static move_t jinxx_parse_move(const position_t *pos, const char *text);

static int jinxx_move_key(move_t m)
{
    switch (m_kind(m)) {
    case K_BOARD: return m_size(m) * 81 + m_from(m) * 9 + m_to(m);
    case K_TREE: return 243 + m_size(m) * 9 + m_to(m);
    case K_REROLL: return 270;
    case K_PASS: return 271;
    default: return 272 + m_face(m);
    }
}
#define JINXX_MOVE_KEYS 278

/* ---- position strings ---- */

static void rehash(jinxx_t *b)
{
    b->hash = zobrist_stm[b->stm] ^ zobrist_die[b->die] ^ zobrist_counter[b->counter];
    for (int p = 0; p < b->players; p++) {
        for (int s = 0; s < 3; s++)
            for (unsigned m = b->occ[p][s]; m; m &= m - 1)
                b->hash ^= zobrist_occ[p][s][__builtin_ctz(m)];
        for (int k = 0; k < 3; k++)
            b->hash ^= zobrist_tree[p][k][b->tree[p][k]];
        if (!in_game(b, p))
            b->hash ^= zobrist_out[p];
    }
}

static void clear(position_t *pos, int players)
{
    ensure_tables();
    memset(pos, 0, sizeof *pos);
    P(pos)->players = (uint8_t)players;
}

static void set_start(position_t *pos, int players)
{
    clear(pos, players);
    jinxx_t *b = P(pos);
    for (int p = 0; p < players; p++)
        for (int k = 0; k < 3; k++)
            b->tree[p][k] = 3;
    rehash(b);
}

static const char *parse_cell(jinxx_t *b, const char *c, int cell, char *err, size_t errlen)
{
    if (*c == '.')
        return c + 1;
    int last = 3;
    while (*c == 'S' || *c == 'M' || *c == 'L') {
        int s = *c == 'S' ? SZ_S : *c == 'M' ? SZ_M : SZ_L, p = c[1] - '1';
        if (s >= last)
            return game_fail(err, errlen, "a stack must shrink upwards (L, M, S from the bottom)"), NULL;
        if (p < 0 || p >= b->players)
            return game_fail(err, errlen, "each pyramid needs its owner's number (1 to the number of players)"), NULL;
        b->occ[p][s] |= (uint16_t)(1u << cell);
        b->sizes[s] |= (uint16_t)(1u << cell);
        last = s;
        c += 2;
    }
    if (last == 3)
        return game_fail(err, errlen, "a cell is '.' or pyramids such as L1M2"), NULL;
    return c;
}

static const char *parse_trees(jinxx_t *b, const char *c, char *err, size_t errlen)
{
    for (int p = 0; p < b->players; p++) {
        if (*c == 'x') {
            b->out |= (uint8_t)(1u << p);
            c++;
        } else {
            for (int k = 0; k < 3; k++, c++) {
                if (*c < '0' || *c > '3')
                    return game_fail(err, errlen, "trees: three digits 0-3 per player, or x"), NULL;
                b->tree[p][k] = (uint8_t)(*c - '0');
            }
        }
        if (*c != (p + 1 < b->players ? '/' : ' '))
            return game_fail(err, errlen, "trees: one group per player, separated by '/'"), NULL;
        c++;
    }
    return c;
}

static bool check_material(const jinxx_t *b, char *err, size_t errlen)
{
    for (int p = 0; p < b->players; p++) {
        for (int s = 0; s < 3; s++) {
            int n = popcount9(b->occ[p][s]);
            for (int k = 0; k < 3; k++)
                n += tree_has(b->tree[p][k], s);
            if (n > 3)
                return game_fail(err, errlen, "a player has three pyramids of each size");
        }
        if (!in_game(b, p) && pyramids_of(b, p) > 0)
            return game_fail(err, errlen, "a player who is out has no pyramids");
        if (in_game(b, p) && pyramids_of(b, p) < 3)
            return game_fail(err, errlen, "a player left with two pyramids is out (x)");
    }
    return true;
}

static bool parse_fen(position_t *pos, const char *fen, char *err, size_t errlen, int players)
{
    clear(pos, players);
    jinxx_t *b = P(pos);
    const char *c = fen;
    for (int rank = 2; rank >= 0; rank--)
        for (int file = 0; file < 3; file++) {
            if (!(c = parse_cell(b, c, rank * 3 + file, err, errlen)))
                return false;
            if (*c != (file < 2 ? ',' : rank ? '/' : ' '))
                return game_fail(err, errlen, "board: ranks 3, 2, 1 separated by '/', cells by ','");
            c++;
        }
    if (!(c = parse_trees(b, c, err, errlen)))
        return false;
    char field[3][FEN_FIELD_MAX];
    if (fen_fields(c, field, 3) != 3)
        return game_fail(err, errlen, "expected: <board> <trees> <turn p1..p4> <die - or face> <counter>");
    const char *turn = field[0], *die = field[1], *counter = field[2];
    if (turn[0] != 'p' || turn[1] < '1' || turn[1] >= '1' + players || turn[2])
        return game_fail(err, errlen, "turn must be p1 to the number of players");
    b->stm = (uint8_t)(turn[1] - '1');
    b->die = 7;
    if (strcmp(die, "-") == 0)
        b->die = 0;
    for (int f = 0; f < 6; f++)
        if (strcmp(die, face_name[f]) == 0)
            b->die = (uint8_t)(f + 1);
    if (b->die == 7)
        return game_fail(err, errlen, "die must be '-' or a face: S M L SM SL ML");
    long long n;
    if (!number_parse(counter, 0, DRAW_TURNS, &n))
        return game_fail(err, errlen, "the counter must be 0-60");
    b->counter = (uint8_t)n;
    if (popcount9(b->out) >= players)
        return game_fail(err, errlen, "someone must still be in");
    if (!check_material(b, err, errlen))
        return false;
    /* Only a finished game leaves the turn with a player who is out: the
     * last mover, who vaporized itself. */
    if (!in_game(b, b->stm) && !is_over(b))
        return game_fail(err, errlen, "the player to move is out");
    rehash(b);
    return true;
}

static void jinxx_write_fen(const position_t *pos, char *buf, size_t len)
{
    const jinxx_t *b = CP(pos);
    char out[GAME_FEN_MAX];
    size_t n = 0;
    for (int rank = 2; rank >= 0; rank--)
        for (int file = 0; file < 3; file++) {
            int c = rank * 3 + file;
            bool empty = true;
            for (int s = SZ_L; s >= SZ_S; s--)
                if ((b->sizes[s] >> c) & 1) {
                    out[n++] = size_letter[s];
                    out[n++] = (char)('1' + owner_of(b, s, c));
                    empty = false;
                }
            if (empty)
                out[n++] = '.';
            out[n++] = file < 2 ? ',' : rank ? '/' : ' ';
        }
    for (int p = 0; p < b->players; p++) {
        if (!in_game(b, p)) {
            out[n++] = 'x';
        } else {
            for (int k = 0; k < 3; k++)
                out[n++] = (char)('0' + b->tree[p][k]);
        }
        out[n++] = p + 1 < b->players ? '/' : ' ';
    }
    out[n] = 0;
    snprintf(buf, len, "%sp%d %s %d", out, b->stm + 1, b->die ? face_name[b->die - 1] : "-", b->counter);
}

static const char *const seat_name[4] = {"South", "West", "North", "East"};

static void jinxx_print_board(const position_t *pos, char *buf, size_t len, bool ansi)
{
    const jinxx_t *b = CP(pos);
    static const char *const colour[4] = {"\033[31m", "\033[34m", "\033[32m", "\033[33m"};
    size_t n = 0;
#define OUT(...) (n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
    for (int rank = 2; rank >= 0; rank--) {
        OUT(" %d ", rank + 1);
        for (int file = 0; file < 3; file++) {
            int c = rank * 3 + file, width = 0;
            OUT(" ");
            for (int s = SZ_L; s >= SZ_S; s--)
                if ((b->sizes[s] >> c) & 1) {
                    int o = owner_of(b, s, c);
                    OUT("%s%c%d%s", ansi ? colour[o] : "", size_letter[s], o + 1, ansi ? "\033[0m" : "");
                    width += 2;
                }
            OUT("%s%*s", width ? "" : ".", width ? 6 - width : 5, "");
        }
        OUT("\n");
    }
    OUT("    a      b      c\n");
    for (int p = 0; p < b->players; p++) {
        OUT("p%d %s (%s): ", p + 1, seat_name[seat_of(b, p)], in_game(b, p) ? "in" : "out");
        if (in_game(b, p)) {
            for (int k = 0; k < 3; k++) {
                char cell[3];
                cell_name(edge_cell[seat_of(b, p)][k], cell);
                OUT("%s%s %s", k ? ", " : "", cell, (const char *[]){"-", "L", "LM", "LMS"}[b->tree[p][k]]);
            }
            OUT("; %d pyramids", pyramids_of(b, p));
        }
        OUT("\n");
    }
    OUT("p%d to move, %s; %d turns without destruction or entry\n", b->stm + 1,
        b->die ? face_name[b->die - 1] : "die to roll", b->counter);
#undef OUT
}

static move_t jinxx_parse_move(const position_t *pos, const char *text)
{
    return game_find_move(&jinxx_2p, pos, text); /* the text does not depend on the variant */
}

/* ---- the variants ---- */

#define JINXX_FNS(n)                                                                                             \
    static void set_start_##n(position_t *pos) { set_start(pos, n); }                                            \
    static bool parse_fen_##n(position_t *pos, const char *fen, char *err, size_t len)                           \
    {                                                                                                            \
        return parse_fen(pos, fen, err, len, n);                                                                 \
    }
JINXX_FNS(2)
JINXX_FNS(3)
JINXX_FNS(4)

static const char *const bench_2p[] = {
    ".,.,./.,.,./.,.,. 333/333 p1 SM 0",
    "L2,.,./L1,M1,S2/.,.,. 033/013 p2 ML 3",
    NULL,
};
static const char *const bench_3p[] = {
    ".,.,./.,.,./.,.,. 333/333/333 p1 SL 0",
    NULL,
};
static const char *const bench_4p[] = {
    ".,.,./.,.,./.,.,. 333/333/333/333 p1 ML 0",
    NULL,
};

#define JINXX_GAME(var, vname, desc, n, fens, ...)                                                               \
    const game_t var = {                                                                                         \
        .name = vname,                                                                                           \
        .description = desc,                                                                                     \
        .players = n,                                                                                            \
        .team_of = {0, 1, 2, 3},                                                                                 \
        .player_names = {__VA_ARGS__},                                                                           \
        .repetition_draw = false,                                                                                \
        .move_keys = JINXX_MOVE_KEYS,                                                                            \
        .bench_fens = fens,                                                                                      \
        .bench_depth = 6,                                                                                        \
        .set_start = set_start_##n,                                                                              \
        .parse_fen = parse_fen_##n,                                                                              \
        .write_fen = jinxx_write_fen,                                                                            \
        .print_board = jinxx_print_board,                                                                        \
        .to_move = jinxx_to_move,                                                                                \
        .players_in = jinxx_players_in,                                                                          \
        .hash = jinxx_hash,                                                                                      \
        .gen_moves = jinxx_gen_moves,                                                                            \
        .gen_noisy = jinxx_gen_noisy,                                                                            \
        .count_moves = jinxx_count_moves,                                                                        \
        .make = jinxx_make,                                                                                      \
        .unmake = jinxx_unmake,                                                                                  \
        .decided = jinxx_decided,                                                                                \
        .outcome = jinxx_outcome,                                                                                \
        .evaluate = jinxx_evaluate,                                                                              \
        .evaluate_players = jinxx_evaluate_players,                                                              \
        .move_text = jinxx_move_text,                                                                            \
        .parse_move = jinxx_parse_move,                                                                          \
        .move_key = jinxx_move_key,                                                                              \
        .chance_outcomes = jinxx_chance_outcomes,                                                                \
        .hand_turn = jinxx_hand_turn,                                                                            \
        .view_board = jinxx_view_board,                                                                          \
        .view_position = jinxx_view_position,                                                                    \
        .view_move = jinxx_view_move,                                                                            \
    }

JINXX_GAME(jinxx_2p, "jinxx", "Jinxx for two: South against North", 2, bench_2p, "South", "North");
JINXX_GAME(jinxx_3p, "jinxx-3p", "Jinxx for three: South, West, North", 3, bench_3p, "South", "West", "North");
JINXX_GAME(jinxx_4p, "jinxx-4p", "Jinxx for four: South, West, North, East", 4, bench_4p, "South", "West", "North",
           "East");
