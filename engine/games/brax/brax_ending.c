/*
 * brax_ending.c: two men against one (and one against one), solved by
 * retrograde analysis from the rules of docs/rules/brax.md, on the
 * board's steps and paths as brax_geometry.c lists them (brax_steps,
 * brax_paths); the tests check every position against the rules' own
 * moves.
 * Reads the board from brax_geometry.c alone: it may not call the rules
 * (brax_rules.c), which call it through brax_eval.c.
 *
 * A quiet move stays in the ending and can be played back (the same
 * segments, the same empty middle point), so a position's parents are its
 * children with the other side to move. A capture leaves it: the capture
 * of the lone man, or the lone man's double capture, ends the game; the
 * lone man's capture of one man goes into one against one, solved first
 * by recursion over its quiet plies. Positions are then decided in order
 * of their distance: won in d plies by a quiet move to a position lost in
 * d - 1 (or a capture that wins in d), lost in d once every move is known
 * to lose and the longest loss is d. What is never decided is drawn: the
 * defender can keep out of every loss for ever.
 */
#include "brax_ending.h"

#include <assert.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../core/thread.h"
#include "brax_geometry.h"

#define POINTS 81
#define QUIET_DRAW 10 /* one against one: quiet plies that draw */
#define TARGETS_MAX 16
#define DISTANCE_MAX 250

/* A stored result: 0 drawn (or not yet decided); else 1 + the plies to
 * the end, whose parity says who wins (odd: the side to move). */
typedef uint8_t code_t;

static code_t encode(ending_result_t r, int plies)
{
    assert(r == ENDING_DRAW || (plies % 2 == 1) == (r == ENDING_WIN));
    return r == ENDING_DRAW ? 0 : (code_t)(plies + 1);
}

static ending_t decode(code_t c)
{
    if (c == 0)
        return (ending_t){ENDING_DRAW, 0};
    int plies = c - 1;
    return (ending_t){plies % 2 ? ENDING_WIN : ENDING_LOSS, plies};
}

/* ---- geometry ---- */

/* The points a man reaches by a 1-step, and by a 2-step along segments of
 * each colour with the middle points it may pass (one or two: two paths
 * to one end are one move). */
typedef struct jump {
    int8_t end, mid[2];
    int n_mid;
} jump_t;

typedef struct reach {
    int8_t step[4];
    int n_step;
    jump_t jump[2][TARGETS_MAX];
    int n_jump[2];
} reach_t;

static reach_t reach[POINTS];
static thr_once_t geometry_once = THR_ONCE_INIT;

static void add_jump(reach_t *r, int colour, int mid, int end)
{
    for (int k = 0; k < r->n_jump[colour]; k++)
        if (r->jump[colour][k].end == end) {
            r->jump[colour][k].mid[r->jump[colour][k].n_mid++] = (int8_t)mid;
            return;
        }
    assert(r->n_jump[colour] < TARGETS_MAX);
    r->jump[colour][r->n_jump[colour]++] = (jump_t){.end = (int8_t)end, .mid = {(int8_t)mid}, .n_mid = 1};
}

static void init_geometry(void)
{
    for (int p = 0; p < POINTS; p++) {
        reach_t *r = &reach[p];
        int to[4], mid[BRAX_PATHS_MAX], end[BRAX_PATHS_MAX];
        r->n_step = brax_steps(p, to);
        for (int k = 0; k < r->n_step; k++)
            r->step[k] = (int8_t)to[k];
        for (int colour = 0; colour < 2; colour++) {
            int n = brax_paths(p, colour, mid, end);
            for (int k = 0; k < n; k++)
                add_jump(r, colour, mid[k], end[k]);
        }
    }
}

/* The points the man of this colour on p reaches by a quiet move (an empty
 * end; a 2-step with an empty middle) when `occupied` holds the other men. */
static int quiet_targets(int p, int colour, const int *occupied, int n_occupied, int8_t *out)
{
    const reach_t *r = &reach[p];
    int n = 0;
    for (int k = 0; k < r->n_step; k++) {
        int t = r->step[k];
        bool free_end = true;
        for (int j = 0; j < n_occupied; j++)
            free_end &= occupied[j] != t;
        if (free_end)
            out[n++] = (int8_t)t;
    }
    for (int k = 0; k < r->n_jump[colour]; k++) {
        bool free_end = true, free_mid = false;
        for (int j = 0; j < n_occupied; j++)
            free_end &= occupied[j] != r->jump[colour][k].end;
        for (int i = 0; i < r->jump[colour][k].n_mid; i++) {
            bool empty = true;
            for (int j = 0; j < n_occupied; j++)
                empty &= occupied[j] != r->jump[colour][k].mid[i];
            free_mid |= empty;
        }
        if (free_end && free_mid)
            out[n++] = r->jump[colour][k].end;
    }
    return n;
}

/* ---- one against one ---- */

/* What a position's moves give the mover: the best of them so far (in two
 * against one: of its captures, with the count of its quiet moves). */
typedef struct exits {
    int win;   /* the shortest win by a capture, or -1 */
    int loss;  /* the longest loss by a capture, or -1 */
    bool draw; /* a capture into a drawn one against one */
    int quiet;
} exits_t;

/* Adds a move whose position is worth `after` to the opponent. */
static void exit_result(exits_t *e, ending_t after)
{
    if (after.result == ENDING_LOSS && (e->win < 0 || after.plies + 1 < e->win))
        e->win = after.plies + 1;
    else if (after.result == ENDING_WIN && after.plies + 1 > e->loss)
        e->loss = after.plies + 1;
    else if (after.result == ENDING_DRAW)
        e->draw = true;
}

/* The value of a position whose moves have all been added: the shortest
 * win, else a draw, else the longest loss (no move at all: lost at once). */
static code_t value_of(const exits_t *e)
{
    if (e->win >= 0)
        return encode(ENDING_WIN, e->win);
    return e->draw ? 0 : encode(ENDING_LOSS, e->loss < 0 ? 0 : e->loss);
}

/* [mover colour][mover][other][quiet plies] */
static code_t one[2][POINTS][POINTS][QUIET_DRAW + 1];

/* Can the man of this colour on p move onto target (an enemy man) with
 * `other` the one other occupied point (-1: none)? *onto: by a 1-step or
 * a 2-step through an empty middle; *over: by a 2-step through `other`. */
static void moves_onto(int p, int colour, int target, int other, bool *onto, bool *over)
{
    const reach_t *r = &reach[p];
    *onto = *over = false;
    for (int k = 0; k < r->n_step; k++)
        *onto |= r->step[k] == target;
    for (int k = 0; k < r->n_jump[colour]; k++) {
        if (r->jump[colour][k].end != target)
            continue;
        for (int j = 0; j < r->jump[colour][k].n_mid; j++) {
            *onto |= r->jump[colour][k].mid[j] != other;
            *over |= r->jump[colour][k].mid[j] == other;
        }
    }
}

static void solve_one(void)
{
    for (int q = QUIET_DRAW; q >= 0; q--)
        for (int colour = 0; colour < 2; colour++)
            for (int p = 0; p < POINTS; p++)
                for (int o = 0; o < POINTS; o++) {
                    if (p == o)
                        continue;
                    if (q == QUIET_DRAW) {
                        one[colour][p][o][q] = 0;
                        continue;
                    }
                    bool onto, over;
                    moves_onto(p, colour, o, -1, &onto, &over);
                    if (onto) {
                        one[colour][p][o][q] = encode(ENDING_WIN, 1);
                        continue;
                    }
                    int8_t targets[TARGETS_MAX];
                    int n = quiet_targets(p, colour, &o, 1, targets);
                    exits_t e = {-1, -1, false, 0};
                    for (int k = 0; k < n; k++)
                        exit_result(&e, decode(one[colour ^ 1][o][targets[k]][q + 1]));
                    one[colour][p][o][q] = value_of(&e);
                }
}

static thr_once_t one_once = THR_ONCE_INIT;

static void build_one(void)
{
    thr_once(&geometry_once, init_geometry);
    solve_one();
}

ending_t brax_ending_probe_one(int mover_colour, int mover, int other, int quiet)
{
    thr_once(&one_once, build_one);
    assert(mover != other);
    return decode(one[mover_colour][mover][other][quiet < QUIET_DRAW ? quiet : QUIET_DRAW]);
}

/* ---- two against one ---- */

/* A position: the two men's colour, who moves, the two men's points
 * (a < b) and the lone man's. */
typedef struct trio {
    int colour, lone_moves, a, b, lone;
} trio_t;

#define TRIOS (2 * 2 * POINTS * POINTS * POINTS)

static size_t trio_index(trio_t t)
{
    if (t.a > t.b) {
        int x = t.a;
        t.a = t.b;
        t.b = x;
    }
    return (((size_t)(t.colour * 2 + t.lone_moves) * POINTS + (size_t)t.a) * POINTS + (size_t)t.b) * POINTS +
           (size_t)t.lone;
}

static trio_t trio_of(size_t k)
{
    trio_t t;
    t.lone = (int)(k % POINTS);
    k /= POINTS;
    t.b = (int)(k % POINTS);
    k /= POINTS;
    t.a = (int)(k % POINTS);
    k /= POINTS;
    t.lone_moves = (int)(k % 2);
    t.colour = (int)(k / 2);
    return t;
}

static bool trio_valid(trio_t t) { return t.a < t.b && t.lone != t.a && t.lone != t.b; }

static const ending_t game_lost = {ENDING_LOSS, 0};

static exits_t exits_of(trio_t t, bool doubles)
{
    exits_t e = {-1, -1, false, 0};
    int8_t targets[TARGETS_MAX];
    int men[2] = {t.a, t.b};
    bool onto, over;
    if (!t.lone_moves) {
        for (int i = 0; i < 2; i++) {
            int occupied[2] = {men[i ^ 1], t.lone};
            moves_onto(men[i], t.colour, t.lone, men[i ^ 1], &onto, &over);
            if (onto) /* the lone man's capture ends the game */
                exit_result(&e, game_lost);
            e.quiet += quiet_targets(men[i], t.colour, occupied, 2, targets);
        }
        return e;
    }
    for (int i = 0; i < 2; i++) {
        moves_onto(t.lone, t.colour ^ 1, men[i], men[i ^ 1], &onto, &over);
        if (onto) /* one man left, to move, no quiet ply yet */
            exit_result(&e, decode(one[t.colour][men[i ^ 1]][men[i]][0]));
        if (over && doubles)
            exit_result(&e, game_lost);
    }
    e.quiet = quiet_targets(t.lone, t.colour ^ 1, men, 2, targets);
    return e;
}

/* The positions one quiet move of the side not to move in t leads to t
 * from (quiet moves can be played back). */
static int parents(trio_t t, size_t *out)
{
    trio_t p = t;
    p.lone_moves ^= 1;
    int8_t targets[TARGETS_MAX];
    int men[2] = {t.a, t.b}, n = 0;
    if (t.lone_moves) { /* the two men moved */
        for (int i = 0; i < 2; i++) {
            int occupied[2] = {men[i ^ 1], t.lone};
            int k = quiet_targets(men[i], t.colour, occupied, 2, targets);
            for (int j = 0; j < k; j++) {
                p.a = targets[j];
                p.b = men[i ^ 1];
                out[n++] = trio_index(p);
            }
        }
    } else {
        int k = quiet_targets(t.lone, t.colour ^ 1, men, 2, targets);
        for (int j = 0; j < k; j++) {
            p.lone = targets[j];
            out[n++] = trio_index(p);
        }
    }
    return n;
}

typedef struct table {
    code_t code[TRIOS];
    thr_once_t once;
} table_t;

static table_t tables[2] = {{.once = THR_ONCE_INIT}, {.once = THR_ONCE_INIT}};

/* Positions waiting to be decided, by distance. */
typedef struct queue {
    uint32_t *items;
    size_t n, cap;
} queue_t;

static bool queue_push(queue_t *q, size_t k)
{
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 1024;
        uint32_t *more = realloc(q->items, cap * sizeof *more);
        if (!more)
            return false;
        q->items = more;
        q->cap = cap;
    }
    q->items[q->n++] = (uint32_t)k;
    return true;
}

typedef struct work {
    uint8_t *moves_left; /* quiet moves not yet known to lose */
    uint8_t *longest;    /* the longest loss known among its moves */
    uint8_t *open;       /* 1: a capture wins or draws, so it is never lost by its quiet moves */
    bool *decided;
    queue_t at[DISTANCE_MAX + 2];
} work_t;

static bool claim(work_t *w, size_t k, int plies)
{
    assert(plies <= DISTANCE_MAX + 1);
    return queue_push(&w->at[plies], k);
}

/* Decides the positions of distance d; false when memory ran out. */
static bool settle(table_t *tb, work_t *w, int d)
{
    size_t preds[2 * 2 * TARGETS_MAX];
    for (size_t i = 0; i < w->at[d].n; i++) { /* the list grows only for d + 1 and later */
        size_t k = w->at[d].items[i];
        if (w->decided[k])
            continue;
        w->decided[k] = true;
        bool lost = d % 2 == 0;
        tb->code[k] = encode(lost ? ENDING_LOSS : ENDING_WIN, d);
        int n = parents(trio_of(k), preds);
        for (int j = 0; j < n; j++) {
            size_t p = preds[j];
            if (w->decided[p])
                continue;
            if (lost) {
                if (!claim(w, p, d + 1))
                    return false;
                continue;
            }
            if (d + 1 > w->longest[p])
                w->longest[p] = (uint8_t)(d + 1);
            assert(w->moves_left[p] > 0);
            if (--w->moves_left[p] == 0 && !w->open[p] && !claim(w, p, w->longest[p]))
                return false;
        }
    }
    return true;
}

static bool solve_two(table_t *tb, bool doubles)
{
    work_t w = {0};
    w.moves_left = calloc(TRIOS, 1);
    w.longest = calloc(TRIOS, 1);
    w.open = calloc(TRIOS, 1);
    w.decided = calloc(TRIOS, sizeof *w.decided);
    bool ok = w.moves_left && w.longest && w.open && w.decided;
    for (size_t k = 0; ok && k < TRIOS; k++) {
        trio_t t = trio_of(k);
        if (!trio_valid(t)) {
            w.decided[k] = true;
            continue;
        }
        exits_t e = exits_of(t, doubles);
        w.moves_left[k] = (uint8_t)e.quiet;
        w.longest[k] = (uint8_t)(e.loss < 0 ? 0 : e.loss);
        w.open[k] = e.win >= 0 || e.draw;
        if (e.win >= 0)
            ok = claim(&w, k, e.win);
        else if (e.quiet == 0 && !e.draw)
            ok = claim(&w, k, w.longest[k]);
    }
    for (int d = 0; ok && d <= DISTANCE_MAX; d++)
        ok = settle(tb, &w, d);
    assert(!ok || w.at[DISTANCE_MAX + 1].n == 0); /* the longest is about 40 plies */
    for (int d = 0; d <= DISTANCE_MAX + 1; d++)
        free(w.at[d].items);
    free(w.moves_left);
    free(w.longest);
    free(w.open);
    free(w.decided);
    return ok;
}

static bool tables_ok[2];
static atomic_bool tables_ready[2]; /* set last, once the building is over */

static void build_without_doubles(void)
{
    thr_once(&one_once, build_one);
    tables_ok[0] = solve_two(&tables[0], false);
    atomic_store(&tables_ready[0], true);
}

static void build_with_doubles(void)
{
    thr_once(&one_once, build_one);
    tables_ok[1] = solve_two(&tables[1], true);
    atomic_store(&tables_ready[1], true);
}

bool brax_ending_ready(bool double_captures) { return atomic_load(&tables_ready[double_captures]); }

void brax_ending_prepare(bool double_captures)
{
    int d = double_captures;
    thr_once(&tables[d].once, d ? build_with_doubles : build_without_doubles);
}

bool brax_ending_probe(bool double_captures, int two_colour, const int two[2], int lone, bool lone_to_move,
                       ending_t *out)
{
    int d = double_captures;
    brax_ending_prepare(double_captures);
    if (!tables_ok[d])
        return false;
    assert(two[0] != two[1] && lone != two[0] && lone != two[1]);
    *out = decode(tables[d].code[trio_index((trio_t){two_colour, lone_to_move, two[0], two[1], lone})]);
    return true;
}
