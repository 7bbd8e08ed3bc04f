/*
 * dfpn.c: the depth-first proof-number search (solve.h): one thread's
 * recursion (MID, Nagai 2002) with Pawlewicz and Lew's 1 + epsilon
 * thresholds, and the solver object that runs it on one or more threads.
 * Reaches the game through game_t only.
 *
 * OR nodes are those where the side whose win is to be proved (P) moves,
 * AND nodes the others. A node's children are kept in an array of its own
 * while the node is searched, each child's numbers as its last search
 * returned them, so that a value that holds only on this line (below) is
 * never lost between two visits of the loop, and every call returns with
 * its thresholds passed or its result settled: the loop always moves on.
 *
 * Repetition and the graph-history interaction (Kishimoto and Müller): a
 * child that repeats a position of the line (at line index a) is
 * disproved, and remembers a. A disproof carries the set of such indices
 * it rests on: an OR node the union of its children's, an AND node those
 * of its disproved child that rests on fewest. A node at line index A
 * drops those at A and below (cycles within its own subtree, which the
 * defending side may walk on any line). What remains is what the disproof
 * needs on the line above: nothing, and it holds everywhere and is stored
 * as such; one or two positions, and it is stored with their keys, to be
 * believed only on lines that hold them too (a disproof stays one when
 * positions are added to the line: more repetitions are more draws); more,
 * and it is returned to the parent but not stored. Proofs never rest on
 * repetition (a repetition is no win), and are always stored.
 */
#define _POSIX_C_SOURCE 200809L
#include "dfpn_ctx.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/rng.h"
#include "../core/timeman.h"

#define CHECK_EVERY 1024

/* How an OR node's disproof number (an AND node's proof number) is made of
 * its children's: their sum (df-pn as Nagai has it), or, weak proof
 * numbers (Ueda et al. 2008), the largest plus one for each other child
 * still open. Sums count a child reached by several paths once per path,
 * and in games rich in transpositions and cycles (Brandubh) they grow
 * without bound; the weak form does not. */
#ifndef DFPN_WEAK
#define DFPN_WEAK 1
#endif

/* ---- the solver object ---- */

solver_t *solver_new(size_t table_mb)
{
    solver_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->busy = calloc(BUSY_SLOTS, sizeof *s->busy);
    if (!s->busy || !dfpn_table_init(&s->table, table_mb)) {
        free(s->busy);
        free(s);
        return NULL;
    }
    s->threads = 1;
    atomic_init(&s->stop, false);
    atomic_init(&s->finished, false);
    atomic_init(&s->nodes, 0);
    rng_t rng = {0xD0F1A5EEDull};
    for (int i = 0; i < 2; i++)
        s->salt_side[i] = rng_next(&rng);
    for (int i = 0; i < SOLVE_MAX_PLY + 2; i++)
        s->salt_plies[i] = rng_next(&rng);
    return s;
}

void solver_free(solver_t *s)
{
    if (!s)
        return;
    for (int i = 0; i < SOLVE_THREADS_MAX; i++)
        if (s->ctx[i]) {
            dfpn_ctx_release(s->ctx[i]);
            free(s->ctx[i]);
        }
    dfpn_table_free(&s->table);
    free(s->busy);
    free(s);
}

bool solver_set_threads(solver_t *s, int threads)
{
    if (threads < 1 || threads > SOLVE_THREADS_MAX)
        return false;
    for (int i = 0; i < threads; i++)
        if (!s->ctx[i] && !(s->ctx[i] = calloc(1, sizeof *s->ctx[i])))
            return false;
    s->threads = threads;
    return true;
}

size_t solver_table_bytes(const solver_t *s) { return s->table.bytes; }

void solver_clear(solver_t *s) { dfpn_table_clear(&s->table); }

void solver_prefault(solver_t *s) { memset(s->table.buckets, 0, s->table.bytes); }

static int64_t thread_cpu_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

void solver_stop(solver_t *s) { atomic_store(&s->stop, true); }

bool solve_supported(const game_t *g) { return g->players == 2 && !g->chance_outcomes; }

/* ---- one thread's context ---- */

static int cmp_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

bool dfpn_ctx_setup(dfpn_ctx_t *c, solver_t *s, const solve_request_t *req, const dfpn_ctx_t *above, int n_above,
                    bool rep_by_state, int id)
{
    c->s = s;
    c->g = req->game;
    c->req = req;
    c->id = id;
    c->pos = req->root;
    c->side = req->side;
    c->plies = req->plies > SOLVE_MAX_PLY ? SOLVE_MAX_PLY : req->plies;
    c->rep_by_state = rep_by_state;
    /* The filters are cleared by taking off what the last setup put on
     * (a search leaves the line as it found it), not by clearing them
     * whole: the proof writer sets a context up for every position it
     * searches again. */
    if (c->ready) {
        for (int i = 0; i <= c->base; i++) {
            c->filter[c->path[i] & (PATH_FILTER_SIZE - 1)]--;
            c->sfilter[c->spath[i] & (PATH_FILTER_SIZE - 1)]--;
        }
        for (int i = 0; i < c->n_twice; i++)
            c->twice_filter[(c->twice[i] & (PATH_FILTER_SIZE - 1)) >> 3] = 0;
    } else {
        memset(c->filter, 0, sizeof c->filter);
        memset(c->sfilter, 0, sizeof c->sfilter);
        memset(c->twice_filter, 0, sizeof c->twice_filter);
    }
    c->ready = true;
    c->nodes = c->published = 0;
    c->stopped = false;
    c->root_pn = c->root_dn = 1;
    c->ply = 0;
    c->unwind = -1;
    if (!above || n_above > PATH_MAX_LEN - SOLVE_MAX_PLY - 2)
        n_above = above ? PATH_MAX_LEN - SOLVE_MAX_PLY - 2 : 0;
    for (int i = 0; i < n_above; i++) {
        /* The other context may count repetition by the other key. */
        c->spath[i] = above->spath[i];
        c->path[i] = rep_by_state == above->rep_by_state ? above->path[i] : 0;
        c->filter[c->path[i] & (PATH_FILTER_SIZE - 1)]++;
        c->sfilter[c->spath[i] & (PATH_FILTER_SIZE - 1)]++;
    }
    c->base = n_above;
    c->path[c->base] = dfpn_rep_key(c, &c->pos);
    c->spath[c->base] = dfpn_state_key(c, &c->pos);
    c->filter[c->path[c->base] & (PATH_FILTER_SIZE - 1)]++;
    c->sfilter[c->spath[c->base] & (PATH_FILTER_SIZE - 1)]++;

    /* Positions seen twice before the root draw a third time. */
    free(c->twice);
    free(c->hist);
    c->n_twice = 0;
    int n = req->history_len < SOLVE_HISTORY_MAX ? req->history_len : SOLVE_HISTORY_MAX;
    c->n_hist = n;
    c->hist = malloc(sizeof *c->hist * (size_t)(n + 1));
    c->twice = malloc(sizeof *c->twice * (size_t)(n + 1));
    if (!c->hist || !c->twice) {
        c->ready = false;
        return false;
    }
    if (n)
        memcpy(c->hist, req->history + (req->history_len - n), sizeof *c->hist * (size_t)n);
    qsort(c->hist, (size_t)n, sizeof *c->hist, cmp_key);
    for (int i = 0; i + 1 < n; i++)
        if (c->hist[i] == c->hist[i + 1] && (c->n_twice == 0 || c->twice[c->n_twice - 1] != c->hist[i])) {
            uint64_t k = c->hist[i];
            c->twice[c->n_twice++] = k;
            c->twice_filter[(k & (PATH_FILTER_SIZE - 1)) >> 3] |= (uint8_t)(1u << (k & 7));
        }
    c->start_ms = timeman_now_ms();
    if (req->progress_ms > 0) {
        int64_t from = req->progress_from_ms ? req->progress_from_ms : c->start_ms;
        c->next_progress_ms = from + ((c->start_ms - from) / req->progress_ms + 1) * req->progress_ms;
    }
    return true;
}

void dfpn_ctx_release(dfpn_ctx_t *c)
{
    for (int i = 0; i <= SOLVE_MAX_PLY; i++) {
        free(c->kids[i]);
        c->kids[i] = NULL;
    }
    free(c->twice);
    free(c->hist);
    c->twice = c->hist = NULL;
    c->n_twice = c->n_hist = 0;
    c->ready = false;
}

int dfpn_history_count(const dfpn_ctx_t *c, uint64_t hash)
{
    int lo = 0, hi = c->n_hist;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (c->hist[mid] < hash)
            lo = mid + 1;
        else
            hi = mid;
    }
    int n = 0;
    while (lo + n < c->n_hist && c->hist[lo + n] == hash)
        n++;
    return n;
}

uint64_t dfpn_key(const dfpn_ctx_t *c, int ply)
{
    const game_t *g = c->g;
    uint64_t key = (g->tt_key ? g->tt_key(&c->pos) : g->hash(&c->pos)) ^ c->s->salt_side[c->side];
    if (c->plies)
        key ^= c->s->salt_plies[c->plies - ply < 0 ? 0 : c->plies - ply];
    return key;
}

static bool seen_twice(const dfpn_ctx_t *c, uint64_t key)
{
    if (!(c->twice_filter[(key & (PATH_FILTER_SIZE - 1)) >> 3] & (1u << (key & 7))))
        return false;
    return bsearch(&key, c->twice, (size_t)c->n_twice, sizeof key, cmp_key) != NULL;
}

/* The line index of an earlier position of the line equal to the one at
 * index `at` (rep key `key`), or -1. */
static int on_line(const dfpn_ctx_t *c, uint64_t key, int at)
{
    if (!c->filter[key & (PATH_FILTER_SIZE - 1)])
        return -1;
    for (int a = at - 1; a >= 0; a--)
        if (c->path[a] == key)
            return a;
    return -1;
}

/* The same by the whole state. */
static int on_state_line(const dfpn_ctx_t *c, uint64_t key, int at)
{
    if (!c->sfilter[key & (PATH_FILTER_SIZE - 1)])
        return -1;
    for (int a = at - 1; a >= 0; a--)
        if (c->spath[a] == key)
            return a;
    return -1;
}

void dfpn_line_push(dfpn_ctx_t *c, int ply)
{
    int at = c->base + ply;
    c->path[at] = dfpn_rep_key(c, &c->pos);
    c->spath[at] = dfpn_state_key(c, &c->pos);
    c->filter[c->path[at] & (PATH_FILTER_SIZE - 1)]++;
    c->sfilter[c->spath[at] & (PATH_FILTER_SIZE - 1)]++;
}

void dfpn_line_pop(dfpn_ctx_t *c, int ply)
{
    int at = c->base + ply;
    c->filter[c->path[at] & (PATH_FILTER_SIZE - 1)]--;
    c->sfilter[c->spath[at] & (PATH_FILTER_SIZE - 1)]--;
}

/* ---- what disproofs rest on ---- */

static const deps_t NO_DEPS = {0, {0, 0}};

static deps_t deps_one(int a) { return (deps_t){1, {(int16_t)a, 0}}; }

static deps_t deps_union(deps_t a, deps_t b)
{
    if (a.n == DEPS_OVER || b.n == DEPS_OVER)
        return (deps_t){DEPS_OVER, {0, 0}};
    for (int i = 0; i < b.n; i++) {
        bool have = false;
        for (int k = 0; k < a.n; k++)
            have |= a.at[k] == b.at[i];
        if (have)
            continue;
        if (a.n == DEPS_MAX)
            return (deps_t){DEPS_OVER, {0, 0}};
        a.at[a.n++] = b.at[i];
    }
    return a;
}

/* Without the positions at line index `from` and below. */
static deps_t deps_above(deps_t d, int from)
{
    if (d.n == DEPS_OVER)
        return d;
    deps_t out = NO_DEPS;
    for (int i = 0; i < d.n; i++)
        if (d.at[i] < from)
            out.at[out.n++] = d.at[i];
    return out;
}

static bool wins_for_side(const dfpn_ctx_t *c, outcome_t o)
{
    return o.kind == OUTCOME_WIN && c->g->team_of[player_first(o.players)] == c->side;
}

static void set_proven(dfpn_child_t *k, int dist)
{
    k->pn = 0;
    k->dn = DFPN_INF;
    k->dist = (uint16_t)(dist > UINT16_MAX ? UINT16_MAX : dist);
    k->deps = NO_DEPS;
}

static void set_disproven(dfpn_child_t *k, deps_t deps)
{
    k->pn = DFPN_INF;
    k->dn = 0;
    k->dist = 0;
    k->deps = deps;
}

/* A first estimate of a child the table may not know (df-pn+): a side
 * with few moves is the easier to settle, so an OR child starts with a
 * disproof number and an AND child with a proof number of its moves.
 * Facing a threat to win at once only the answers count (game.h); with
 * none the side to move loses after any move, and with no move at all the
 * game is over: both settle the child (true). */
static bool estimate(dfpn_ctx_t *c, int ply, dfpn_child_t *k)
{
    const game_t *g = c->g;
    bool or_child = g->team_of[g->to_move(&c->pos)] == c->side;
    int n;
    if (g->must_respond && g->gen_noisy && g->must_respond(&c->pos)) {
        move_t answers[MAX_MOVES];
        n = g->gen_noisy(&c->pos, answers);
        if (n == 0) { /* P's win two plies on, if P wins (and within the limit) */
            if (or_child || (c->plies && ply + 2 > c->plies))
                set_disproven(k, NO_DEPS);
            else
                set_proven(k, 2);
            return true;
        }
    } else {
        n = g->count_moves(&c->pos);
    }
    if (n == 0) {
        if (wins_for_side(c, g->outcome(&c->pos)))
            set_proven(k, 0);
        else
            set_disproven(k, NO_DEPS);
        return true;
    }
    k->pn = or_child ? 1 : (uint32_t)n;
    k->dn = or_child ? (uint32_t)n : 1;
    k->dist = 0;
    return false;
}

bool dfpn_child_static(dfpn_ctx_t *c, int ply, dfpn_child_t *k)
{
    const game_t *g = c->g;
    outcome_t o;
    if (g->decided(&c->pos, &o)) {
        if (wins_for_side(c, o))
            set_proven(k, 0);
        else
            set_disproven(k, NO_DEPS);
        return true;
    }
    uint64_t hash = g->hash(&c->pos);
    uint64_t rep = c->rep_by_state && g->tt_key ? g->tt_key(&c->pos) : hash;
    int a = on_line(c, rep, c->base + ply);
    if (a >= 0) {
        set_disproven(k, deps_one(a));
        return true;
    }
    if (seen_twice(c, hash)) {
        set_disproven(k, NO_DEPS);
        return true;
    }
    if (c->plies && ply >= c->plies) {
        /* The limit: only a game over by having no move can still be won. */
        if (g->count_moves(&c->pos) == 0 && wins_for_side(c, g->outcome(&c->pos)))
            set_proven(k, 0);
        else
            set_disproven(k, NO_DEPS);
        return true;
    }
    k->key = dfpn_key(c, ply);
    dfpn_table_prefetch(&c->s->table, k->key);
    return estimate(c, ply, k);
}

/* Is the table's entry for k believed on this line (k at `ply`)? Then k
 * takes its value. */
static bool take_hit(const dfpn_ctx_t *c, int ply, dfpn_child_t *k, const dfpn_hit_t *hit)
{
    deps_t d = NO_DEPS;
    if (hit->flags & DFPN_ON_LINE)
        for (int i = 0; i < hit->deps; i++) {
            int a = on_state_line(c, hit->dep[i], c->base + ply);
            if (a < 0)
                return false;
            d.at[d.n++] = (int16_t)a;
        }
    k->pn = hit->pn;
    k->dn = hit->dn;
    k->dist = hit->dist;
    k->deps = d;
    return true;
}

void dfpn_child_probe(dfpn_ctx_t *c, int ply, dfpn_child_t *k)
{
    dfpn_hit_t hit;
    k->deps = NO_DEPS;
    if (dfpn_table_probe(&c->s->table, k->key, &hit))
        take_hit(c, ply, k, &hit);
}

void dfpn_child_value(dfpn_ctx_t *c, int ply, dfpn_child_t *k)
{
    k->key = 0;
    if (!dfpn_child_static(c, ply, k))
        dfpn_child_probe(c, ply, k);
}

/* ---- the search ---- */

static void publish(dfpn_ctx_t *c)
{
    atomic_fetch_add(&c->s->nodes, c->nodes - c->published);
    c->published = c->nodes;
}

/* With other threads: has one settled a node of this thread's line? The
 * shallowest such (settled on any line: a proof, or a disproof that rests
 * on no repetition) is where this thread returns to (mid). */
static void check_line(dfpn_ctx_t *c)
{
    for (int p = 0; p <= c->ply; p++) {
        dfpn_hit_t hit;
        if (dfpn_table_probe(&c->s->table, c->line_key[p], &hit) && !(hit.flags & DFPN_ON_LINE) &&
            (hit.pn == 0 || hit.dn == 0)) {
            c->unwind = p;
            return;
        }
    }
}

/* Polled every CHECK_EVERY positions: the limits, progress, and the line. */
static void check_limits(dfpn_ctx_t *c)
{
    solver_t *s = c->s;
    publish(c);
    if (s->threads > 1 && c->unwind < 0)
        check_line(c);
    const solve_request_t *r = c->req;
    int64_t now = timeman_now_ms();
    if (atomic_load(&s->stop) || atomic_load(&s->finished) || (r->nodes && atomic_load(&s->nodes) >= r->nodes) ||
        (r->ms && now - c->start_ms >= r->ms))
        c->stopped = true;
    if (c->id == 0 && r->progress && r->progress_ms > 0 && now >= c->next_progress_ms) {
        solve_progress_t p = {c->side, c->root_pn, c->root_dn, atomic_load(&s->nodes), now - c->start_ms,
                              dfpn_table_permille(&s->table)};
        r->progress(r->progress_ctx, &p);
        while (c->next_progress_ms <= now)
            c->next_progress_ms += r->progress_ms;
    }
}

static inline void count_node(dfpn_ctx_t *c)
{
    if ((++c->nodes & (CHECK_EVERY - 1)) == 0)
        check_limits(c);
}

static bool is_or(const dfpn_ctx_t *c) { return c->g->team_of[c->g->to_move(&c->pos)] == c->side; }

static dfpn_child_t *kids_at(dfpn_ctx_t *c, int ply)
{
    if (!c->kids[ply])
        c->kids[ply] = malloc(sizeof(dfpn_child_t) * MAX_MOVES);
    return c->kids[ply];
}

static void push(dfpn_ctx_t *c, int ply, move_t m, undo_t *u)
{
    c->g->make(&c->pos, m, u);
    dfpn_line_push(c, ply + 1);
}

static void pop(dfpn_ctx_t *c, int ply, move_t m, const undo_t *u)
{
    dfpn_line_pop(c, ply + 1);
    c->g->unmake(&c->pos, m, u);
}

/* The moves of the node, restricted to the answers when the side to move
 * must answer a threat to win at once (the others lose at once: game.h).
 * *dropped_wins: at an AND node, moves dropped that lose to P's next move. */
static int node_moves(dfpn_ctx_t *c, int ply, bool or_node, move_t *moves, bool *dropped_wins)
{
    const game_t *g = c->g;
    *dropped_wins = false;
    int n = g->gen_moves(&c->pos, moves);
    if (n == 0 || !g->must_respond || !g->gen_noisy || !g->must_respond(&c->pos))
        return n;
    /* At an AND node a dropped move is P's win a ply later: not within
     * a limit that ends before it. */
    if (!or_node && c->plies && c->plies - ply < 2)
        return n;
    move_t answers[MAX_MOVES];
    int k = g->gen_noisy(&c->pos, answers);
    if (k == 0 || k == n)
        return n;
    memcpy(moves, answers, sizeof *moves * (size_t)k);
    *dropped_wins = !or_node;
    return k;
}

/* Does child k settle its parent at once (a proved child of an OR node,
 * one disproved on any line of an AND node)? Then *v is the parent's. */
static bool settles(bool or_node, const dfpn_child_t *k, dfpn_value_t *v)
{
    if (or_node && k->pn == 0) {
        *v = (dfpn_value_t){0, DFPN_INF, (uint16_t)(k->dist + 1), NO_DEPS};
        return true;
    }
    if (!or_node && k->dn == 0 && k->deps.n == 0) {
        *v = (dfpn_value_t){DFPN_INF, 0, 0, NO_DEPS};
        return true;
    }
    return false;
}

/* Makes every child and values it. Returns how many, or -1 when the node
 * is settled on the way (a finished game, a child that settles it), with
 * its value in *v. */
static int expand(dfpn_ctx_t *c, int ply, bool or_node, dfpn_child_t *kids, bool *dropped_wins, dfpn_value_t *v)
{
    const game_t *g = c->g;
    move_t moves[MAX_MOVES];
    int n = node_moves(c, ply, or_node, moves, dropped_wins);
    if (n == 0) {
        bool won = wins_for_side(c, g->outcome(&c->pos));
        *v = won ? (dfpn_value_t){0, DFPN_INF, 0, NO_DEPS} : (dfpn_value_t){DFPN_INF, 0, 0, NO_DEPS};
        return -1;
    }
    /* First every child's own verdict, prefetching the table's entries of
     * the others; then the table. */
    bool probe[MAX_MOVES];
    for (int i = 0; i < n; i++) {
        dfpn_child_t *k = &kids[i];
        undo_t u;
        k->move = moves[i];
        k->key = 0;
        g->make(&c->pos, moves[i], &u);
        count_node(c);
        probe[i] = !dfpn_child_static(c, ply + 1, k);
        g->unmake(&c->pos, moves[i], &u);
        if (!probe[i] && settles(or_node, k, v))
            return -1;
    }
    for (int i = 0; i < n; i++)
        if (probe[i]) {
            dfpn_child_probe(c, ply + 1, &kids[i]);
            if (settles(or_node, &kids[i], v))
                return -1;
        }
    return n;
}

static uint32_t sat_add(uint32_t a, uint32_t b)
{
    uint64_t s = (uint64_t)a + b;
    return s > DFPN_CAP ? DFPN_CAP : (uint32_t)s;
}

/* Virtual loss: a child other threads are in looks worse by a quarter (at
 * least one) for each of them: the margin of child_threshold's 1 +
 * epsilon, so that the next thread takes the sibling that the first would
 * itself turn to once its child grows by that much, and no other: the
 * threads follow one line until a sibling is that close, and each sees
 * the other's work through refresh(). (Doubling the number, as
 * before, parted them at the root: the second thread worked on moves the
 * proof did not need, up to 14 times the nodes. One unit, or a half, was
 * measured worse than a quarter: `bench_denham solve-smp 2`, medians of
 * 1.15x and 1.12x against 1.26x over three runs.) */
static uint32_t busy_penalty(const dfpn_ctx_t *c, const dfpn_child_t *k, uint32_t x)
{
    if (c->s->threads == 1 || x >= DFPN_CAP)
        return x;
    unsigned b = atomic_load_explicit(&c->s->busy[k->key & (BUSY_SLOTS - 1)], memory_order_relaxed);
    uint64_t y = (uint64_t)x + (uint64_t)b * (x / 4 > 1 ? x / 4 : 1);
    return y >= DFPN_CAP ? DFPN_CAP : (uint32_t)y;
}

/* The node's value from its children's, the child to search next (*best)
 * and the second best's number. */
static void summarize(const dfpn_ctx_t *c, const dfpn_child_t *kids, int n, bool or_node, bool dropped_wins,
                      dfpn_value_t *v, int *best, uint32_t *second)
{
    uint32_t lo = DFPN_INF, lo2 = DFPN_INF, sum = 0, real_lo = DFPN_INF, most = 0, open = 0;
    int b = -1, settled = 0, dist_min = UINT16_MAX, dist_max = dropped_wins ? 1 : 0;
    deps_t all = NO_DEPS, fewest = {DEPS_OVER + 1, {0, 0}};
    for (int i = 0; i < n; i++) {
        const dfpn_child_t *k = &kids[i];
        /* OR: choose by pn, add up dn; AND: the other way. */
        uint32_t choose = or_node ? k->pn : k->dn, add = or_node ? k->dn : k->pn;
        if (choose == 0) { /* OR: a proved child; AND: a disproved one */
            settled++;
            if (or_node && k->dist < dist_min)
                dist_min = k->dist;
            if (!or_node && k->deps.n < fewest.n)
                fewest = k->deps;
            continue;
        }
        if (add == 0) { /* OR: a disproved child; AND: a proved one */
            if (or_node)
                all = deps_union(all, k->deps);
            if (!or_node && k->dist > dist_max)
                dist_max = k->dist;
            continue;
        }
        uint32_t x = busy_penalty(c, k, choose);
        if (choose < real_lo)
            real_lo = choose;
        if (x < lo) {
            lo2 = lo;
            lo = x;
            b = i;
        } else if (x < lo2) {
            lo2 = x;
        }
        sum = sat_add(sum, add);
        most = add > most ? add : most;
        open++;
    }
    if (DFPN_WEAK && open)
        sum = sat_add(most, open - 1);
    *best = b;
    *second = lo2;
    if (settled) { /* OR proved, AND disproved */
        if (or_node)
            *v = (dfpn_value_t){0, DFPN_INF, (uint16_t)(dist_min + 1), NO_DEPS};
        else
            *v = (dfpn_value_t){DFPN_INF, 0, 0, fewest};
    } else if (b < 0) { /* OR: all disproved; AND: all proved */
        if (or_node)
            *v = (dfpn_value_t){DFPN_INF, 0, 0, all};
        else
            *v = (dfpn_value_t){0, DFPN_INF, (uint16_t)(dist_max + 1), NO_DEPS};
    } else {
        *v = or_node ? (dfpn_value_t){real_lo, sum, 0, NO_DEPS} : (dfpn_value_t){sum, real_lo, 0, NO_DEPS};
    }
}

/* The threshold of the child searched next, 1 + epsilon (epsilon 1/4):
 * it returns once it is a quarter worse than the second best. */
static uint32_t child_threshold(uint32_t th, uint32_t second)
{
    if (second >= DFPN_CAP)
        return th;
    uint64_t t = (uint64_t)second + (second / 4 > 1 ? second / 4 : 1);
    return t < th ? (uint32_t)t : th;
}

/* Stores the node's value; a disproof with what it rests on above the
 * node (which it returns, for the parent). */
static void store(dfpn_ctx_t *c, int ply, uint64_t key, dfpn_value_t *v, uint64_t work)
{
    if (v->dn == 0) {
        v->deps = deps_above(v->deps, c->base + ply);
        if (v->deps.n == DEPS_OVER)
            return; /* holds on this line only */
        if (v->deps.n > 0) {
            uint64_t keys[DEPS_MAX];
            for (int i = 0; i < v->deps.n; i++)
                keys[i] = c->spath[v->deps.at[i]];
            dfpn_table_store_on_line(&c->s->table, key, keys, v->deps.n, work);
            return;
        }
    }
    dfpn_table_store(&c->s->table, key, v->pn, v->dn, v->dist, work);
}

/* With other threads on the table: every open child's numbers as the
 * table has them now (what the other threads found below it, settled or
 * not), keeping what this line settled. Open numbers are estimates that
 * hold on any line, so taking another thread's is always sound; a settled
 * value is taken only as take_hit believes it on this line. */
static void refresh(dfpn_ctx_t *c, int ply, dfpn_child_t *kids, int n)
{
    for (int i = 0; i < n; i++) {
        dfpn_child_t *k = &kids[i];
        dfpn_hit_t hit;
        if (k->pn == 0 || k->dn == 0 || !dfpn_table_probe(&c->s->table, k->key, &hit))
            continue;
        if (hit.pn == 0 || hit.dn == 0) {
            take_hit(c, ply + 1, k, &hit);
        } else {
            k->pn = hit.pn;
            k->dn = hit.dn;
        }
    }
}

/* The table's value of the node of `key` when another thread settled it
 * on any line (check_line). */
static bool settled_in_table(dfpn_ctx_t *c, uint64_t key, dfpn_value_t *v)
{
    dfpn_hit_t hit;
    if (!dfpn_table_probe(&c->s->table, key, &hit) || (hit.flags & DFPN_ON_LINE) || (hit.pn != 0 && hit.dn != 0))
        return false;
    *v = (dfpn_value_t){hit.pn, hit.dn, hit.dist, NO_DEPS};
    return true;
}

static void mid(dfpn_ctx_t *c, int ply, uint64_t key, uint32_t thpn, uint32_t thdn, dfpn_value_t *v)
{
    uint64_t nodes0 = c->nodes;
    if (ply >= SOLVE_MAX_PLY) { /* too deep: worse than anything, settled nowhere */
        *v = (dfpn_value_t){DFPN_CAP, DFPN_CAP, 0, NO_DEPS};
        return;
    }
    bool or_node = is_or(c), dropped_wins;
    dfpn_child_t *kids = kids_at(c, ply);
    if (!kids) {
        c->stopped = true;
        *v = (dfpn_value_t){DFPN_CAP, DFPN_CAP, 0, NO_DEPS};
        return;
    }
    c->line_key[ply] = key;
    c->ply = ply;
    int n = expand(c, ply, or_node, kids, &dropped_wins, v);
    while (n > 0) {
        int best;
        uint32_t second;
        if (c->s->threads > 1)
            refresh(c, ply, kids, n);
        summarize(c, kids, n, or_node, dropped_wins, v, &best, &second);
        if (ply == 0) {
            c->root_pn = v->pn;
            c->root_dn = v->dn;
        }
        if (c->unwind >= 0) { /* another thread settled a node of this line */
            if (c->unwind < ply)
                break; /* one above: back to it */
            c->unwind = -1;
            if (settled_in_table(c, key, v))
                return; /* this one: the search goes on from its parent */
        }
        if (v->pn >= thpn || v->dn >= thdn || c->stopped)
            break;
        dfpn_child_t *k = &kids[best];
        uint32_t cpn, cdn;
        if (or_node) {
            cpn = child_threshold(thpn, second);
            cdn = thdn >= DFPN_CAP ? DFPN_CAP : thdn - v->dn + k->dn;
        } else {
            cdn = child_threshold(thdn, second);
            cpn = thpn >= DFPN_CAP ? DFPN_CAP : thpn - v->pn + k->pn;
        }
        undo_t u;
        atomic_uchar *busy = &c->s->busy[k->key & (BUSY_SLOTS - 1)];
        if (c->s->threads > 1)
            atomic_fetch_add_explicit(busy, 1, memory_order_relaxed);
        push(c, ply, k->move, &u);
        dfpn_value_t cv;
        mid(c, ply + 1, k->key, cpn, cdn, &cv);
        pop(c, ply, k->move, &u);
        c->ply = ply;
        if (c->s->threads > 1)
            atomic_fetch_sub_explicit(busy, 1, memory_order_relaxed);
        k->pn = cv.pn;
        k->dn = cv.dn;
        k->dist = cv.dist;
        k->deps = cv.deps;
    }
    store(c, ply, key, v, c->nodes - nodes0);
}

/* The first move of the proof at a proved OR root: the proved child of
 * fewest plies. */
static move_t best_move(dfpn_ctx_t *c)
{
    if (!is_or(c))
        return MOVE_NONE;
    move_t moves[MAX_MOVES];
    int n = c->g->gen_moves(&c->pos, moves), best_dist = INT32_MAX;
    move_t best = MOVE_NONE;
    for (int i = 0; i < n; i++) {
        undo_t u;
        dfpn_child_t k;
        c->g->make(&c->pos, moves[i], &u);
        dfpn_child_value(c, 1, &k);
        c->g->unmake(&c->pos, moves[i], &u);
        if (k.pn == 0 && k.dist < best_dist) {
            best_dist = k.dist;
            best = moves[i];
        }
    }
    return best;
}

solve_result_t dfpn_search(dfpn_ctx_t *c)
{
    solve_result_t r = {0};
    dfpn_value_t v;
    uint64_t key = dfpn_key(c, 0);
    outcome_t o;
    if (c->g->decided(&c->pos, &o)) {
        bool won = wins_for_side(c, o);
        v = won ? (dfpn_value_t){0, DFPN_INF, 0, NO_DEPS} : (dfpn_value_t){DFPN_INF, 0, 0, NO_DEPS};
    } else {
        mid(c, 0, key, DFPN_CAP, DFPN_CAP, &v);
    }
    publish(c);
    r.pn = v.pn;
    r.dn = v.dn;
    r.status = v.pn == 0 ? SOLVE_PROVEN : v.dn == 0 ? SOLVE_DISPROVEN : SOLVE_OPEN;
    r.dist = r.status == SOLVE_PROVEN ? v.dist : 0;
    if (r.status == SOLVE_PROVEN && c->id == 0)
        r.best = best_move(c);
    r.nodes = c->nodes;
    r.ms = timeman_now_ms() - c->start_ms;
    return r;
}

/* ---- threads ---- */

static void *helper_main(void *arg)
{
    dfpn_ctx_t *c = arg;
    int64_t cpu = thread_cpu_us();
    solve_result_t r = dfpn_search(c);
    if (r.status != SOLVE_OPEN)
        atomic_store(&c->s->finished, true);
    c->cpu_us = thread_cpu_us() - cpu;
    return NULL;
}

solve_result_t solver_run(solver_t *s, const solve_request_t *req)
{
    solve_result_t r = {0};
    if (!s->ctx[0] && !(s->ctx[0] = calloc(1, sizeof *s->ctx[0])))
        return r;
    atomic_store(&s->finished, false);
    atomic_store(&s->nodes, 0);
    int started = 0;
    thr_t helpers[SOLVE_THREADS_MAX];
    for (int i = 0; i < s->threads; i++)
        if (!dfpn_ctx_setup(s->ctx[i], s, req, NULL, 0, false, i))
            return r;
    for (int i = 1; i < s->threads; i++)
        if (thr_create(&helpers[started + 1], helper_main, s->ctx[i]))
            started++;
    int64_t cpu = thread_cpu_us();
    r = dfpn_search(s->ctx[0]);
    r.cpu_us_max = r.cpu_us_total = thread_cpu_us() - cpu;
    atomic_store(&s->finished, true);
    for (int i = 1; i <= started; i++) {
        thr_join(helpers[i]);
        int64_t t = s->ctx[i]->cpu_us;
        r.cpu_us_total += t;
        r.cpu_us_max = t > r.cpu_us_max ? t : r.cpu_us_max;
    }
    /* A helper may have settled the root first: the table has it. */
    if (r.status == SOLVE_OPEN && started) {
        int64_t cpu_max = r.cpu_us_max, cpu_total = r.cpu_us_total;
        dfpn_hit_t hit;
        if (dfpn_table_probe(&s->table, dfpn_key(s->ctx[0], 0), &hit) && (hit.pn == 0 || hit.dn == 0)) {
            r.pn = hit.pn;
            r.dn = hit.dn;
            r.status = hit.pn == 0 ? SOLVE_PROVEN : SOLVE_DISPROVEN;
            r.dist = hit.pn == 0 ? hit.dist : 0;
            if (r.status == SOLVE_PROVEN)
                r.best = best_move(s->ctx[0]);
        }
        r.cpu_us_max = cpu_max;
        r.cpu_us_total = cpu_total;
    }
    r.nodes = atomic_load(&s->nodes);
    return r;
}
