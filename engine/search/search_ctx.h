/*
 * search_ctx.h: what the files of the searcher share and nobody else sees:
 * the searcher object, one search's state (ctx_t) and the small helpers
 * every part of the search uses on it. Included by engine/search/ files
 * only: search.h stays the only way in. Knows no game's rules: a game is
 * its game_t.
 */
#ifndef DENHAM_SEARCH_CTX_H
#define DENHAM_SEARCH_CTX_H

#include "search.h"

#define KEYS_MAX (SEARCH_HISTORY_MAX + MAX_PLY + 2)

typedef struct ctx ctx_t;

/* A line of MultiPV as the last full iteration left it. */
typedef struct line {
    score_t score;
    int pv_len;
    move_t pv[MAX_PLY];
} line_t;

/* One search thread's own tables, kept from search to search. */
typedef struct worker {
    ctx_t *ctx; /* the running search's state: too large for a thread's stack */
    int *history; /* [2 sides][move_keys] */
    move_t *counters; /* [2 sides][move_keys of the move answered] */
    int history_keys;
    thr_t thread;
    bool running; /* a helper thread to join */
} worker_t;

/* Lazy SMP: every thread searches the same root by iterative deepening,
 * and they share only the transposition table. A thread that finishes an
 * iteration starts the depth above the deepest one being searched (at
 * most two above the deepest completed), so two threads leapfrog: each
 * searches every other depth, on the table the other is filling one
 * depth below. In a game with dice two threads search each depth
 * together instead, visiting a chance node's rolls from different ends
 * (threads.c). An iteration someone else completed first is abandoned.
 * The main thread alone keeps time, reports and chooses the move; a
 * helper that completes an iteration deeper than the main thread's hands
 * its line over, and the main thread takes it as its own. */
struct searcher {
    tt_t tt;
    thr_flag_t stop;
    atomic_bool helpers_stop; /* the main thread has finished */
    /* Pondering: no time limit until ponderhit, whose time then starts the
     * clock (UCI's go ponder). */
    atomic_bool pondering;
    _Atomic int64_t ponderhit_ms;
    int threads;
    /* The deepest iteration a helper completed in this search, and its line
     * (written under the lock; the depth is read without it first). */
    thr_mutex_t handed_lock;
    atomic_int handed_depth;
    line_t handed;
    atomic_int started_depth;   /* the deepest iteration any thread began */
    atomic_int completed_depth; /* the deepest any thread completed */
    worker_t workers[SEARCH_THREADS_MAX]; /* [0] is the main thread */
    line_t lines[SEARCH_MULTIPV_MAX];     /* the main thread's MultiPV lines */
};

/* Evaluations of this search by position key: iterative deepening and
 * re-searches evaluate the same positions again and again. */
#define EVAL_CACHE_SLOTS (1 << 13)

typedef struct eval_slot {
    uint64_t key;
    score_t value;
    bool filled;
} eval_slot_t;

/* The state of one running search. */
struct ctx {
    searcher_t *s;
    const game_t *g;
    position_t pos;
    search_limits_t limits;
    time_budget_t budget;
    int64_t start_ms;
    int id;                     /* the thread: 0 is the main one */
    int *history;               /* the thread's [2 sides][move_keys] */
    move_t *counters;           /* the thread's counter-moves, [2 sides][move_keys] */
    move_t line[MAX_PLY + 1];   /* the move made at each ply of the current line */
    uint64_t nodes;
    _Atomic uint64_t nodes_seen; /* nodes, published every few for the main thread */
    uint64_t tbhits;             /* positions valued by a solved ending's table */
    _Atomic uint64_t tbhits_seen; /* published with nodes_seen */
    int seldepth;
    /* Keys of the game so far and of the current line; rev_from[ply] is the
     * first index a repetition scan at that ply needs to look at. */
    uint64_t keys[KEYS_MAX];
    int key_count;
    int root_index; /* keys[root_index] is the root position's */
    int rev_from[MAX_PLY + 1];
    move_t killers[MAX_PLY][2];
    move_t pv[MAX_PLY][MAX_PLY];
    int pv_len[MAX_PLY];
    bool stopped;
    bool overtaken; /* stopped because another thread completed this iteration */
    /* A thread of a search with helpers (the main thread's only when it
     * searches one line): chooses its depths among the other threads',
     * and the main thread takes over the lines they complete. */
    bool leapfrogs;
    score_t root_score;  /* the score of the root line in pv[0] */
    int root_depth;      /* the iteration's depth */
    int best_changes;    /* how often the best move changed lately, in hundredths */
    bool pondering;      /* the searcher's flag as this search last saw it */
    int64_t budget_from_ms; /* when the time budget started: the start, or the ponderhit */
    /* Sides: see the header comment. */
    int root_player;
    bool free_for_all; /* more than two teams */
    bool dice;         /* the game has chance nodes */
    /* The game's solved endings, probed: built when the search started
     * (game_t.prepared). The search never builds them: a front end
     * prepares the game first, or searches without them meanwhile. */
    bool endings;
    multiplayer_t multiplayer;
    chance_pruning_t chance_pruning;
    bool exact; /* the request's: no selective step (search.h) */
    /* Null moves: allowed in this game and search (two sides, no dice),
     * and whether the move into each ply was a pass. */
    bool null_ok;
    bool after_null[MAX_PLY + 1];
    /* BRS: set at the ply of a best reply's decision node; after the reply
     * the turn goes straight back to the root player. */
    bool brs_reply[MAX_PLY + 1];
    const search_request_t *req; /* for the root moves it allows */
    /* MultiPV: root moves already given a line at this depth. */
    move_t excluded[SEARCH_MULTIPV_MAX];
    int n_excluded;
    eval_slot_t evals[EVAL_CACHE_SLOTS]; /* emptied with the rest at the start */
};

/* What every thread counted: the main thread's own counts, the others' as
 * they last published them. */
typedef struct counts {
    uint64_t nodes, tbhits;
} counts_t;

/* ---- search_ctx.c ---- */

/* A worker's history and counter-move tables for a game of `keys` move
 * keys, kept between searches; false when out of memory. */
bool ctx_ensure_history(worker_t *w, int keys);
/* Sets a search up for thread id (0: the main thread). */
void ctx_init(ctx_t *c, searcher_t *s, const search_request_t *req, int id);
/* Is the search long enough for progress reports (main thread only)? */
bool ctx_in_progress(const ctx_t *c);
/* True while pondering; at the ponderhit the budget starts from its time. */
bool ctx_still_pondering(ctx_t *c);
counts_t ctx_total_counts(const ctx_t *c);
/* Makes this thread's counts visible to the main thread's ctx_total_counts. */
void ctx_publish_counts(ctx_t *c);
/* Polled every 256 nodes: sets c->stopped when the search must end. */
void ctx_check_limits(ctx_t *c);
/* The players of a side. */
player_mask_t ctx_side_players(const ctx_t *c, int side);
/* The exact value of a solved ending at ply, as a terminal score. */
bool ctx_ending_score(ctx_t *c, int ply, score_t *score);
/* The score of a finished game for the side to move, at ply. */
score_t ctx_terminal_score(const ctx_t *c, outcome_t o, int ply);
/* The static value for the side to move, through the evaluation cache. */
score_t ctx_static_eval(ctx_t *c);
/* Keeps, of the n root moves, those the request allows; the new count. */
int ctx_allowed_root_moves(const search_request_t *req, move_t *moves, int n);

/* ---- helpers too small for a call ---- */

static inline int64_t elapsed(const ctx_t *c) { return timeman_now_ms() - c->start_ms; }

static inline int64_t budget_used(const ctx_t *c) { return timeman_now_ms() - c->budget_from_ms; }

static inline int side_of(const ctx_t *c, int player)
{
    return c->free_for_all ? player != c->root_player : c->g->team_of[player];
}

static inline int side_to_move(const ctx_t *c) { return side_of(c, c->g->to_move(&c->pos)); }

/* The position's key in the transposition table. */
static inline uint64_t tt_key(const ctx_t *c) { return c->g->tt_key ? c->g->tt_key(&c->pos) : c->g->hash(&c->pos); }

static inline bool at_chance(const ctx_t *c) { return c->dice && game_at_chance(c->g, &c->pos); }

/* A draw by repetition, as chess engines count one: a position already on
 * this line, the root included (the cycle can be walked again, so its value
 * is the draw's); or one the game has seen twice before, the third
 * occurrence. A single occurrence before the root is not a draw: the side to
 * move there may leave the cycle and win (issue 33's second OpenTafl game,
 * lost by walking back into such a position, counted a draw unsearched). */
static inline bool is_repetition(const ctx_t *c, int ply)
{
    uint64_t key = c->keys[c->key_count - 1];
    bool seen_before_root = false;
    for (int i = c->key_count - 2; i >= c->rev_from[ply]; i--) {
        if (c->keys[i] != key)
            continue;
        if (i >= c->root_index || seen_before_root)
            return true;
        seen_before_root = true;
    }
    return false;
}

/* Makes m at ply. With `probed` (the child will probe the table) its
 * bucket is fetched at once, so that the probe, a few checks later, waits
 * less for memory (fetching before the move, from a key the game would
 * compute ahead, measured no better in Brandubh). */
static inline void push_move(ctx_t *c, move_t m, int ply, undo_t *u, bool probed)
{
    c->line[ply] = m;
    c->g->make(&c->pos, m, u);
    uint64_t key = c->keys[c->key_count++] = c->g->hash(&c->pos);
    if (probed)
        tt_prefetch(&c->s->tt, c->g->tt_key ? c->g->tt_key(&c->pos) : key);
    c->rev_from[ply + 1] = (m & MOVE_IRREVERSIBLE) ? c->key_count - 1 : c->rev_from[ply];
}

static inline void pop_move(ctx_t *c, move_t m, const undo_t *u)
{
    c->key_count--;
    c->g->unmake(&c->pos, m, u);
}

/* Whether this search takes values from the game's solved endings (never
 * in games with dice, whose scores are not distances to the end). */
static inline bool probes_endings(const ctx_t *c) { return c->endings; }
/* Does the game have solved endings at all (the reports' tbhits field)? */
static inline bool has_endings(const ctx_t *c) { return c->g->probe_ending && !c->dice; }

static inline void count_node(ctx_t *c, int ply)
{
    if ((++c->nodes & 255) == 0)
        ctx_check_limits(c);
    if (ply > c->seldepth)
        c->seldepth = ply;
}

/* Raises *v to at least x. */
static inline void atomic_raise(atomic_int *v, int x)
{
    int old = atomic_load(v);
    while (old < x && !atomic_compare_exchange_weak(v, &old, x))
        ;
}

/* ---- the other files ---- */


/* negamax.c: the main search, and its tables (once). */
void negamax_init(void);
score_t negamax(ctx_t *c, int depth, int ply, score_t alpha, score_t beta, bool pv_node);
/* The child's score from this node's point of view. */
score_t negamax_child(ctx_t *c, int team, int depth, int ply, score_t alpha, score_t beta, bool pv_node);

/* chance.c: a node where the die is to be rolled. */
score_t chance_node(ctx_t *c, int depth, int ply, score_t alpha, score_t beta, bool pv_node);

/* iterate.c: iterative deepening on one thread over the n root moves. */
void iterate(ctx_t *c, int n, search_result_t *res, line_t *lines);

/* threads.c: the hand-over between Lazy SMP's threads of the iterations
 * they complete first. */
void threads_hand_over(ctx_t *c, int depth, const line_t *line);
int threads_take_handed(ctx_t *c, int depth, line_t *line);
/* The depth of this thread's next iteration, `depth` at the earliest. */
int threads_next_depth(ctx_t *c, int depth, int max_depth);
int threads_first_outcome(const ctx_t *c, int n);

#endif
