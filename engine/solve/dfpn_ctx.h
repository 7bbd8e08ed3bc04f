/*
 * dfpn_ctx.h: what the solver's files share and nobody else sees: the
 * solver object and one thread's search (dfpn_ctx_t). Included by
 * engine/solve/ files only: solve.h stays the only way in. Knows no game's
 * rules: a game is its game_t.
 */
#ifndef DENHAM_DFPN_CTX_H
#define DENHAM_DFPN_CTX_H

#include "../core/thread.h"

#include "dfpn_table.h"
#include "solve.h"

/* What a disproof rests on: the line indices of the positions above it
 * that it returns to (n of them; none: it holds on any line). More than
 * DEPS_MAX: n is DEPS_OVER, and it holds on this line only. */
#define DEPS_MAX 2
#define DEPS_OVER (DEPS_MAX + 1)
typedef struct deps {
    int16_t n;
    int16_t at[DEPS_MAX];
} deps_t;

/* One move of a node being searched, with what is known of its child. */
typedef struct dfpn_child {
    move_t move;
    uint32_t pn, dn;
    uint16_t dist; /* proved: plies to the win from the child */
    deps_t deps;   /* disproved: what it rests on */
    uint64_t key;  /* the child's table key */
} dfpn_child_t;

/* A node's value as a search leaves it. */
typedef struct dfpn_value {
    uint32_t pn, dn;
    uint16_t dist;
    deps_t deps;
} dfpn_value_t;

#define PATH_FILTER_SIZE (1 << 16)
#define PATH_MAX_LEN (2 * SOLVE_MAX_PLY + 2)

typedef struct dfpn_ctx {
    solver_t *s;
    const game_t *g;
    int id; /* the thread; 0 reports progress and finds the proof's first move */
    bool ready; /* set up before: the filters hold its last line */
    position_t pos;
    int side;   /* the team whose win is to be proved */
    int plies;  /* a win within this many plies from the root; 0: any */
    /* Repetition on the line by the table's key (the whole state) rather
     * than by game_t.hash: for the proof writer (proof.c). */
    bool rep_by_state;
    /* The line: repetition keys of its positions, path[0 .. base-1] those
     * above the root (the proof writer's line), path[base] the root's,
     * path[base + ply] the position at ply; and the same positions by
     * their whole state (the table's key, game_t.tt_key), which is what
     * a disproof that rests on them remembers. */
    uint64_t path[PATH_MAX_LEN], spath[PATH_MAX_LEN];
    int base;
    uint8_t filter[PATH_FILTER_SIZE];  /* positions of the line by their low key bits */
    uint8_t sfilter[PATH_FILTER_SIZE]; /* the same by state */
    /* The repetition keys (game_t.hash) of the game before the root,
     * sorted, and those it has seen twice (a third time draws), with a
     * filter of their low key bits. */
    uint64_t *hist, *twice;
    int n_hist, n_twice;
    uint8_t twice_filter[PATH_FILTER_SIZE / 8];
    dfpn_child_t *kids[SOLVE_MAX_PLY + 1]; /* each ply's moves, allocated when first reached */
    uint64_t nodes;     /* positions made by this thread */
    uint64_t published; /* of them, added to the solver's count */
    int64_t start_ms, next_progress_ms;
    const solve_request_t *req;
    bool stopped;
    uint32_t root_pn, root_dn; /* as the root's loop last saw them */
    /* With other threads: the table keys of the line's nodes being searched
     * (line_key[0 .. ply]), and the shallowest of them another thread has
     * settled since (-1: none), to which the search returns at once. */
    uint64_t line_key[SOLVE_MAX_PLY + 1];
    int ply;
    int unwind;
    int64_t cpu_us; /* a helper's processor time in its last solve */
} dfpn_ctx_t;

#define BUSY_SLOTS (1 << 20)

struct solver {
    dfpn_table_t table;
    int threads;
    atomic_bool stop;     /* solver_stop */
    atomic_bool finished; /* a thread settled the root, or the budget is spent */
    _Atomic uint64_t nodes;
    atomic_uchar *busy; /* threads inside each position, by key (virtual loss) */
    dfpn_ctx_t *ctx[SOLVE_THREADS_MAX];
    uint64_t salt_side[2];
    uint64_t salt_plies[SOLVE_MAX_PLY + 2];
};

/* Sets c up for req, with the first n_above positions of the line of
 * `above` (another context, or NULL) as the line above the root; false
 * when out of memory. */
bool dfpn_ctx_setup(dfpn_ctx_t *c, solver_t *s, const solve_request_t *req, const dfpn_ctx_t *above, int n_above,
                    bool rep_by_state, int id);
void dfpn_ctx_release(dfpn_ctx_t *c);
/* One thread's search of c's root (dfpn.c). */
solve_result_t dfpn_search(dfpn_ctx_t *c);

/* The table key of the position c stands on, `ply` plies below the root. */
uint64_t dfpn_key(const dfpn_ctx_t *c, int ply);
/* The whole state's key of pos (the table's, without its salts). */
static inline uint64_t dfpn_state_key(const dfpn_ctx_t *c, const position_t *pos)
{
    return c->g->tt_key ? c->g->tt_key(pos) : c->g->hash(pos);
}

/* The repetition key of pos as c counts repetition. */
static inline uint64_t dfpn_rep_key(const dfpn_ctx_t *c, const position_t *pos)
{
    return c->rep_by_state ? dfpn_state_key(c, pos) : c->g->hash(pos);
}

/* Puts pos (just made, `ply` plies below the root) on the line, and takes
 * it off again. */
void dfpn_line_push(dfpn_ctx_t *c, int ply);
void dfpn_line_pop(dfpn_ctx_t *c, int ply);

/* How often the game before the root has seen this repetition key. */
int dfpn_history_count(const dfpn_ctx_t *c, uint64_t hash);

/* The value of a child just made (c->pos is the child, `ply` its ply):
 * a finished game, a repetition, the depth limit, the table or a first
 * estimate. Counts nothing. */
void dfpn_child_value(dfpn_ctx_t *c, int ply, dfpn_child_t *k);
/* The same in two steps: what the position itself says (true when that
 * settles it; else k->key is set and its table entry prefetched), then,
 * later, the table. */
bool dfpn_child_static(dfpn_ctx_t *c, int ply, dfpn_child_t *k);
void dfpn_child_probe(dfpn_ctx_t *c, int ply, dfpn_child_t *k);

#endif
