/*
 * brax_endings.c: Brax's smallest endings solved by retrograde analysis,
 * through the game interface only.
 *
 * One man against one is solved by recursion over the quiet plies (each
 * quiet ply counts towards the draw, so the plies only go forward). Two
 * men against one is solved by passes: in pass k a position is won when a
 * move reaches a position lost for the opponent in an earlier pass (or
 * ends the game, or reaches a lost one against one), lost when every move
 * reaches one won for the opponent; pass k so decides the positions won or
 * lost in k plies. What no pass decides is drawn: the defender can keep out
 * of every loss for ever (repetition draws such a game).
 */
#include "brax_endings.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { OPEN = 0, WIN, LOSS, DRAW }; /* for the side to move */

#define POINTS 81
#define NONE UINT32_MAX

/* A map from position keys (the game's tt_key, which tells one-against-one
 * positions apart by their quiet plies) to numbers. */
typedef struct keymap {
    uint64_t *keys; /* 0: empty (a key 0 is stored as 1) */
    uint32_t *vals;
    size_t mask;
} keymap_t;

static bool map_init(keymap_t *m, size_t at_least)
{
    size_t n = 1;
    while (n < 2 * at_least)
        n <<= 1;
    m->keys = calloc(n, sizeof *m->keys);
    m->vals = malloc(n * sizeof *m->vals);
    m->mask = n - 1;
    return m->keys && m->vals;
}

static void map_free(keymap_t *m)
{
    free(m->keys);
    free(m->vals);
}

static size_t map_slot(const keymap_t *m, uint64_t key)
{
    size_t i = (size_t)(key ^ key >> 29) & m->mask;
    while (m->keys[i] && m->keys[i] != key)
        i = (i + 1) & m->mask;
    return i;
}

static void map_put(keymap_t *m, uint64_t key, uint32_t val)
{
    key += key == 0;
    size_t i = map_slot(m, key);
    m->keys[i] = key;
    m->vals[i] = val;
}

static uint32_t map_get(const keymap_t *m, uint64_t key)
{
    key += key == 0;
    size_t i = map_slot(m, key);
    return m->keys[i] ? m->vals[i] : NONE;
}

/* The position with red and blue men on these points (row * 9 + column),
 * in Brax's position string; no call pending. */
static bool set_position(const game_t *g, position_t *pos, const int *red, int nr, const int *blue, int nb,
                         bool red_to_move)
{
    char board[POINTS] = {0};
    for (int i = 0; i < nr; i++)
        board[red[i]] = 'r';
    for (int i = 0; i < nb; i++)
        board[blue[i]] = 'b';
    char fen[128];
    size_t n = 0;
    for (int row = 8; row >= 0; row--) {
        int empty = 0;
        for (int col = 0; col < 9; col++) {
            char ch = board[row * 9 + col];
            if (ch && empty)
                fen[n++] = (char)('0' + empty);
            empty = ch ? 0 : empty + 1;
            if (ch)
                fen[n++] = ch;
        }
        if (empty)
            fen[n++] = (char)('0' + empty);
        fen[n++] = row ? '/' : ' ';
    }
    snprintf(fen + n, sizeof fen - n, "%c - 0", red_to_move ? 'r' : 'b');
    char err[128];
    return g->parse_fen(pos, fen, err, sizeof err);
}

typedef struct solver {
    const game_t *g;
    keymap_t small;     /* one against one, by key: its value */
    keymap_t index;     /* two against one, by key: its number */
    size_t n;           /* two-against-one positions */
    uint8_t *value;     /* per number: WIN, LOSS or OPEN (drawn, at the end) */
    uint8_t *pass;      /* per number: the pass that decided it */
    bool *escape;       /* per number: a move leaves the ending for a draw */
    uint32_t *children; /* the numbers its moves reach, from first[k] to first[k + 1] */
    size_t *first, n_children, cap_children;
} solver_t;

/* The value of a finished game for the side to move, or OPEN. */
static int over_value(const game_t *g, const position_t *pos)
{
    outcome_t o;
    if (!g->decided(pos, &o))
        return g->count_moves(pos) == 0 ? LOSS : OPEN;
    if (o.kind != OUTCOME_WIN)
        return DRAW;
    return (o.players & player_bit(g->to_move(pos))) ? WIN : LOSS;
}

/* One man against one: every move is a capture, which ends the game, or a
 * quiet ply, which brings the draw a ply nearer; so no position repeats. */
static int one_against_one(solver_t *s, position_t *pos)
{
    const game_t *g = s->g;
    int v = over_value(g, pos);
    if (v != OPEN)
        return v;
    uint64_t key = g->tt_key(pos);
    uint32_t known = map_get(&s->small, key);
    if (known != NONE)
        return (int)known;
    move_t moves[MAX_MOVES];
    int n = g->gen_moves(pos, moves);
    v = LOSS;
    for (int i = 0; i < n && v != WIN; i++) {
        undo_t u;
        g->make(pos, moves[i], &u);
        int child = one_against_one(s, pos);
        g->unmake(pos, moves[i], &u);
        v = child == LOSS ? WIN : child == DRAW ? DRAW : v;
    }
    map_put(&s->small, key, (uint32_t)v);
    return v;
}

/* Calls f(s, k, pos) for every two-against-one position, numbered k: the
 * team with two men, their points, the lone man's point, the side to move. */
static size_t each_position(solver_t *s, void (*f)(solver_t *, size_t, position_t *))
{
    size_t k = 0;
    for (int strong = 0; strong < 2; strong++)
        for (int a = 0; a < POINTS; a++)
            for (int b = a + 1; b < POINTS; b++)
                for (int lone = 0; lone < POINTS; lone++) {
                    if (lone == a || lone == b)
                        continue;
                    for (int red_to_move = 0; red_to_move < 2; red_to_move++, k++) {
                        if (!f)
                            continue;
                        int two[2] = {a, b};
                        position_t pos;
                        bool ok = strong == 0 ? set_position(s->g, &pos, two, 2, &lone, 1, red_to_move)
                                              : set_position(s->g, &pos, &lone, 1, two, 2, red_to_move);
                        if (ok)
                            f(s, k, &pos);
                    }
                }
    return k;
}

static void number(solver_t *s, size_t k, position_t *pos) { map_put(&s->index, s->g->tt_key(pos), (uint32_t)k); }

/* The children of position k: its moves that stay two against one are
 * kept for the passes; the others decide now (pass 1) when they can. */
static void link(solver_t *s, size_t k, position_t *pos)
{
    const game_t *g = s->g;
    move_t moves[MAX_MOVES];
    int n = g->gen_moves(pos, moves);
    s->first[k] = s->n_children;
    bool wins = false;
    s->escape[k] = false;
    for (int i = 0; i < n; i++) {
        undo_t u;
        g->make(pos, moves[i], &u);
        uint32_t child = map_get(&s->index, g->tt_key(pos));
        int v = child != NONE ? OPEN : one_against_one(s, pos);
        g->unmake(pos, moves[i], &u);
        if (child != NONE) {
            if (s->n_children == s->cap_children) {
                uint32_t *more = realloc(s->children, 2 * s->cap_children * sizeof *s->children);
                if (!more) {
                    fprintf(stderr, "brax_endings: out of memory\n");
                    exit(1);
                }
                s->children = more;
                s->cap_children *= 2;
            }
            s->children[s->n_children++] = child;
        }
        wins |= v == LOSS;
        s->escape[k] |= v == DRAW;
    }
    s->first[k + 1] = s->n_children;
    if (wins || n == 0) {
        s->value[k] = wins ? WIN : LOSS;
        s->pass[k] = 1;
    }
}

/* Pass p: decides the open positions whose children earlier passes decided
 * enough of; returns how many it decided. */
static size_t pass(solver_t *s, int p)
{
    size_t decided = 0;
    for (size_t k = 0; k < s->n; k++) {
        if (s->value[k] != OPEN)
            continue;
        bool win = false, all_won = !s->escape[k];
        for (size_t c = s->first[k]; c < s->first[k + 1] && !win; c++) {
            uint32_t j = s->children[c];
            bool known = s->value[j] != OPEN && s->pass[j] < p;
            win = known && s->value[j] == LOSS;
            all_won &= known && s->value[j] == WIN;
        }
        if (win || all_won) {
            s->value[k] = win ? WIN : LOSS;
            s->pass[k] = (uint8_t)p;
            decided++;
        }
    }
    return decided;
}

/* Counts for the side with two men, by who is to move; then one against one. */
static void report(solver_t *s, FILE *out, int passes)
{
    size_t won[2] = {0}, lost[2] = {0}, drawn[2] = {0};
    int longest[2] = {0};
    for (size_t k = 0; k < s->n; k++) {
        int strong = k >= s->n / 2, red_to_move = k % 2;
        int lone_moves = strong == red_to_move; /* the lone man is red when blue has two */
        int v = s->value[k];
        if (v == OPEN)
            drawn[lone_moves]++;
        else if ((v == WIN) != lone_moves)
            won[lone_moves]++;
        else
            lost[lone_moves]++;
        if (v != OPEN && s->pass[k] > longest[lone_moves])
            longest[lone_moves] = s->pass[k];
    }
    fprintf(out, "%s: two men against one, %zu positions, decided in %d passes\n", s->g->name, s->n, passes);
    for (int l = 0; l < 2; l++)
        fprintf(out, "  %s to move: two men win %zu (%.1f%%), lose %zu, draw %zu (%.1f%%); longest decided %d plies\n",
                l ? "the lone man" : "the two men", won[l], 100.0 * (double)won[l] / (double)(s->n / 2), lost[l],
                drawn[l], 100.0 * (double)drawn[l] / (double)(s->n / 2), longest[l]);
    size_t one[4] = {0};
    for (int r = 0; r < POINTS; r++)
        for (int b = 0; b < POINTS; b++) {
            position_t pos;
            if (r != b && set_position(s->g, &pos, &r, 1, &b, 1, true))
                one[one_against_one(s, &pos)]++;
        }
    fprintf(out, "%s: one man against one, the mover with no quiet ply yet: wins %zu, loses %zu, draws %zu\n",
            s->g->name, one[WIN], one[LOSS], one[DRAW]);
    fprintf(out, "  (plies count to a capture that leaves the ending or ends the game)\n");
}

int brax_endings(const game_t *g, FILE *out)
{
    solver_t s = {.g = g};
    s.n = each_position(&s, NULL);
    s.cap_children = 16 * s.n;
    s.value = calloc(s.n, sizeof *s.value);
    s.pass = calloc(s.n, sizeof *s.pass);
    s.escape = calloc(s.n, sizeof *s.escape);
    s.first = calloc(s.n + 1, sizeof *s.first);
    s.children = malloc(s.cap_children * sizeof *s.children);
    if (!s.value || !s.pass || !s.escape || !s.first || !s.children || !map_init(&s.index, s.n) ||
        !map_init(&s.small, 2 * POINTS * POINTS * 10)) {
        fprintf(stderr, "brax_endings: out of memory\n");
        return 1;
    }
    each_position(&s, number);
    each_position(&s, link);
    int p = 1;
    while (p < 255 && pass(&s, ++p) > 0)
        ;
    report(&s, out, p - 1);
    free(s.value);
    free(s.pass);
    free(s.escape);
    free(s.first);
    free(s.children);
    map_free(&s.index);
    map_free(&s.small);
    return 0;
}
