/*
 * bolix_rules.c: the rules of Bolix: the board's tables and symmetries, the
 * window counts that make and unmake keep (with the net's cached first
 * layer, which follows them), placements and captures, ko, passes, the end
 * of the game. May not reach into the evaluation (it reads only its
 * window values, through bolix_eval.h, and the net's numbers) or the text.
 */
#include "bolix_rules.h"

#include <assert.h>
#include <string.h>

#include "../../core/rng.h"
#include "../../core/thread.h"
#include "bolix.h"
#include "bolix_net.h"

/* The six directions as (dq, dn); the first three are the line directions. */
static const int DQ[6] = {0, 1, 1, 0, -1, -1}, DN[6] = {1, 0, 1, -1, 0, -1};

int bolix_cell_q[N_CELLS], bolix_cell_n[N_CELLS];
int8_t bolix_cell_at[10][11]; /* [q][n], -1 off the board */
static bb128_t windows[N_WINDOWS];
static int n_windows;
static uint8_t cell_windows[N_CELLS][MAX_WINDOWS_PER_CELL];
static uint8_t cell_window_count[N_CELLS];
static int8_t sandwich[N_CELLS][6][3]; /* cells at +1, +2, +3, or -1 */
uint64_t bolix_zobrist_men[2][N_CELLS], bolix_zobrist_side, bolix_zobrist_ko[N_CELLS + 1], bolix_zobrist_pass;
int8_t bolix_net_slot[256];
uint8_t bolix_window_image[BOLIX_SYMMETRIES][N_WINDOWS];
static thr_once_t tables_once = THR_ONCE_INIT;
#ifdef __SIZEOF_INT128__
static uint64_t grid_cells[2]; /* the grid's cells (below): low and high words */
static unsigned __int128 grid_of(bb128_t cells);
#endif

/* ---- geometry ---- */

/* The twelve maps of the hex grid onto itself that fix a point: turn k
 * sixths of a full turn ((q, n) -> (q - n, q) is one), mirrored or not. */
static void grid_map(int map, int *q, int *n)
{
    if (map >= 6) {
        int t = *q;
        *q = *n;
        *n = t;
    }
    for (int k = 0; k < map % 6; k++) {
        int t = *q;
        *q = *q - *n;
        *n = t;
    }
}

/* The window whose cells are `cells`, or -1. */
static int window_of(bb128_t cells)
{
    for (int w = 0; w < n_windows; w++)
        if (bb128_eq(windows[w], cells))
            return w;
    return -1;
}

/* The board's symmetries: each grid map, shifted so that the board's
 * lowest column and number stay lowest, that takes every cell onto the
 * board (the identity always does). */
static void init_symmetries(void)
{
    int found = 0;
    for (int map = 0; map < 12; map++) {
        int q[N_CELLS], n[N_CELLS], q0 = 100, n0 = 100, image[N_CELLS];
        for (int c = 0; c < N_CELLS; c++) {
            q[c] = bolix_cell_q[c];
            n[c] = bolix_cell_n[c];
            grid_map(map, &q[c], &n[c]);
            q0 = q[c] < q0 ? q[c] : q0;
            n0 = n[c] < n0 ? n[c] : n0;
        }
        bool onto = true;
        for (int c = 0; c < N_CELLS && onto; c++)
            onto = (image[c] = at(q[c] - q0, n[c] - n0 + 1)) >= 0;
        if (!onto)
            continue;
        assert(found < BOLIX_SYMMETRIES);
        for (int w = 0; w < n_windows; w++) {
            bb128_t to = bb128_zero();
            for (bb128_t m = windows[w]; !bb128_empty(m);)
                to = bb128_or(to, bb128_bit(image[bb128_pop(&m)]));
            int v = window_of(to);
            assert(v >= 0);
            bolix_window_image[found][w] = (uint8_t)v;
        }
        found++;
    }
    assert(found == BOLIX_SYMMETRIES && bolix_window_image[0][N_WINDOWS - 1] == N_WINDOWS - 1);
}

static void init_net_slots(void)
{
    for (int byte = 0; byte < 256; byte++) {
        int black = byte & 15, white = byte >> 4;
        bolix_net_slot[byte] = (int8_t)(black && !white   ? (black < 4 ? black : 4) - 1
                                        : white && !black ? 4 + (white < 4 ? white : 4) - 1
                                                          : -1);
    }
}


static void init_tables(void)
{
    memset(bolix_cell_at, -1, sizeof bolix_cell_at);
    int i = 0;
    for (int q = 0; q < 10; q++)
        for (int n = col_lo[q]; n <= col_hi[q]; n++) {
            bolix_cell_q[i] = q;
            bolix_cell_n[i] = n;
            bolix_cell_at[q][n] = (int8_t)i++;
        }
    assert(i == N_CELLS);
    for (int c = 0; c < N_CELLS; c++)
        for (int d = 0; d < 3; d++) {
            bb128_t w = bb128_zero();
            int k = 0;
            for (; k < 5; k++) {
                int x = at(bolix_cell_q[c] + k * DQ[d], bolix_cell_n[c] + k * DN[d]);
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
    init_symmetries();
    init_net_slots();
    for (int c = 0; c < N_CELLS; c++)
        for (int d = 0; d < 6; d++)
            for (int k = 0; k < 3; k++)
                sandwich[c][d][k] = (int8_t)at(bolix_cell_q[c] + (k + 1) * DQ[d], bolix_cell_n[c] + (k + 1) * DN[d]);
#ifdef __SIZEOF_INT128__
    unsigned __int128 all = grid_of((bb128_t){~0ull, (1ull << (N_CELLS - 64)) - 1});
    grid_cells[0] = (uint64_t)all;
    grid_cells[1] = (uint64_t)(all >> 64);
#endif
    rng_t rng = {0xB011Bu};
    for (int s = 0; s < 2; s++)
        for (int c = 0; c < N_CELLS; c++)
            bolix_zobrist_men[s][c] = rng_next(&rng);
    bolix_zobrist_side = rng_next(&rng);
    for (int c = 0; c <= N_CELLS; c++)
        bolix_zobrist_ko[c] = rng_next(&rng);
    bolix_zobrist_pass = rng_next(&rng);
}

void bolix_tables_ensure(void)
{
    thr_once(&tables_once, init_tables);
    bolix_net_ensure();
}

int bolix_window_count(void)
{
    bolix_tables_ensure();
    return n_windows;
}

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

/* What one marble more (or less) of a colour in a window changes, by the
 * window's count byte before: the sums' differences, the open three and
 * four bits that flip (bit s: open3, bit 2 + s: open4) and the fives the
 * window then holds. Make reads one entry per window, with no work at all
 * for a window that both colours hold before and after. */
typedef struct count_step {
    int16_t lines[2];
    int8_t fours[2];
    uint8_t flips, fives;
    bool changes;
} count_step_t;

static count_step_t count_steps[2][2][256]; /* [remove][colour][byte before] */

void bolix_worth_set(const int16_t line_value[6])
{
    for (int byte = 0; byte < 256; byte++) {
        window_worth_t *v = &worth[byte];
        *v = (window_worth_t){{0, 0}, {0, 0}, 0, 0, 0, false};
        for (int s = 0; s < 2; s++) {
            int k = s ? byte >> 4 : byte & 15, other = s ? byte & 15 : byte >> 4;
            if (k == 0 || k > 5 || other != 0)
                continue;
            v->lines[s] = line_value[k];
            v->fours[s] = k == 4;
            v->fives |= (uint8_t)((k == 5) << s);
            v->open3 |= (uint8_t)((k == 3) << s);
            v->open4 |= (uint8_t)((k == 4) << s);
            v->any = true;
        }
    }
    for (int removing = 0; removing < 2; removing++)
        for (int colour = 0; colour < 2; colour++)
            for (int byte = 0; byte < 256; byte++) {
                int delta = colour ? 16 : 1;
                const window_worth_t *was = &worth[byte], *now = &worth[(uint8_t)(removing ? byte - delta : byte + delta)];
                count_step_t *c = &count_steps[removing][colour][byte];
                c->changes = was->any || now->any;
                for (int t = 0; t < 2; t++) {
                    c->lines[t] = (int16_t)(now->lines[t] - was->lines[t]);
                    c->fours[t] = (int8_t)(now->fours[t] - was->fours[t]);
                }
                c->flips = (uint8_t)((was->open3 ^ now->open3) | (was->open4 ^ now->open4) << 2);
                c->fives = now->fives;
            }
}

/* The cached first layer follows window w's count from byte `was` to
 * `now`: its feature goes off, the new one on. */
static void net_step(bolix_t *b, int w, int was, int now)
{
    int off = bolix_net_feature(w, was), on = bolix_net_feature(w, now);
    if (off == on)
        return;
    if (off >= 0)
        nnue_acc_sub(b->acc_net, &b->acc, off);
    if (on >= 0)
        nnue_acc_add(b->acc_net, &b->acc, on);
}

/* A marble of colour s comes onto (or, removing, leaves) cell: every
 * window through it counts it, and the sums follow. */
static void count_marble(bolix_t *b, int s, int cell, int removing)
{
    const count_step_t *steps = count_steps[removing][s];
    int delta = removing ? -(s ? 16 : 1) : (s ? 16 : 1);
    for (int i = 0; i < cell_window_count[cell]; i++) {
        int w = cell_windows[cell][i];
        const count_step_t *c = &steps[b->count[w]];
        if (b->acc_net)
            net_step(b, w, b->count[w], (uint8_t)(b->count[w] + delta));
        b->count[w] = (uint8_t)(b->count[w] + delta);
        if (!c->changes) /* a window both colours hold */
            continue;
        b->lines[0] = (int16_t)(b->lines[0] + c->lines[0]);
        b->lines[1] = (int16_t)(b->lines[1] + c->lines[1]);
        b->fours[0] = (uint8_t)(b->fours[0] + c->fours[0]);
        b->fours[1] = (uint8_t)(b->fours[1] + c->fours[1]);
        b->fives |= c->fives;
        if (c->flips) {
            bb128_t bit = bb128_bit(w);
            if (c->flips & 1)
                b->open3[0] = bb128_xor(b->open3[0], bit);
            if (c->flips & 2)
                b->open3[1] = bb128_xor(b->open3[1], bit);
            if (c->flips & 4)
                b->open4[0] = bb128_xor(b->open4[0], bit);
            if (c->flips & 8)
                b->open4[1] = bb128_xor(b->open4[1], bit);
        }
    }
}

static void add_marble(bolix_t *b, int s, int cell) { count_marble(b, s, cell, 0); }

/* Only unmake takes marbles off without the game being over (a capture
 * never breaks a five: the game ended with it), so fives stay as they are. */
static void remove_marble(bolix_t *b, int s, int cell) { count_marble(b, s, cell, 1); }

/* Unmake: the counts alone step back (the sums come back with the head),
 * and the cached first layer with them. */
static void uncount_marble(bolix_t *b, int s, int cell, int sign)
{
    int delta = sign * (s ? 16 : 1);
    for (int i = 0; i < cell_window_count[cell]; i++) {
        int w = cell_windows[cell][i];
        if (b->acc_net)
            net_step(b, w, b->count[w], (uint8_t)(b->count[w] - delta));
        b->count[w] = (uint8_t)(b->count[w] - delta);
    }
}

/* The counts from the boards (position strings, the start). */
void bolix_recount(bolix_t *b)
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

static bool is_over(const bolix_t *b)
{
    return b->passes >= 2 || b->fives;
}

/* Cells where s would complete a window of five (a four's empty cell). */
bb128_t bolix_five_makers(const bolix_t *b, int s)
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
#if !defined(__SIZEOF_INT128__) || !defined(NDEBUG)
static bb128_t capture_cells_by_pairs(const bolix_t *b, int s)
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
#endif

#ifdef __SIZEOF_INT128__
/* The board on a grid of 11 bits a column (bit 11q + n for cell qn, n from
 * 1; the others always clear), where a step along each of the three lines
 * is one shift: +1, +11, +12. Column q starts in the cell numbering at the
 * sum of the lengths before it (COLUMNS: q, start, length, lowest number,
 * as col_lo and col_hi say). The compiler's 128-bit integer shifts the
 * whole grid at once. */
typedef unsigned __int128 grid_t;

/* Each column moved to its place (written out: constant shifts). */
#define COLUMN_TO_GRID(q, start, len, lo) (((x >> (start)) & (((grid_t)1 << (len)) - 1)) << (11 * (q) + (lo)))
#define COLUMN_TO_CELLS(q, start, len, lo) (((g >> (11 * (q) + (lo))) & (((grid_t)1 << (len)) - 1)) << (start))
#define COLUMNS(F)                                                                                                     \
    (F(0, 0, 6, 1) | F(1, 6, 7, 1) | F(2, 13, 8, 1) | F(3, 21, 9, 1) | F(4, 30, 10, 1) | F(5, 40, 10, 1) |             \
     F(6, 50, 9, 2) | F(7, 59, 8, 3) | F(8, 67, 7, 4) | F(9, 74, 6, 5))

static grid_t grid_of(bb128_t cells)
{
    grid_t x = (grid_t)cells.hi << 64 | cells.lo;
    return COLUMNS(COLUMN_TO_GRID);
}

static bb128_t cells_of(grid_t g)
{
    grid_t x = COLUMNS(COLUMN_TO_CELLS);
    return (bb128_t){(uint64_t)x, (uint64_t)(x >> 64)};
}

/* The empty cells where a marble of `own` encloses a pair of `enemy`
 * (grids): own, enemy, enemy, own along a line, the placed one at either
 * end. */
static grid_t capture_grid(grid_t own, grid_t enemy, grid_t empty)
{
#define ENCLOSED(k)                                                                                                    \
    (((enemy >> (k)) & (enemy >> 2 * (k)) & (own >> 3 * (k))) | ((enemy << (k)) & (enemy << 2 * (k)) & (own << 3 * (k))))
    return (ENCLOSED(1) | ENCLOSED(11) | ENCLOSED(12)) & empty;
#undef ENCLOSED
}

/* The cells where a marble of s captures, on the grid: own, enemy and
 * empty cells moved over column by column. */
static grid_t capture_cells_grid(const bolix_t *b, int s)
{
    grid_t own = grid_of(b->men[s]), enemy = grid_of(b->men[s ^ 1]);
    grid_t cells = ((grid_t)grid_cells[1] << 64) | grid_cells[0];
    return capture_grid(own, enemy, cells & ~(own | enemy));
}

bb128_t bolix_capture_cells(const bolix_t *b, int s)
{
    bb128_t out = cells_of(capture_cells_grid(b, s));
    assert(bb128_eq(out, capture_cells_by_pairs(b, s)));
    return out;
}

void bolix_capture_counts(const bolix_t *b, int counts[2])
{
    grid_t men[2] = {grid_of(b->men[0]), grid_of(b->men[1])};
    grid_t empty = (((grid_t)grid_cells[1] << 64) | grid_cells[0]) & ~(men[0] | men[1]);
    for (int s = 0; s < 2; s++) {
        grid_t g = capture_grid(men[s], men[s ^ 1], empty);
        counts[s] = __builtin_popcountll((uint64_t)g) + __builtin_popcountll((uint64_t)(g >> 64));
        assert(counts[s] == bb128_popcount(capture_cells_by_pairs(b, s)));
    }
}
#else
bb128_t bolix_capture_cells(const bolix_t *b, int s) { return capture_cells_by_pairs(b, s); }
void bolix_capture_counts(const bolix_t *b, int counts[2])
{
    for (int s = 0; s < 2; s++)
        counts[s] = bb128_popcount(capture_cells_by_pairs(b, s));
}
#endif

/* What each empty cell would do for s, from one pass over the windows:
 * complete five, make a four (a win threat), capture. */
typedef struct placements {
    bb128_t wins, fours, captures;
} placements_t;

static placements_t placements_of(const bolix_t *b, int s)
{
    placements_t p = {bb128_zero(), bb128_zero(), bolix_capture_cells(b, s)};
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

int bolix_gen_moves(const position_t *pos, move_t *moves) { return gen_part(CP(pos), GEN_ALL, moves); }
int bolix_gen_quiet(const position_t *pos, move_t *moves) { return gen_part(CP(pos), GEN_QUIET, moves); }

/* Only the placements on the move's cell are listed. */
bool bolix_move_legal(const position_t *pos, move_t m)
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
    return bolix_five_makers(b, b->stm ^ 1);
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

bool bolix_must_respond(const position_t *pos)
{
    const bolix_t *b = CP(pos);
    return !is_over(b) && b->hand[b->stm] > 0 && !bb128_empty(threats_against(b));
}

/* must_respond after m. A quiet move neither makes nor breaks a four (a
 * placement that makes four or five is noisy, and it takes nothing), and
 * only a second pass in a row ends the game: the mover's fours stand as
 * they are. A noisy move is made to ask. */
bool bolix_gives_threat(const position_t *pos, move_t m)
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
int bolix_gen_noisy(const position_t *pos, move_t *moves)
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

int bolix_count_moves(const position_t *pos)
{
    const bolix_t *b = CP(pos);
    if (is_over(b))
        return 0;
    if (b->hand[b->stm] == 0)
        return 1;
    /* Placements without a capture count once; with one, once per choice
     * (a winning placement captures nothing). */
    int pl = b->stm;
    bb128_t cells = placeable(b);
    bb128_t caps = bb128_andnot(bb128_and(bolix_capture_cells(b, pl), cells), bolix_five_makers(b, pl));
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
    b->hash ^= bolix_zobrist_ko[b->ko == NO_CELL ? N_CELLS : b->ko];
    b->ko = (uint8_t)cell;
    b->hash ^= bolix_zobrist_ko[cell == NO_CELL ? N_CELLS : cell];
}

void bolix_make(position_t *pos, move_t m, undo_t *u)
{
    bolix_t *b = P(pos);
    memcpy(u->w, b, BOLIX_HEAD);
    int pl = b->stm;
    if (m == PASS) {
        if (b->passes == 0)
            b->hash ^= bolix_zobrist_pass;
        b->passes++;
        set_ko(b, NO_CELL);
    } else {
        if (b->passes)
            b->hash ^= bolix_zobrist_pass;
        b->passes = 0;
        int c = move_place(m), r = move_removed(m);
        b->men[pl] = bb128_or(b->men[pl], bb128_bit(c));
        b->hash ^= bolix_zobrist_men[pl][c];
        b->hand[pl]--;
        add_marble(b, pl, c);
        if (r >= 0) {
            b->men[pl ^ 1] = bb128_xor(b->men[pl ^ 1], bb128_bit(r));
            b->hash ^= bolix_zobrist_men[pl ^ 1][r];
            b->hand[pl ^ 1]++;
            remove_marble(b, pl ^ 1, r);
        }
        /* The victim may not place on the emptied cell on their next turn. */
        set_ko(b, r >= 0 ? r : NO_CELL);
    }
    b->stm ^= 1;
    b->hash ^= bolix_zobrist_side;
}

void bolix_unmake(position_t *pos, move_t m, const undo_t *u)
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
bool bolix_pass_turn(position_t *pos)
{
    bolix_t *b = P(pos);
    if (b->hand[b->stm] == 0 || b->passes)
        return false;
    set_ko(b, NO_CELL);
    b->stm ^= 1;
    b->hash ^= bolix_zobrist_side;
    return true;
}

/* ---- state ---- */

int bolix_to_move(const position_t *pos) { return CP(pos)->stm; }
uint64_t bolix_hash(const position_t *pos) { return CP(pos)->hash; }

bool bolix_decided(const position_t *pos, outcome_t *out)
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

outcome_t bolix_outcome(const position_t *pos)
{
    outcome_t o;
    if (bolix_decided(pos, &o))
        return o;
    return (outcome_t){OUTCOME_NONE, 0, NULL};
}
