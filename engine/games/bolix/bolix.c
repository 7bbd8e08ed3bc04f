/*
 * bolix.c: Bolix on two 128-bit bitboards.
 *
 * Cells are indexed column by column (a1 = 0 ... j10 = 79). Everything the
 * rules look at is precomputed: the 116 five-cell windows and, per cell,
 * the windows through it; per cell and direction, the three cells of a
 * possible sandwich (own, enemy, enemy, own with the placed marble at one
 * end). The position keeps, per window, the marbles of each colour, and
 * the sums the rules and the evaluation need (fives, open fours, line
 * values), updated by make and unmake: nothing rescans the board.
 */
#include "bolix.h"
#include "bolix_view.h"

#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/bb128.h"
#include "../../core/number.h"
#include "../../core/rng.h"

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
} bolix_t;

/* What make saves and unmake restores by copy; the counts are undone
 * from the move. */
#define BOLIX_HEAD offsetof(bolix_t, count)

_Static_assert(sizeof(bolix_t) <= GAME_POS_BYTES, "position fits");
_Static_assert(BOLIX_HEAD <= sizeof(((undo_t *)0)->w), "undo holds the position's head");

static const int col_lo[10] = {1, 1, 1, 1, 1, 1, 2, 3, 4, 5};
static const int col_hi[10] = {6, 7, 8, 9, 10, 10, 10, 10, 10, 10};
/* The six directions as (dq, dn); the first three are the line directions. */
static const int DQ[6] = {0, 1, 1, 0, -1, -1}, DN[6] = {1, 0, 1, -1, 0, -1};

static int cell_q[N_CELLS], cell_n[N_CELLS];
static int8_t cell_at[10][11]; /* [q][n], -1 off the board */
static bb128_t windows[N_WINDOWS];
static int n_windows;
static uint8_t cell_windows[N_CELLS][MAX_WINDOWS_PER_CELL];
static uint8_t cell_window_count[N_CELLS];
static int8_t sandwich[N_CELLS][6][3]; /* cells at +1, +2, +3, or -1 */
static uint64_t zobrist_men[2][N_CELLS], zobrist_side, zobrist_ko[N_CELLS + 1], zobrist_pass;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static bolix_t *P(position_t *p) { return (bolix_t *)p->bytes; }
static const bolix_t *CP(const position_t *p) { return (const bolix_t *)p->bytes; }

/* ---- geometry ---- */

static int at(int q, int n) { return q >= 0 && q < 10 && n >= 1 && n <= 10 ? cell_at[q][n] : -1; }

/* Value of a window holding k marbles of one colour and none of the other. */
static const int window_value[5] = {0, 1, 8, 40, 300};

static void init_worth(void);

static void init_tables(void)
{
    memset(cell_at, -1, sizeof cell_at);
    int i = 0;
    for (int q = 0; q < 10; q++)
        for (int n = col_lo[q]; n <= col_hi[q]; n++) {
            cell_q[i] = q;
            cell_n[i] = n;
            cell_at[q][n] = (int8_t)i++;
        }
    assert(i == N_CELLS);
    for (int c = 0; c < N_CELLS; c++)
        for (int d = 0; d < 3; d++) {
            bb128_t w = bb128_zero();
            int k = 0;
            for (; k < 5; k++) {
                int x = at(cell_q[c] + k * DQ[d], cell_n[c] + k * DN[d]);
                if (x < 0)
                    break;
                w = bb128_or(w, bb128_bit(x));
            }
            if (k < 5)
                continue;
            for (bb128_t m = w; !bb128_empty(m);) {
                int x = bb128_pop(&m);
                cell_windows[x][cell_window_count[x]++] = (uint8_t)n_windows;
            }
            windows[n_windows++] = w;
        }
    for (int c = 0; c < N_CELLS; c++)
        for (int d = 0; d < 6; d++)
            for (int k = 0; k < 3; k++)
                sandwich[c][d][k] = (int8_t)at(cell_q[c] + (k + 1) * DQ[d], cell_n[c] + (k + 1) * DN[d]);
    rng_t rng = {0xB011Bu};
    for (int s = 0; s < 2; s++)
        for (int c = 0; c < N_CELLS; c++)
            zobrist_men[s][c] = rng_next(&rng);
    zobrist_side = rng_next(&rng);
    for (int c = 0; c <= N_CELLS; c++)
        zobrist_ko[c] = rng_next(&rng);
    zobrist_pass = rng_next(&rng);
    init_worth();
}

static void ensure_tables(void) { pthread_once(&tables_once, init_tables); }

int bolix_window_count(void)
{
    ensure_tables();
    return n_windows;
}

/* ---- rules ---- */

/* ---- window counts ---- */



/* What a window's count byte is worth to the running sums, for every
 * byte: a change of count applies the difference (no branches per
 * colour in make and unmake). */
typedef struct window_worth {
    int16_t lines[2];
    uint8_t fours[2];
    uint8_t fives, open3, open4; /* bit s: s has five, an open three, an open four */
    bool any;                     /* worth something at all */
} window_worth_t;

static window_worth_t worth[256];

static void init_worth(void)
{
    for (int byte = 0; byte < 256; byte++) {
        window_worth_t *v = &worth[byte];
        for (int s = 0; s < 2; s++) {
            int k = s ? byte >> 4 : byte & 15, other = s ? byte & 15 : byte >> 4;
            if (k == 0 || k > 5 || other != 0)
                continue;
            v->lines[s] = (int16_t)window_value[k < 5 ? k : 4];
            v->fours[s] = k == 4;
            v->fives |= (uint8_t)((k == 5) << s);
            v->open3 |= (uint8_t)((k == 3) << s);
            v->open4 |= (uint8_t)((k == 4) << s);
            v->any = true;
        }
    }
}

/* Window w's count byte becomes `to`: the sums follow. */
static void set_count(bolix_t *b, int w, uint8_t to)
{
    const window_worth_t *was = &worth[b->count[w]], *now = &worth[to];
    b->count[w] = to;
    if (!was->any && !now->any) /* a window both colours hold */
        return;
    for (int s = 0; s < 2; s++) {
        b->lines[s] = (int16_t)(b->lines[s] + now->lines[s] - was->lines[s]);
        b->fours[s] = (uint8_t)(b->fours[s] + now->fours[s] - was->fours[s]);
        if ((was->open3 ^ now->open3) >> s & 1)
            b->open3[s] = bb128_xor(b->open3[s], bb128_bit(w));
        if ((was->open4 ^ now->open4) >> s & 1)
            b->open4[s] = bb128_xor(b->open4[s], bb128_bit(w));
    }
    b->fives |= now->fives;
}

static void add_marble(bolix_t *b, int s, int cell)
{
    for (int i = 0; i < cell_window_count[cell]; i++) {
        int w = cell_windows[cell][i];
        set_count(b, w, (uint8_t)(b->count[w] + (s ? 16 : 1)));
    }
}

/* Only unmake takes marbles off without the game being over (a capture
 * never breaks a five: the game ended with it), so fives stay as they are. */
static void remove_marble(bolix_t *b, int s, int cell)
{
    for (int i = 0; i < cell_window_count[cell]; i++) {
        int w = cell_windows[cell][i];
        set_count(b, w, (uint8_t)(b->count[w] - (s ? 16 : 1)));
    }
}

/* Unmake: the counts alone step back (the sums come back with the head). */
static void uncount_marble(bolix_t *b, int s, int cell, int sign)
{
    int delta = sign * (s ? 16 : 1);
    for (int i = 0; i < cell_window_count[cell]; i++) {
        int w = cell_windows[cell][i];
        b->count[w] = (uint8_t)(b->count[w] - delta);
    }
}

/* The counts from the boards (position strings, the start). */
static void recount(bolix_t *b)
{
    memset(b->count, 0, sizeof b->count);
    b->fives = 0;
    b->fours[0] = b->fours[1] = 0;
    b->lines[0] = b->lines[1] = 0;
    b->open3[0] = b->open3[1] = b->open4[0] = b->open4[1] = bb128_zero();
    for (int s = 0; s < 2; s++)
        for (bb128_t m = b->men[s]; !bb128_empty(m);)
            add_marble(b, s, bb128_pop(&m));
}

/* ---- rules ---- */

/* Enemy marbles enclosed (own, enemy, enemy, own) by a marble of `own`
 * placed on cell. */
static bb128_t enclosed(bb128_t own, bb128_t enemy, int cell)
{
    bb128_t out = bb128_zero();
    for (int d = 0; d < 6; d++) {
        const int8_t *s = sandwich[cell][d];
        if (s[2] >= 0 && bb128_test(enemy, s[0]) && bb128_test(enemy, s[1]) && bb128_test(own, s[2]))
            out = bb128_or(out, bb128_or(bb128_bit(s[0]), bb128_bit(s[1])));
    }
    return out;
}

/* place (7 bits) | (removed + 1) << 7 | PLACED; a pass is PASS. The
 * marker bit keeps a plain placement on a1 (cell 0) from being move 0. */
#define PASS ((move_t)NO_CELL)
#define PLACED ((move_t)1 << 14)
static move_t encode(int place, int removed) { return (move_t)(place | (removed + 1) << 7) | PLACED; }
static int move_place(move_t m) { return (int)(m & 127); }
static int move_removed(move_t m) { return (int)(m >> 7 & 127) - 1; }

static bool is_over(const bolix_t *b)
{
    return b->passes >= 2 || b->fives;
}

/* Cells where s would complete a window of five (a four's empty cell). */
static bb128_t five_makers(const bolix_t *b, int s)
{
    bb128_t out = bb128_zero();
    for (bb128_t m = b->open4[s]; !bb128_empty(m);)
        out = bb128_or(out, bb128_andnot(windows[bb128_pop(&m)], b->men[s]));
    return out;
}

static bb128_t empty_cells(const bolix_t *b)
{
    bb128_t all = {~0ull, (1ull << (N_CELLS - 64)) - 1};
    return bb128_andnot(all, bb128_or(b->men[0], b->men[1]));
}

/* Empty cells where s placing would enclose a pair of the other colour:
 * found from the pairs themselves, each once (its first marble and a
 * direction of the three that point forwards: d + 3 is d's opposite),
 * with a marble of s at one end and an empty cell at the other. There
 * are far fewer adjacent enemy pairs than cells or marbles. */
static bb128_t capture_cells(const bolix_t *b, int s)
{
    bb128_t own = b->men[s], enemy = b->men[s ^ 1], empty = empty_cells(b), out = bb128_zero();
    for (bb128_t m = enemy; !bb128_empty(m);) {
        int e = bb128_pop(&m);
        for (int d = 0; d < 3; d++) {
            const int8_t *ahead = sandwich[e][d], *behind = sandwich[e][d + 3];
            if (ahead[0] < 0 || !bb128_test(enemy, ahead[0]) || ahead[1] < 0 || behind[0] < 0)
                continue;
            if (bb128_test(own, behind[0]) && bb128_test(empty, ahead[1]))
                out = bb128_or(out, bb128_bit(ahead[1]));
            else if (bb128_test(empty, behind[0]) && bb128_test(own, ahead[1]))
                out = bb128_or(out, bb128_bit(behind[0]));
        }
    }
    return out;
}

/* What each empty cell would do for s, from one pass over the windows:
 * complete five, make a four (a win threat), capture. */
typedef struct placements {
    bb128_t wins, fours, captures;
} placements_t;

static placements_t placements_of(const bolix_t *b, int s)
{
    placements_t p = {bb128_zero(), bb128_zero(), capture_cells(b, s)};
    bb128_t empty = empty_cells(b);
    for (bb128_t m = b->open4[s]; !bb128_empty(m);)
        p.wins = bb128_or(p.wins, bb128_and(windows[bb128_pop(&m)], empty));
    for (bb128_t m = b->open3[s]; !bb128_empty(m);)
        p.fours = bb128_or(p.fours, bb128_and(windows[bb128_pop(&m)], empty));
    return p;
}

/* Every placement on a cell in `cells`, with each choice of removal,
 * flagged: a win is noisy, a four noisy and forcing, a capture noisy. */
static int gen_with(const bolix_t *b, bb128_t cells, const placements_t *pp, move_t *moves)
{
    int n = 0, pl = b->stm;
    placements_t p = *pp;
    for (bb128_t m = cells; !bb128_empty(m);) {
        int c = bb128_pop(&m);
        if (bb128_test(p.wins, c)) { /* a winning placement captures nothing */
            moves[n++] = encode(c, -1) | MOVE_NOISY;
            continue;
        }
        move_t flags = bb128_test(p.fours, c) ? MOVE_NOISY | MOVE_FORCING : 0;
        bb128_t taken = bb128_test(p.captures, c)
                            ? enclosed(bb128_or(b->men[pl], bb128_bit(c)), b->men[pl ^ 1], c)
                            : bb128_zero();
        if (bb128_empty(taken)) {
            moves[n++] = encode(c, -1) | flags;
            continue;
        }
        for (bb128_t t = taken; !bb128_empty(t);)
            moves[n++] = encode(c, bb128_pop(&t)) | flags | MOVE_NOISY | MOVE_CAPTURE;
    }
    return n;
}

static int gen_on(const bolix_t *b, bb128_t cells, move_t *moves)
{
    placements_t p = placements_of(b, b->stm);
    return gen_with(b, cells, &p, moves);
}

static bb128_t placeable(const bolix_t *b)
{
    bb128_t e = empty_cells(b);
    if (b->ko != NO_CELL)
        e = bb128_andnot(e, bb128_bit(b->ko));
    return e;
}

/* Every move (GEN_ALL), or the quiet ones (GEN_QUIET): the placements on
 * the cells that neither win, make four nor capture, and the pass (a
 * capture cell whose placement took nothing would be kept). */
static int gen_part(const bolix_t *b, gen_part_t part, move_t *moves)
{
    assert(part != GEN_NOISY); /* bolix_gen_noisy */
    if (is_over(b))
        return 0;
    if (b->hand[b->stm] == 0) {
        moves[0] = PASS;
        return 1;
    }
    if (part == GEN_ALL)
        return gen_on(b, placeable(b), moves);
    placements_t p = placements_of(b, b->stm);
    bb128_t loud = bb128_or(p.wins, p.fours);
    int n = gen_with(b, bb128_andnot(placeable(b), loud), &p, moves), out = 0;
    for (int i = 0; i < n; i++)
        if (!(moves[i] & MOVE_NOISY))
            moves[out++] = moves[i];
    return out;
}

static int bolix_gen_moves(const position_t *pos, move_t *moves) { return gen_part(CP(pos), GEN_ALL, moves); }
static int bolix_gen_quiet(const position_t *pos, move_t *moves) { return gen_part(CP(pos), GEN_QUIET, moves); }

/* Only the placements on the move's cell are listed. */
static bool bolix_move_legal(const position_t *pos, move_t m)
{
    const bolix_t *b = CP(pos);
    if (is_over(b))
        return false;
    if (b->hand[b->stm] == 0 || m == PASS)
        return m == PASS && b->hand[b->stm] == 0;
    int c = move_place(m);
    if (c >= N_CELLS || !bb128_test(placeable(b), c))
        return false;
    move_t moves[MAX_MOVES];
    return move_in(m, moves, gen_on(b, bb128_bit(c), moves));
}

/* Cells of the opponent's fours: where the opponent would make five. */
static bb128_t threats_against(const bolix_t *b)
{
    return five_makers(b, b->stm ^ 1);
}

/* The opponent's marbles that stand in its fours: removing one breaks it. */
static bb128_t four_marbles(const bolix_t *b)
{
    int opp = b->stm ^ 1;
    bb128_t out = bb128_zero();
    for (bb128_t m = b->open4[opp]; !bb128_empty(m);)
        out = bb128_or(out, bb128_and(windows[bb128_pop(&m)], b->men[opp]));
    return out;
}

static bool bolix_must_respond(const position_t *pos)
{
    const bolix_t *b = CP(pos);
    return !is_over(b) && b->hand[b->stm] > 0 && !bb128_empty(threats_against(b));
}

static void bolix_make(position_t *pos, move_t m, undo_t *u);

/* must_respond after m. A quiet move neither makes nor breaks a four (a
 * placement that makes four or five is noisy, and it takes nothing), and
 * only a second pass in a row ends the game: the mover's fours stand as
 * they are. A noisy move is made to ask. */
static bool bolix_gives_threat(const position_t *pos, move_t m)
{
    const bolix_t *b = CP(pos);
    if (m & MOVE_NOISY) {
        position_t after = *pos;
        undo_t u;
        bolix_make(&after, m, &u);
        return bolix_must_respond(&after);
    }
    if (m == PASS && b->passes >= 1)
        return false;
    return b->hand[b->stm ^ 1] > 0 && !bb128_empty(b->open4[b->stm]);
}

/* Noisy moves; facing a four, every answer: our own wins, blocks on the
 * four's empty cells, and captures that take a marble out of the four.
 * Nothing else stops the five, so the list is complete. */
static int bolix_gen_noisy(const position_t *pos, move_t *moves)
{
    const bolix_t *b = CP(pos);
    if (is_over(b) || b->hand[b->stm] == 0)
        return 0;
    bb128_t threats = threats_against(b);
    if (bb128_empty(threats)) { /* the noisy moves: only on the cells that win, make four or capture */
        placements_t p = placements_of(b, b->stm);
        bb128_t cells = bb128_and(placeable(b), bb128_or(p.wins, bb128_or(p.fours, p.captures)));
        return gen_with(b, cells, &p, moves);
    }
    move_t all[MAX_MOVES];
    int n = gen_on(b, placeable(b), all), out = 0;
    bb128_t breakable = four_marbles(b);
    for (int i = 0; i < n; i++) {
        move_t m = all[i];
        bool wins = (m & MOVE_NOISY) && !(m & (MOVE_CAPTURE | MOVE_FORCING));
        bool blocks = bb128_test(threats, move_place(m));
        bool breaks = (m & MOVE_CAPTURE) && bb128_test(breakable, move_removed(m));
        if (wins || blocks || breaks)
            moves[out++] = m;
    }
    return out;
}

static int bolix_count_moves(const position_t *pos)
{
    const bolix_t *b = CP(pos);
    if (is_over(b))
        return 0;
    if (b->hand[b->stm] == 0)
        return 1;
    /* Placements without a capture count once; with one, once per choice
     * (a winning placement captures nothing). */
    int pl = b->stm;
    bb128_t cells = placeable(b), caps = bb128_andnot(bb128_and(capture_cells(b, pl), cells), five_makers(b, pl));
    int n = bb128_popcount(cells) - bb128_popcount(caps);
    for (bb128_t m = caps; !bb128_empty(m);) {
        int c = bb128_pop(&m);
        n += bb128_popcount(enclosed(bb128_or(b->men[pl], bb128_bit(c)), b->men[pl ^ 1], c));
    }
    return n;
}

/* ---- make / unmake ---- */

static void set_ko(bolix_t *b, int cell)
{
    b->hash ^= zobrist_ko[b->ko == NO_CELL ? N_CELLS : b->ko];
    b->ko = (uint8_t)cell;
    b->hash ^= zobrist_ko[cell == NO_CELL ? N_CELLS : cell];
}

static void bolix_make(position_t *pos, move_t m, undo_t *u)
{
    bolix_t *b = P(pos);
    memcpy(u->w, b, BOLIX_HEAD);
    int pl = b->stm;
    if (m == PASS) {
        if (b->passes == 0)
            b->hash ^= zobrist_pass;
        b->passes++;
        set_ko(b, NO_CELL);
    } else {
        if (b->passes)
            b->hash ^= zobrist_pass;
        b->passes = 0;
        int c = move_place(m), r = move_removed(m);
        b->men[pl] = bb128_or(b->men[pl], bb128_bit(c));
        b->hash ^= zobrist_men[pl][c];
        b->hand[pl]--;
        add_marble(b, pl, c);
        if (r >= 0) {
            b->men[pl ^ 1] = bb128_xor(b->men[pl ^ 1], bb128_bit(r));
            b->hash ^= zobrist_men[pl ^ 1][r];
            b->hand[pl ^ 1]++;
            remove_marble(b, pl ^ 1, r);
        }
        /* The victim may not place on the emptied cell on their next turn. */
        set_ko(b, r >= 0 ? r : NO_CELL);
    }
    b->stm ^= 1;
    b->hash ^= zobrist_side;
}

static void bolix_unmake(position_t *pos, move_t m, const undo_t *u)
{
    bolix_t *b = P(pos);
    if (m != PASS) {
        int pl = b->stm ^ 1, r = move_removed(m);
        uncount_marble(b, pl, move_place(m), +1);
        if (r >= 0)
            uncount_marble(b, pl ^ 1, r, -1);
    }
    memcpy(b, u->w, BOLIX_HEAD); /* the sums, as they were */
}

/* A placement never hurts the placer, so passing is a sound test; not
 * with an empty hand (the side can only pass anyway) or after a pass. */
static bool bolix_pass_turn(position_t *pos)
{
    bolix_t *b = P(pos);
    if (b->hand[b->stm] == 0 || b->passes)
        return false;
    set_ko(b, NO_CELL);
    b->stm ^= 1;
    b->hash ^= zobrist_side;
    return true;
}

/* ---- state ---- */

static int bolix_to_move(const position_t *pos) { return CP(pos)->stm; }
static uint64_t bolix_hash(const position_t *pos) { return CP(pos)->hash; }

static bool bolix_decided(const position_t *pos, outcome_t *out)
{
    const bolix_t *b = CP(pos);
    int last = b->stm ^ 1;
    if (b->fives & (1u << last)) {
        *out = (outcome_t){OUTCOME_WIN, player_bit(last), "five in a row"};
        return true;
    }
    if (b->fives & (1u << b->stm)) {
        *out = (outcome_t){OUTCOME_WIN, player_bit(b->stm), "five in a row"};
        return true;
    }
    if (b->passes >= 2) {
        *out = (outcome_t){OUTCOME_DRAW, 3, "two passes in a row"};
        return true;
    }
    return false;
}

static outcome_t bolix_outcome(const position_t *pos)
{
    outcome_t o;
    if (bolix_decided(pos, &o))
        return o;
    return (outcome_t){OUTCOME_NONE, 0, NULL};
}

/* ---- evaluation ---- */

enum { CAPTURE_THREAT = 30, HAND_MARBLE = 2, TO_MOVE_FOUR = 5000 };


static score_t bolix_evaluate(const position_t *pos, eval_trace_t *t)
{
    const bolix_t *b = CP(pos);
    const int lines[2] = {b->lines[0], b->lines[1]}; /* kept by make and unmake */
    eval_trace_add(t, "lines", lines[0], lines[1]);
    int caps[2];
    for (int pl = 0; pl < 2; pl++)
        caps[pl] = CAPTURE_THREAT * bb128_popcount(capture_cells(b, pl));
    eval_trace_add(t, "capture threats", caps[0], caps[1]);
    int hand[2] = {HAND_MARBLE * b->hand[0], HAND_MARBLE * b->hand[1]};
    eval_trace_add(t, "marbles in hand", hand[0], hand[1]);
    int stm = b->stm, opp = stm ^ 1;
    /* A four of the side to move with a free cell wins next move. */
    int win[2] = {0, 0};
    if (b->fours[stm] && b->hand[stm] && !bb128_empty(bb128_andnot(five_makers(b, stm),
                                                             b->ko == NO_CELL ? bb128_zero() : bb128_bit(b->ko))))
        win[stm] = TO_MOVE_FOUR;
    eval_trace_add(t, "four to play", win[0], win[1]);
    int v[2];
    for (int pl = 0; pl < 2; pl++)
        v[pl] = lines[pl] + caps[pl] + hand[pl] + win[pl];
    return (score_t)(v[stm] - v[opp]);
}

/* ---- text ---- */

static void cell_name(int c, char *out, size_t len) { snprintf(out, len, "%c%d", 'a' + cell_q[c], cell_n[c]); }

static void bolix_move_text(const position_t *pos, move_t m, char *buf, size_t len)
{
    (void)pos;
    if (m == PASS) {
        snprintf(buf, len, "pass");
        return;
    }
    char a[4], r[4];
    cell_name(move_place(m), a, sizeof a);
    if (move_removed(m) < 0) {
        snprintf(buf, len, "%s", a);
        return;
    }
    cell_name(move_removed(m), r, sizeof r);
    snprintf(buf, len, "%sx%s", a, r);
}

static move_t bolix_parse_move(const position_t *pos, const char *text)
{
    return game_find_move(&bolix, pos, text);
}

static int bolix_move_key(move_t m) { return m == PASS ? N_CELLS : move_place(m); }

/* ---- position strings ---- */

static void rehash(bolix_t *b)
{
    b->hash = (b->stm ? zobrist_side : 0) ^ zobrist_ko[b->ko == NO_CELL ? N_CELLS : b->ko] ^
              (b->passes ? zobrist_pass : 0);
    for (int s = 0; s < 2; s++)
        for (bb128_t m = b->men[s]; !bb128_empty(m);)
            b->hash ^= zobrist_men[s][bb128_pop(&m)];
}

static void set_start(position_t *pos)
{
    ensure_tables();
    memset(pos, 0, sizeof *pos);
    bolix_t *b = P(pos);
    b->hand[0] = b->hand[1] = HAND;
    b->ko = NO_CELL;
    rehash(b);
    recount(b);
}

static int parse_cell(const char *s, int *used)
{
    if (s[0] < 'a' || s[0] > 'j')
        return -1;
    char *end;
    long n = strtol(s + 1, &end, 10);
    if (end == s + 1 || n < 1 || n > 10)
        return -1;
    *used = (int)(end - s);
    return at(s[0] - 'a', (int)n);
}

static bool parse_fen(position_t *pos, const char *fen, char *err, size_t errlen)
{
    ensure_tables();
    memset(pos, 0, sizeof *pos);
    bolix_t *b = P(pos);
    const char *c = fen;
    for (int q = 0; q < 10; q++) {
        int n = col_lo[q];
        while (*c && *c != '/' && *c != ' ') {
            if (*c >= '0' && *c <= '9') {
                long long k;
                if (!number_read(&c, 1, 10, &k))
                    return game_fail(err, errlen, "empty runs must be 1 to 10");
                n += (int)k;
                continue;
            }
            if (*c != 'b' && *c != 'w')
                return game_fail(err, errlen, "unknown letter (expected b, w or a number)");
            if (n > col_hi[q])
                return game_fail(err, errlen, "column too long");
            b->men[*c == 'w'] = bb128_or(b->men[*c == 'w'], bb128_bit(at(q, n)));
            n++;
            c++;
        }
        if (n != col_hi[q] + 1)
            return game_fail(err, errlen, "a column has the wrong number of cells");
        if (q < 9) {
            if (*c != '/')
                return game_fail(err, errlen, "expected 10 columns separated by '/'");
            c++;
        }
    }
    char f[5][FEN_FIELD_MAX];
    if (*c != ' ' || fen_fields(c, f, 5) != 5)
        return game_fail(err, errlen, "expected: <board> <side b|w> <black hand> <white hand> <ko cell|-> <passes>");
    const char *side = f[0], *ko = f[3];
    long long hb, hw, passes;
    if (strcmp(side, "b") != 0 && strcmp(side, "w") != 0)
        return game_fail(err, errlen, "side to move must be 'b' or 'w'");
    b->stm = side[0] == 'w';
    if (!number_parse(f[1], 0, HAND, &hb) || !number_parse(f[2], 0, HAND, &hw) ||
        hb + bb128_popcount(b->men[0]) > HAND || hw + bb128_popcount(b->men[1]) > HAND)
        return game_fail(err, errlen, "hands and marbles on the board exceed 36 a side");
    b->hand[0] = (uint8_t)hb;
    b->hand[1] = (uint8_t)hw;
    if (!number_parse(f[4], 0, 2, &passes))
        return game_fail(err, errlen, "passes must be 0, 1 or 2");
    b->passes = (uint8_t)passes;
    if (strcmp(ko, "-") == 0) {
        b->ko = NO_CELL;
    } else {
        int used = 0, k = parse_cell(ko, &used);
        if (k < 0 || ko[used] || bb128_test(bb128_or(b->men[0], b->men[1]), k))
            return game_fail(err, errlen, "the ko cell must be an empty cell or '-'");
        b->ko = (uint8_t)k;
    }
    rehash(b);
    recount(b);
    return true;
}

static void bolix_write_fen(const position_t *pos, char *buf, size_t len)
{
    const bolix_t *b = CP(pos);
    char out[GAME_FEN_MAX];
    size_t n = 0;
    for (int q = 0; q < 10; q++) {
        int empty = 0;
        for (int k = col_lo[q]; k <= col_hi[q]; k++) {
            int c = at(q, k);
            char ch = bb128_test(b->men[0], c) ? 'b' : bb128_test(b->men[1], c) ? 'w' : 0;
            if (!ch) {
                empty++;
                continue;
            }
            if (empty)
                n += (size_t)snprintf(out + n, sizeof out - n, "%d", empty);
            empty = 0;
            out[n++] = ch;
        }
        if (empty)
            n += (size_t)snprintf(out + n, sizeof out - n, "%d", empty);
        if (q < 9)
            out[n++] = '/';
    }
    out[n] = 0;
    char ko[4] = "-";
    if (b->ko != NO_CELL)
        cell_name(b->ko, ko, sizeof ko);
    snprintf(buf, len, "%s %c %d %d %s %d", out, b->stm ? 'w' : 'b', b->hand[0], b->hand[1], ko, b->passes);
}

/* Columns drawn upright, each half a cell below its left neighbour: cell
 * (q, n) sits at half-line 2n - q, so the six neighbours of a cell are the
 * cells above, below, and diagonally left and right. Empty cells show
 * their names, so a move can be read off the picture. */
static void bolix_print_board(const position_t *pos, char *buf, size_t len, bool ansi)
{
    const bolix_t *b = CP(pos);
    size_t n = 0;
#define OUT(...) (n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
    for (int y = 16; y >= -3; y--) {
        char line[128];
        memset(line, ' ', sizeof line);
        int width = 0;
        bool any = false;
        for (int q = 0; q < 10; q++) {
            if ((y + q) % 2 != 0)
                continue;
            int c = at(q, (y + q) / 2);
            if (c < 0 || (y + q) / 2 < 1)
                continue;
            char name[4] = "";
            if (bb128_test(b->men[0], c)) snprintf(name, sizeof name, " X");
            else if (bb128_test(b->men[1], c)) snprintf(name, sizeof name, " O");
            else cell_name(c, name, sizeof name);
            memcpy(line + 4 * q, name, strlen(name));
            width = 4 * q + 3;
            any = true;
        }
        if (!any)
            continue;
        line[width] = 0;
        if (ansi) {
            for (int i = 0; i < width; i++) {
                if (line[i] == 'X') OUT("\033[1;33mX\033[0m");
                else if (line[i] == 'O') OUT("\033[1;36mO\033[0m");
                else OUT("%c", line[i]);
            }
            OUT("\n");
        } else {
            OUT("%s\n", line);
        }
    }
    char ko[4] = "-";
    if (b->ko != NO_CELL)
        cell_name(b->ko, ko, sizeof ko);
    OUT("%s to move; in hand: black (X) %d, white (O) %d; ko: %s\n", b->stm ? "White" : "Black", b->hand[0],
        b->hand[1], ko);
#undef OUT
}

static const char *const bench_fens[] = {
    "6/7/8/9/10/10/9/8/7/6 b 36 36 - 0",
    "6/7/8/4b4/3bw5/3wb5/9/8/7/6 w 33 34 - 0",
    "6/7/2w5/3bbw3/2wbw5/3bwb4/4b4/8/7/6 w 30 31 - 0",
    "6/1w5/2wb4/2bbw4/2wbbw4/2bwwb4/3bw4/3b4/7/6 w 27 28 - 0",
    NULL,
};

const game_t bolix = {
    .name = "bolix",
    .description = "Bolix (Boku), 80-cell hex board",
    .players = 2,
    .team_of = {0, 1},
    .player_names = {"black", "white"},
    .repetition_draw = false,
    .move_keys = N_CELLS + 1,
    .bench_fens = bench_fens,
    .bench_depth = 4,
    .set_start = set_start,
    .parse_fen = parse_fen,
    .write_fen = bolix_write_fen,
    .print_board = bolix_print_board,
    .to_move = bolix_to_move,
    .hash = bolix_hash,
    .gen_moves = bolix_gen_moves,
    .gen_noisy = bolix_gen_noisy,
    .count_moves = bolix_count_moves,
    .move_legal = bolix_move_legal,
    .gen_quiet = bolix_gen_quiet,
    .make = bolix_make,
    .unmake = bolix_unmake,
    .decided = bolix_decided,
    .outcome = bolix_outcome,
    .evaluate = bolix_evaluate,
    .must_respond = bolix_must_respond,
    .gives_threat = bolix_gives_threat,
    .pass_turn = bolix_pass_turn,
    .move_text = bolix_move_text,
    .parse_move = bolix_parse_move,
    .move_key = bolix_move_key,
    .chance_outcomes = NULL,
    .view_board = bolix_view_board,
    .view_position = bolix_view_position,
    .view_move = bolix_view_move,
};
