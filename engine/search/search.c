/*
 * search.c: iterative deepening over principal variation search.
 *
 * Negamax over sides: a child's score is negated only when the side to move
 * changes, so a player who moves twice in a row (brax-3p) keeps the sign.
 * A side is a team in games of two teams; in free-for-all games (Jinxx for
 * 3 and 4) the root player is one side and every other player the other
 * (the paranoid assumption), or, with Best-Reply Search, only the strongest
 * opponent's reply is searched between two moves of the root player.
 *
 * Games with dice add chance nodes (the die is to be rolled): their value
 * is the weighted mean over the outcomes, searched with Star1 windows and
 * optionally a Star2 probing pass (Ballard 1983; Hauk, Buro and Schaeffer
 * 2004). A roll costs no depth, and wins and losses count CHANCE_WIN
 * whatever their distance, so the score is an expected value.
 */
#include "search.h"

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define HISTORY_MAX 16384
/* Captures that force nothing are followed this many quiescence plies: in
 * Bolix a captured marble goes back to hand, so capture sequences need not
 * end by themselves. */
#define QS_CAPTURE_PLIES 4
/* Beyond this many quiescence plies even forcing chains stop: a Bolix four
 * answered by a capture can be renewed until a hand runs dry, and at 16
 * plies depth 1 took 2.7 M nodes in a middle game (issue 11). Longer
 * threat sequences are the main search's: a lone answer is extended. */
#define QS_MAX_PLIES 8
#define KEYS_MAX (SEARCH_HISTORY_MAX + MAX_PLY + 2)
/* Null move: tried from this depth, reduced by NULL_REDUCTION + depth / 6
 * plies, and verified by a search without it from NULL_VERIFY_DEPTH. */
#define NULL_MIN_DEPTH 3
#define NULL_REDUCTION 3
#define NULL_VERIFY_DEPTH 10
/* Late move pruning: at depth up to LMP_DEPTH, quiet moves after the
 * first 3 + depth^2 are not searched at all. */
#define LMP_DEPTH 3
/* Futility pruning: at depth up to FUTILITY_DEPTH, quiet moves are not
 * searched when the evaluation plus FUTILITY_MARGIN per ply cannot reach
 * alpha. */
#define FUTILITY_DEPTH 2
#define FUTILITY_MARGIN 150

/* What each numbered step of negamax gains, measured as the full search
 * against the search without that step, both at 20,000 nodes per move,
 * openings from 4 random plies (denham-match; Elo with its 95% interval).
 * Brandubh: 800 games each. Bolix: 800 games for reverse futility, 200 for
 * the rest. Brax draws nearly every game at any setting and shows nothing.
 *
 *   step                        brandubh          bolix
 *   6  reverse futility         +11.7 +-22.2      +20.0 +-23.9
 *   7  null move                -16.1 +-22.4      +41.9 +-49
 *   8  late move and futility   +79.5 +-22.9      +52.5 +-49
 *   9  late move reductions     +27.9 +-22.7      +24.4 +-48
 *   aspiration windows          +20.9 +-22.6      -26.1 +-48
 *   killers and counter-move    +14.3 +-22.1      +27.9 +-48
 *
 * Null move's Brandubh figure is within noise of zero (and fixed nodes
 * do not count the time a cut saves); it stays, as in every game with a
 * pass_turn hook, until a time-control match says otherwise. */

/* Late move reductions: 0.75 + ln(depth) ln(move number) / 2.25 plies
 * (Ethereal's formula), one less in the principal variation and for a
 * killer. */
static int lmr_table[64][64];
static pthread_once_t lmr_once = PTHREAD_ONCE_INIT;

static void init_lmr(void)
{
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++)
            lmr_table[d][m] = (int)(0.75 + log(d) * log(m) / 2.25);
}

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
    pthread_t thread;
    bool running; /* a helper thread to join */
} worker_t;

/* Lazy SMP: every thread searches the same root by iterative deepening,
 * and they share only the transposition table. A thread that finishes an
 * iteration starts the depth above the deepest one being searched (at
 * most two above the deepest completed), so two threads leapfrog: each
 * searches every other depth, on the table the other is filling one
 * depth below. An iteration someone else completed first is abandoned.
 * The main thread alone keeps time, reports and chooses the move; a
 * helper that completes an iteration deeper than the main thread's hands
 * its line over, and the main thread takes it as its own. */
struct searcher {
    tt_t tt;
    atomic_bool stop;
    atomic_bool helpers_stop; /* the main thread has finished */
    /* Pondering: no time limit until ponderhit, whose time then starts the
     * clock (UCI's go ponder). */
    atomic_bool pondering;
    _Atomic int64_t ponderhit_ms;
    int threads;
    /* The deepest iteration a helper completed in this search, and its line
     * (written under the lock; the depth is read without it first). */
    pthread_mutex_t handed_lock;
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

/* ---- the searcher object ---- */

searcher_t *searcher_new(size_t hash_mb)
{
    searcher_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->workers[0].ctx = malloc(sizeof *s->workers[0].ctx);
    if (!s->workers[0].ctx || !tt_resize(&s->tt, hash_mb)) {
        free(s->workers[0].ctx);
        free(s);
        return NULL;
    }
    s->threads = 1;
    pthread_once(&lmr_once, init_lmr);
    atomic_init(&s->stop, false);
    atomic_init(&s->helpers_stop, false);
    atomic_init(&s->pondering, false);
    atomic_init(&s->ponderhit_ms, 0);
    atomic_init(&s->handed_depth, 0);
    atomic_init(&s->started_depth, 0);
    atomic_init(&s->completed_depth, 0);
    pthread_mutex_init(&s->handed_lock, NULL);
    return s;
}

static void worker_free(worker_t *w)
{
    free(w->history);
    free(w->counters);
    free(w->ctx);
    *w = (worker_t){0};
}

void searcher_free(searcher_t *s)
{
    if (!s)
        return;
    tt_free(&s->tt);
    for (int i = 0; i < SEARCH_THREADS_MAX; i++)
        worker_free(&s->workers[i]);
    pthread_mutex_destroy(&s->handed_lock);
    free(s);
}

bool searcher_set_threads(searcher_t *s, int threads)
{
    if (threads < 1 || threads > SEARCH_THREADS_MAX)
        return false;
    for (int i = 1; i < threads; i++)
        if (!s->workers[i].ctx && !(s->workers[i].ctx = malloc(sizeof *s->workers[i].ctx))) {
            for (int j = threads > s->threads ? s->threads : threads; j <= i; j++)
                worker_free(&s->workers[j]);
            return false;
        }
    for (int i = threads; i < SEARCH_THREADS_MAX; i++)
        worker_free(&s->workers[i]);
    s->threads = threads;
    return true;
}

int searcher_threads(const searcher_t *s) { return s->threads; }

bool searcher_set_hash(searcher_t *s, size_t hash_mb) { return tt_resize(&s->tt, hash_mb); }

void searcher_clear(searcher_t *s)
{
    tt_clear(&s->tt);
    for (int i = 0; i < s->threads; i++)
        if (s->workers[i].history) {
            memset(s->workers[i].history, 0, 2 * (size_t)s->workers[i].history_keys * sizeof(int));
            memset(s->workers[i].counters, 0, 2 * (size_t)s->workers[i].history_keys * sizeof(move_t));
        }
}

void search_stop(searcher_t *s) { atomic_store(&s->stop, true); }
void search_set_pondering(searcher_t *s, bool on) { atomic_store(&s->pondering, on); }
bool search_pondering(const searcher_t *s) { return atomic_load(&((searcher_t *)s)->pondering); }

void search_ponderhit(searcher_t *s)
{
    atomic_store(&s->ponderhit_ms, timeman_now_ms());
    atomic_store(&s->pondering, false);
}
void search_reset_stop(searcher_t *s) { atomic_store(&s->stop, false); }
bool search_stopped(const searcher_t *s) { return atomic_load(&((searcher_t *)s)->stop); }

bool search_score_is_mate(score_t score, int *moves)
{
    if (score >= SCORE_WIN_BOUND) {
        *moves = (SCORE_WIN - score + 1) / 2;
        return true;
    }
    if (score <= -SCORE_WIN_BOUND) {
        *moves = -((SCORE_WIN + score) / 2);
        return true;
    }
    return false;
}

int search_mate_moves(const game_t *g, const position_t *root, score_t score, const move_t *pv, int pv_len)
{
    int alternating;
    if (!search_score_is_mate(score, &alternating))
        return 0;
    int plies = SCORE_WIN - (score < 0 ? -score : score);
    int side = g->team_of[g->to_move(root)], own = 0, i = 0;
    position_t pos = *root;
    for (; i < plies && i < pv_len; i++) {
        own += g->team_of[g->to_move(&pos)] == side;
        undo_t u;
        g->make(&pos, pv[i], &u);
    }
    if (i < plies) {
        int rest = plies - i;
        own += g->team_of[g->to_move(&pos)] == side ? (rest + 1) / 2 : rest / 2;
    }
    return score > 0 ? own : -own;
}

static bool ensure_history(worker_t *w, int keys)
{
    if (w->history && w->history_keys == keys)
        return true;
    int *h = calloc(2 * (size_t)keys, sizeof *h);
    move_t *cm = calloc(2 * (size_t)keys, sizeof *cm);
    if (!h || !cm) {
        free(h);
        free(cm);
        return false;
    }
    free(w->history);
    free(w->counters);
    w->history = h;
    w->counters = cm;
    w->history_keys = keys;
    return true;
}

/* ---- helpers ---- */

static int64_t elapsed(const ctx_t *c) { return timeman_now_ms() - c->start_ms; }
static int64_t budget_used(const ctx_t *c) { return timeman_now_ms() - c->budget_from_ms; }

/* Is the search long enough for progress reports (main thread only)? */
static bool in_progress(const ctx_t *c)
{
    return c->id == 0 && c->req->progress_after_ms > 0 && elapsed(c) >= c->req->progress_after_ms;
}

/* True while pondering; at the ponderhit the budget starts from its time. */
static bool still_pondering(ctx_t *c)
{
    if (c->pondering && !atomic_load_explicit(&c->s->pondering, memory_order_relaxed)) {
        c->pondering = false;
        c->budget_from_ms = atomic_load(&c->s->ponderhit_ms);
    }
    return c->pondering;
}

/* What every thread counted: the main thread's own counts, the others' as
 * they last published them. */
typedef struct counts {
    uint64_t nodes, tbhits;
} counts_t;

static counts_t total_counts(const ctx_t *c)
{
    counts_t n = {c->nodes, c->tbhits};
    for (int i = 1; i < c->s->threads; i++) {
        const ctx_t *h = c->s->workers[i].ctx;
        if (c->s->workers[i].running) {
            n.nodes += atomic_load_explicit(&h->nodes_seen, memory_order_relaxed);
            n.tbhits += atomic_load_explicit(&h->tbhits_seen, memory_order_relaxed);
        }
    }
    return n;
}

/* Makes this thread's counts visible to the main thread's total_counts. */
static void publish_counts(ctx_t *c)
{
    atomic_store_explicit(&c->nodes_seen, c->nodes, memory_order_relaxed);
    atomic_store_explicit(&c->tbhits_seen, c->tbhits, memory_order_relaxed);
}

/* Polled every 256 nodes: the cheapest place to notice time and stop.
 * Slow nodes (Bolix, 0.2 M/s) made 1024 a 5 ms wait for `stop`. Helpers
 * stop with the main thread, which alone watches the limits. */
static void check_limits(ctx_t *c)
{
    publish_counts(c);
    if (atomic_load_explicit(&c->s->stop, memory_order_relaxed))
        c->stopped = true;
    else if (c->id != 0 && atomic_load_explicit(&c->s->helpers_stop, memory_order_relaxed))
        c->stopped = true;
    else if (c->leapfrogs && atomic_load_explicit(&c->s->completed_depth, memory_order_acquire) >= c->root_depth)
        c->stopped = c->overtaken = true;
    else if (c->id != 0)
        return;
    else if ((c->limits.nodes && total_counts(c).nodes >= c->limits.nodes) ||
             (c->budget.hard_ms >= 0 && !still_pondering(c) && budget_used(c) >= c->budget.hard_ms))
        c->stopped = true;
}

static int side_of(const ctx_t *c, int player)
{
    return c->free_for_all ? player != c->root_player : c->g->team_of[player];
}

static int side_to_move(const ctx_t *c) { return side_of(c, c->g->to_move(&c->pos)); }

static player_mask_t side_players(const ctx_t *c, int side)
{
    player_mask_t m = 0;
    for (int p = 0; p < c->g->players; p++)
        if (side_of(c, p) == side)
            m |= player_bit(p);
    return m;
}

/* The static value for the side to move. Free-for-all: the root player's
 * value less the best of the others' (paranoid and BRS alike). */
static score_t evaluate_now(ctx_t *c)
{
    score_t v;
    if (!c->free_for_all) {
        v = c->g->evaluate(&c->pos, NULL);
    } else {
        score_t each[MAX_PLAYERS];
        c->g->evaluate_players(&c->pos, each);
        player_mask_t in = game_players_in(c->g, &c->pos);
        score_t best = -SCORE_INF;
        for (int p = 0; p < c->g->players; p++)
            if (p != c->root_player && (in & player_bit(p)) && each[p] > best)
                best = each[p];
        v = each[c->root_player] - (best == -SCORE_INF ? 0 : best);
        if (side_to_move(c) != 0)
            v = -v;
    }
    if (c->dice) /* evaluations stay inside the value bounds Star1 relies on */
        v = v >= CHANCE_WIN ? CHANCE_WIN - 1 : v <= -CHANCE_WIN ? -(CHANCE_WIN - 1) : v;
    return v;
}

/* Whether this search takes values from the game's solved endings (never
 * in games with dice, whose scores are not distances to the end). */
static bool probes_endings(const ctx_t *c) { return c->g->probe_ending && !c->dice; }

/* The exact value of a solved ending at ply, as a terminal score of the
 * ply where the game ends; false when the game has not solved it (or it
 * ends beyond the plies a mate score can count). */
static bool ending_score(ctx_t *c, int ply, score_t *score)
{
    ending_t e;
    if (!probes_endings(c) || !c->g->probe_ending(&c->pos, &e) || ply + e.plies >= MAX_PLY)
        return false;
    c->tbhits++;
    int end = ply + e.plies;
    *score = e.result == ENDING_DRAW ? SCORE_DRAW : e.result == ENDING_WIN ? SCORE_WIN - end : -(SCORE_WIN - end);
    return true;
}

static score_t terminal_score(const ctx_t *c, outcome_t o, int ply)
{
    if (o.kind != OUTCOME_WIN)
        return SCORE_DRAW;
    bool won = (o.players & side_players(c, side_to_move(c))) != 0;
    if (c->dice)
        return won ? CHANCE_WIN : -CHANCE_WIN;
    return won ? SCORE_WIN - ply : -(SCORE_WIN - ply);
}

/* The position's key in the transposition table. */
static uint64_t tt_key(const ctx_t *c) { return c->g->tt_key ? c->g->tt_key(&c->pos) : c->g->hash(&c->pos); }

static score_t static_eval(ctx_t *c)
{
    uint64_t key = tt_key(c);
    eval_slot_t *slot = &c->evals[key & (EVAL_CACHE_SLOTS - 1)];
    if (slot->filled && slot->key == key) {
        /* The key must hold all the evaluation reads. */
        assert(slot->value == evaluate_now(c));
        return slot->value;
    }
    score_t v = evaluate_now(c);
    *slot = (eval_slot_t){.key = key, .value = v, .filled = true};
    return v;
}

static bool at_chance(const ctx_t *c) { return c->dice && game_at_chance(c->g, &c->pos); }

static bool is_repetition(const ctx_t *c, int ply)
{
    uint64_t key = c->keys[c->key_count - 1];
    for (int i = c->key_count - 2; i >= c->rev_from[ply]; i--)
        if (c->keys[i] == key)
            return true;
    return false;
}

static void push_move(ctx_t *c, move_t m, int ply, undo_t *u)
{
    c->line[ply] = m;
    c->g->make(&c->pos, m, u);
    c->keys[c->key_count++] = c->g->hash(&c->pos);
    c->rev_from[ply + 1] = (m & MOVE_IRREVERSIBLE) ? c->key_count - 1 : c->rev_from[ply];
}

static void pop_move(ctx_t *c, move_t m, const undo_t *u)
{
    c->key_count--;
    c->g->unmake(&c->pos, m, u);
}

static int *history_of(ctx_t *c, int team) { return c->history + (size_t)team * c->g->move_keys; }

/* ---- move ordering ---- */

enum {
    ORDER_TT = 1 << 30,
    ORDER_NOISY = 1 << 28,
    ORDER_KILLER1 = 1 << 27,
    ORDER_KILLER2 = (1 << 27) - 1,
    ORDER_COUNTER = (1 << 27) - 2,
};

/* The quiet move that last refuted the move that led here, or MOVE_NONE
 * (at the root, after a pass, or in games with chance: the move before a
 * roll says nothing of the reply). */
static move_t *counter_slot(ctx_t *c, int ply)
{
    if (ply == 0 || !c->null_ok || c->after_null[ply] || c->line[ply - 1] == MOVE_NONE)
        return NULL;
    return &c->counters[(size_t)side_to_move(c) * c->g->move_keys + c->g->move_key(c->line[ply - 1])];
}

static void score_moves(ctx_t *c, const move_t *moves, int *scores, int n, move_t tt_move, int ply)
{
    int *hist = history_of(c, side_to_move(c));
    move_t *cs = counter_slot(c, ply), counter = cs ? *cs : MOVE_NONE;
    for (int i = 0; i < n; i++) {
        move_t m = moves[i];
        if (m == tt_move)
            scores[i] = ORDER_TT;
        else if (m & MOVE_NOISY)
            scores[i] = ORDER_NOISY + hist[c->g->move_key(m)];
        else if (m == c->killers[ply][0])
            scores[i] = ORDER_KILLER1;
        else if (m == c->killers[ply][1])
            scores[i] = ORDER_KILLER2;
        else if (m == counter)
            scores[i] = ORDER_COUNTER;
        else
            scores[i] = hist[c->g->move_key(m)];
    }
}

/* Selection sort, one step at a time: most nodes cut off after a few moves. */
static move_t pick_move(move_t *moves, int *scores, int n, int i)
{
    int best = i;
    for (int j = i + 1; j < n; j++)
        if (scores[j] > scores[best])
            best = j;
    move_t m = moves[best];
    int sc = scores[best];
    moves[best] = moves[i];
    scores[best] = scores[i];
    moves[i] = m;
    scores[i] = sc;
    return m;
}

#ifndef NDEBUG
static bool later_moves_quiet(const move_t *moves, int n, int i, const move_t *killers)
{
    for (int j = i + 1; j < n; j++)
        if ((moves[j] & MOVE_NOISY) || moves[j] == killers[0] || moves[j] == killers[1])
            return false;
    return true;
}
#endif

/* Keeps, in order, the moves that make a threat; returns their number. */
static int keep_threats(ctx_t *c, move_t *moves, int *scores, int n)
{
    int kept = 0;
    for (int j = 0; j < n; j++)
        if (c->g->gives_threat(&c->pos, moves[j])) {
            moves[kept] = moves[j];
            scores[kept++] = scores[j];
        }
    return kept;
}

static void reward_quiet(ctx_t *c, move_t m, int ply, int depth, const move_t *tried, int tried_n)
{
    if (c->killers[ply][0] != m) {
        c->killers[ply][1] = c->killers[ply][0];
        c->killers[ply][0] = m;
    }
    move_t *cs = counter_slot(c, ply);
    if (cs)
        *cs = m;
    int *hist = history_of(c, side_to_move(c));
    int bonus = depth * depth;
    /* Gravity keeps entries within +-HISTORY_MAX and lets old lessons fade. */
    int *e = &hist[c->g->move_key(m)];
    *e += bonus - *e * bonus / HISTORY_MAX;
    for (int i = 0; i < tried_n; i++) {
        if (tried[i] == m || (tried[i] & MOVE_NOISY))
            continue;
        int *f = &hist[c->g->move_key(tried[i])];
        *f -= bonus + *f * bonus / HISTORY_MAX;
    }
}

/* The moves of a node, released in stages so that a node cut off early
 * never lists what it did not need: the table's move (when the game can
 * tell that it is legal here), the noisy moves (or, in a game with
 * gen_captures, the cheap ones), the killers and the counter-move, then the
 * quiet moves (with gen_captures, the noisy ones it left too: Brax's calls,
 * each judged per quiet move, are listed only here). Each stage's moves are
 * scored when released as score_moves scores them. At the root, when the
 * mover must answer a threat and in games without move_legal and
 * gen_quiet, every move is released at once. */
typedef enum stage { STAGE_NOISY, STAGE_REFUTATIONS, STAGE_QUIET, STAGE_DONE } stage_t;

typedef struct picker {
    move_t moves[MAX_MOVES];
    int scores[MAX_MOVES];
    int n;          /* moves[0..n) released */
    stage_t stage;  /* what is released when they run out */
    move_t tt_move; /* released first, or MOVE_NONE */
    int refutations_from; /* where the killers and counter-move were put */
    int ply;
    bool unscored; /* released at once: scored by picker_score */
    bool tt_listed; /* the table's move was generated again (debug check) */
} picker_t;

static bool released(const picker_t *p, move_t m, int from)
{
    return move_in(m, p->moves + from, p->n - from);
}

/* Appends the moves generated at moves + n that are not released yet
 * (the table's move, the killers), scored by history, noisy ones first. */
static void release_generated(ctx_t *c, picker_t *p, int k, int released_before)
{
    const int *hist = history_of(c, side_to_move(c));
    int kept = p->n;
    for (int j = p->n; j < p->n + k; j++) {
        move_t m = p->moves[j];
        if (m == p->tt_move)
            p->tt_listed = true;
        if (m == p->tt_move || released(p, m, released_before))
            continue;
        p->moves[kept] = m;
        p->scores[kept++] = (m & MOVE_NOISY ? ORDER_NOISY : 0) + hist[c->g->move_key(m)];
    }
    p->n = kept;
}

/* The killers and the counter-move: quiet moves that refuted a sibling or
 * the move before, tried before any quiet move is generated. */
static void release_refutations(ctx_t *c, picker_t *p)
{
    move_t *cs = counter_slot(c, p->ply);
    move_t cand[3] = {c->killers[p->ply][0], c->killers[p->ply][1], cs ? *cs : MOVE_NONE};
    static const int order[3] = {ORDER_KILLER1, ORDER_KILLER2, ORDER_COUNTER};
    p->refutations_from = p->n;
    for (int k = 0; k < 3; k++) {
        move_t m = cand[k];
        if (m == MOVE_NONE || (m & MOVE_NOISY) || m == p->tt_move || released(p, m, p->refutations_from) ||
            !c->g->move_legal(&c->pos, m))
            continue;
        p->moves[p->n] = m;
        p->scores[p->n++] = order[k];
    }
}

/* Releases the next stages until a move is added or none is left; returns
 * whether one was added. */
static bool picker_fill(ctx_t *c, picker_t *p)
{
    int before = p->n;
    while (p->n == before && p->stage != STAGE_DONE) {
        switch (p->stage) {
        case STAGE_NOISY:
            release_generated(c, p, (c->g->gen_captures ? c->g->gen_captures : c->g->gen_noisy)(&c->pos, p->moves + p->n),
                              p->n);
            p->stage = STAGE_REFUTATIONS;
            break;
        case STAGE_REFUTATIONS:
            release_refutations(c, p);
            p->stage = STAGE_QUIET;
            break;
        case STAGE_QUIET: /* without the refutations released before */
            release_generated(c, p, c->g->gen_quiet(&c->pos, p->moves + p->n), p->refutations_from);
            assert((p->tt_move == MOVE_NONE || p->tt_listed) && "move_legal agrees with gen_moves");
            p->stage = STAGE_DONE;
            break;
        case STAGE_DONE:
            break;
        }
    }
    return p->n > before;
}

/* Starts the moves of a node; returns false when it has none (the game is
 * over). The table's move is trusted only when the game says it is legal. */
static bool picker_start(ctx_t *c, picker_t *p, move_t tt_move, int ply, bool staged)
{
    p->ply = ply;
    p->n = 0;
    p->tt_move = MOVE_NONE;
    p->unscored = p->tt_listed = false;
    p->stage = STAGE_NOISY;
    if (staged && tt_move != MOVE_NONE && c->g->move_legal(&c->pos, tt_move)) {
        p->tt_move = p->moves[0] = tt_move;
        p->scores[p->n++] = ORDER_TT;
        return true;
    }
    if (staged)
        return picker_fill(c, p);
    /* All at once, scored once the node has cut the list down (the root,
     * an answer to a threat) and tried its null move. */
    p->stage = STAGE_DONE;
    p->unscored = true;
    p->n = c->g->gen_moves(&c->pos, p->moves);
    return p->n > 0;
}

/* Scores a list released at once, after the node has cut it down. */
static void picker_score(ctx_t *c, picker_t *p, move_t tt_move)
{
    assert(p->unscored && p->tt_move == MOVE_NONE);
    score_moves(c, p->moves, p->scores, p->n, tt_move, p->ply);
    p->unscored = false;
}

/* Are the moves not yet released all quiet? Not before a gen_quiet that
 * may hold noisy moves (Brax's calls). */
static bool picker_only_quiet_left(const ctx_t *c, const picker_t *p)
{
    return p->stage == STAGE_DONE || !c->g->gen_captures;
}

/* Releases every stage left (the list is then complete). */
static void picker_fill_all(ctx_t *c, picker_t *p)
{
    while (picker_fill(c, p))
        ;
}

/* The i-th move of the node in order, or MOVE_NONE after the last. */
static move_t picker_next(ctx_t *c, picker_t *p, int i)
{
    if (i == p->n && !picker_fill(c, p))
        return MOVE_NONE;
    return pick_move(p->moves, p->scores, p->n, i);
}

/* ---- the search proper ---- */

static score_t negamax(ctx_t *c, int depth, int ply, score_t alpha, score_t beta, bool pv_node);

/* The child's score from this node's point of view. */
static score_t child_score(ctx_t *c, int team, int depth, int ply, score_t alpha, score_t beta, bool pv_node)
{
    if (side_to_move(c) == team)
        return negamax(c, depth, ply + 1, alpha, beta, pv_node);
    return -negamax(c, depth, ply + 1, -beta, -alpha, pv_node);
}

static score_t qsearch(ctx_t *c, int ply, int qply, score_t alpha, score_t beta);

static score_t qchild_score(ctx_t *c, int team, int ply, int qply, score_t alpha, score_t beta)
{
    if (side_to_move(c) == team)
        return qsearch(c, ply + 1, qply + 1, alpha, beta);
    return -qsearch(c, ply + 1, qply + 1, -beta, -alpha);
}

static void count_node(ctx_t *c, int ply)
{
    if ((++c->nodes & 255) == 0)
        check_limits(c);
    if (ply > c->seldepth)
        c->seldepth = ply;
}

/* Quiescence: only the game's noisy moves, with the static evaluation as
 * the score of standing pat, so the horizon never falls mid-exchange.
 * Noisy moves that capture nothing and force nothing (a Brax call, a
 * king's step home) are tried only at the first quiescence ply: enough to
 * see what they threaten, without chains of them multiplying the tree.
 * Captures are followed for QS_CAPTURE_PLIES. Forcing moves and the
 * answers to them are followed to any depth: that is what finds a win by a
 * sequence of threats (Bolix fours) beyond the nominal depth. */
static score_t qsearch(ctx_t *c, int ply, int qply, score_t alpha, score_t beta)
{
    count_node(c, ply);
    if (c->stopped)
        return 0;
    outcome_t o;
    if (c->g->decided(&c->pos, &o))
        return terminal_score(c, o, ply);
    score_t solved;
    if (ending_score(c, ply, &solved))
        return solved;
    /* Before a roll nothing is forced: the static value stands. */
    if (at_chance(c))
        return static_eval(c);
    /* Facing a threat to win at once there is no standing pat: only the
     * answers count, and without one the game is lost next move. */
    bool respond = c->g->must_respond && c->g->must_respond(&c->pos);
    if (ply >= MAX_PLY - 1 || qply >= QS_MAX_PLIES)
        return static_eval(c);
    /* In games with forcing threats the table answers transposed threat
     * sequences (depth 0 entries). Elsewhere quiescence is short and the
     * probes cost more than they save (Brandubh bench: 1.51 M -> 1.89 M
     * nodes, 0.45 -> 0.76 s). */
    bool use_tt = c->g->must_respond != NULL;
    uint64_t key = tt_key(c);
    tt_hit_t hit;
    if (use_tt && tt_probe(&c->s->tt, key, ply, &hit) &&
        (hit.bound == TT_EXACT || (hit.bound == TT_LOWER && hit.score >= beta) ||
         (hit.bound == TT_UPPER && hit.score <= alpha)))
        return hit.score;
    /* With no answer, the side to move makes some move and the opponent
     * wins with the next: the game ends two plies from here. */
    score_t stand = respond ? -(SCORE_WIN - ply - 2) : static_eval(c);
    if (stand >= beta)
        return stand;
    score_t orig_alpha = alpha;
    if (stand > alpha)
        alpha = stand;
    move_t moves[MAX_MOVES];
    int n = c->g->gen_noisy(&c->pos, moves);
    /* Without a noisy move there may be no move at all: then the game is
     * over, and its result, not the evaluation, is the score. */
    if (n == 0 && c->g->count_moves(&c->pos) == 0)
        return terminal_score(c, c->g->outcome(&c->pos), ply);
    int team = side_to_move(c);
    score_t best = stand;
    move_t best_move = MOVE_NONE;
    for (int i = 0; i < n; i++) {
        if (!respond && qply > 0 && !(moves[i] & MOVE_FORCING) &&
            !((moves[i] & MOVE_CAPTURE) && qply < QS_CAPTURE_PLIES))
            continue;
        undo_t u;
        push_move(c, moves[i], ply, &u);
        score_t sc = qchild_score(c, team, ply, qply, alpha, beta);
        pop_move(c, moves[i], &u);
        if (c->stopped)
            return 0;
        if (sc > best) {
            best = sc;
            best_move = moves[i];
            if (sc > alpha)
                alpha = sc;
            if (sc >= beta)
                break;
        }
    }
    if (use_tt) {
        int bound = best >= beta ? TT_LOWER : best > orig_alpha ? TT_EXACT : TT_UPPER;
        tt_store(&c->s->tt, key, ply, best_move, best, 0, bound);
    }
    return best;
}


/* ---- chance nodes ---- */

static long long floor_div(long long a, long long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
static long long ceil_div(long long a, long long b) { return -floor_div(-a, b); }

/* Star2's probe: the decision node after a roll with only its first move
 * (the table's, else the best ordered) searched: a lower bound on its value
 * when the result is at least beta. */
static score_t probe_first_move(ctx_t *c, int depth, int ply, score_t alpha, score_t beta)
{
    count_node(c, ply);
    move_t moves[MAX_MOVES];
    int n = c->g->gen_moves(&c->pos, moves);
    if (n == 0)
        return terminal_score(c, c->g->outcome(&c->pos), ply);
    if (depth <= 0)
        return static_eval(c);
    tt_hit_t hit = {0};
    bool found = tt_probe(&c->s->tt, tt_key(c), ply, &hit);
    int scores[MAX_MOVES];
    score_moves(c, moves, scores, n, found ? hit.move : MOVE_NONE, ply);
    move_t m = pick_move(moves, scores, n, 0);
    int side = side_to_move(c);
    undo_t u;
    push_move(c, m, ply, &u);
    score_t sc = child_score(c, side, depth - 1, ply, alpha, beta, false);
    pop_move(c, m, &u);
    return sc;
}

/* The expected value over the rolls at this chance node, with Star1 (and
 * Star2) pruning. Values lie in [-CHANCE_WIN, CHANCE_WIN]; each outcome's
 * window is where it could still move the mean across alpha or beta, and
 * a mean that cannot reach the window returns a bound at once. All sums
 * are kept multiplied by the total weight, so the arithmetic is exact. */
static score_t chance_expect(ctx_t *c, int depth, int ply, score_t alpha, score_t beta, bool pv_node, int *bound)
{
    move_t rolls[MAX_MOVES];
    int w[MAX_MOVES];
    int n = c->g->chance_outcomes(&c->pos, rolls, w);
    long long W = 0, lo = -CHANCE_WIN, hi = CHANCE_WIN, lb[MAX_MOVES];
    for (int i = 0; i < n; i++) {
        W += w[i];
        lb[i] = lo;
    }
    long long sum_lb = W * lo;
    undo_t u;
    if (c->chance_pruning == CHANCE_STAR2 && beta < hi) {
        /* Probing pass: one move after each roll, trying for a fail high. */
        for (int i = 0; i < n; i++) {
            long long t = ceil_div(beta * W - (sum_lb - w[i] * lb[i]), w[i]);
            if (t > hi)
                continue;
            push_move(c, rolls[i], ply, &u);
            score_t x = probe_first_move(c, depth, ply + 1, (score_t)(t - 1), (score_t)t);
            pop_move(c, rolls[i], &u);
            if (c->stopped)
                return 0;
            if (x >= t) {
                sum_lb += w[i] * (x - lb[i]);
                lb[i] = x;
                if (sum_lb >= beta * W) {
                    *bound = TT_LOWER;
                    return (score_t)ceil_div(sum_lb, W);
                }
            }
        }
    }
    long long sum = 0, rest_lo = sum_lb, rest_hi = W * hi;
    for (int i = 0; i < n; i++) {
        rest_lo -= w[i] * lb[i];
        rest_hi -= w[i] * hi;
        long long a = lo - 1, b = hi + 1;
        if (c->chance_pruning != CHANCE_EXPECTIMAX) {
            a = floor_div(alpha * W - sum - rest_hi, w[i]);
            b = ceil_div(beta * W - sum - rest_lo, w[i]);
            if (a >= hi) { /* even the best outcome leaves the mean below alpha */
                *bound = TT_UPPER;
                return (score_t)floor_div(sum + w[i] * hi + rest_hi, W);
            }
            if (b <= lo) {
                *bound = TT_LOWER;
                return (score_t)ceil_div(sum + w[i] * lo + rest_lo, W);
            }
        }
        long long ca = a > lo - 1 ? a : lo - 1, cb = b < hi + 1 ? b : hi + 1;
        push_move(c, rolls[i], ply, &u);
        score_t x = negamax(c, depth, ply + 1, (score_t)ca, (score_t)cb, pv_node);
        pop_move(c, rolls[i], &u);
        if (c->stopped)
            return 0;
        if (x <= a) {
            *bound = TT_UPPER;
            return (score_t)floor_div(sum + w[i] * x + rest_hi, W);
        }
        if (x >= b) {
            *bound = TT_LOWER;
            return (score_t)ceil_div(sum + w[i] * x + rest_lo, W);
        }
        sum += w[i] * x;
    }
    score_t v = (score_t)floor_div(sum, W);
    *bound = v <= alpha ? TT_UPPER : v >= beta ? TT_LOWER : TT_EXACT;
    return v;
}

/* Best-Reply Search's opponent layer: each opponent in turn gets the roll
 * (the others pass) and the best of their replies is the layer's value. */
static score_t brs_layer(ctx_t *c, int depth, int ply, score_t alpha, score_t beta, bool pv_node, int *bound)
{
    position_t saved = c->pos;
    player_mask_t in = game_players_in(c->g, &c->pos);
    score_t best = -SCORE_INF;
    int best_bound = TT_UPPER;
    for (int q = 0; q < c->g->players; q++) {
        if (q == c->root_player || !(in & player_bit(q)))
            continue;
        c->g->hand_turn(&c->pos, q);
        c->brs_reply[ply + 1] = true;
        int b;
        score_t v = chance_expect(c, depth, ply, alpha > best ? alpha : best, beta, pv_node, &b);
        c->brs_reply[ply + 1] = false;
        c->pos = saved;
        if (c->stopped)
            return 0;
        if (v > best) {
            best = v;
            best_bound = b;
        }
        if (best >= beta) {
            best_bound = TT_LOWER;
            break;
        }
    }
    *bound = best_bound == TT_EXACT && best <= alpha ? TT_UPPER : best_bound;
    return best;
}

static score_t chance_node(ctx_t *c, int depth, int ply, score_t alpha, score_t beta, bool pv_node)
{
    count_node(c, ply);
    c->pv_len[ply] = 0; /* a line stops at a roll: what follows depends on it */
    if (c->stopped)
        return 0;
    if (depth <= 0 || ply >= MAX_PLY - 2)
        return static_eval(c);
    uint64_t key = tt_key(c);
    tt_hit_t hit;
    if (!c->exact && tt_probe(&c->s->tt, key, ply, &hit) && hit.depth >= depth &&
        (hit.bound == TT_EXACT || (hit.bound == TT_LOWER && hit.score >= beta) ||
         (hit.bound == TT_UPPER && hit.score <= alpha)))
        return hit.score;
    int bound;
    bool brs = c->free_for_all && c->multiplayer == MULTI_BRS && side_to_move(c) != 0;
    score_t v = brs ? brs_layer(c, depth, ply, alpha, beta, pv_node, &bound)
                    : chance_expect(c, depth, ply, alpha, beta, pv_node, &bound);
    if (!c->stopped)
        tt_store(&c->s->tt, key, ply, MOVE_NONE, v, depth, bound);
    return v;
}

static void update_pv(ctx_t *c, int ply, move_t m)
{
    c->pv[ply][0] = m;
    int len = ply + 1 < MAX_PLY ? c->pv_len[ply + 1] : 0;
    memcpy(&c->pv[ply][1], c->pv[ply + 1], (size_t)len * sizeof(move_t));
    c->pv_len[ply] = len + 1;
}


/* Keeps, of the n root moves, those the request allows; the new count. */
static int allowed_root_moves(const search_request_t *req, move_t *moves, int n)
{
    if (req->n_root_moves <= 0)
        return n;
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (move_in(moves[i], req->root_moves, req->n_root_moves))
            moves[kept++] = moves[i];
    return kept;
}

/* The null-move test of negamax: the score of a reduced search after a
 * pass, at least beta when it holds (a win found is cut to beta: it may
 * rest on the pass). */
static score_t null_move_score(ctx_t *c, int depth, int ply, score_t beta)
{
    position_t saved = c->pos;
    if (!c->g->pass_turn(&c->pos))
        return -SCORE_INF;
    int team = side_of(c, c->g->to_move(&saved));
    int r = NULL_REDUCTION + depth / 6;
    c->keys[c->key_count++] = c->g->hash(&c->pos);
    c->rev_from[ply + 1] = c->key_count - 1; /* no repetition across a pass */
    c->after_null[ply + 1] = true;
    score_t sc = child_score(c, team, depth - 1 - r, ply, beta - 1, beta, false);
    c->after_null[ply + 1] = false;
    c->key_count--;
    c->pos = saved;
    if (c->stopped || sc < beta)
        return sc;
    if (sc >= SCORE_WIN_BOUND)
        sc = beta;
    /* Deep down a wrong cut costs much: check it with a reduced search of
     * the real moves, passes not allowed at this node. */
    if (depth >= NULL_VERIFY_DEPTH) {
        c->after_null[ply] = true;
        score_t v = negamax(c, depth - r, ply, beta - 1, beta, false);
        c->after_null[ply] = false;
        if (v < beta)
            return v;
    }
    return sc;
}

/* An exact search's leaf: the result of a finished game, else the static
 * value. */
static score_t exact_leaf(ctx_t *c, int ply)
{
    count_node(c, ply);
    outcome_t o;
    if (c->g->decided(&c->pos, &o))
        return terminal_score(c, o, ply);
    if (c->g->count_moves(&c->pos) == 0)
        return terminal_score(c, c->g->outcome(&c->pos), ply);
    return static_eval(c);
}

static score_t negamax(ctx_t *c, int depth, int ply, score_t alpha, score_t beta, bool pv_node)
{
    c->pv_len[ply] = 0;
    if (c->dice && at_chance(c))
        return chance_node(c, depth, ply, alpha, beta, pv_node);
    if (depth <= 0)
        return c->exact ? exact_leaf(c, ply) : qsearch(c, ply, 0, alpha, beta);
    count_node(c, ply);
    if (c->stopped)
        return 0;

    /* 1. Draw by repetition inside the line (or with the game before it). */
    if (ply > 0 && c->g->repetition_draw && is_repetition(c, ply))
        return SCORE_DRAW;
    if (ply >= MAX_PLY - 1)
        return static_eval(c);
    /* A solved ending (Brax's two men against one): its exact value. At the
     * root the moves are still searched, each child probed in turn. */
    score_t solved;
    if (ply > 0 && ending_score(c, ply, &solved))
        return solved;

    /* 2. Mate-distance pruning: no score here can beat a win found nearer. */
    if (ply > 0) {
        score_t lo = -(SCORE_WIN - ply), hi = SCORE_WIN - ply - 1;
        if (alpha < lo) alpha = lo;
        if (beta > hi) beta = hi;
        if (alpha >= beta)
            return alpha;
    }

    /* 3. Transposition table: a cut-off outside the principal variation. */
    uint64_t key = tt_key(c);
    tt_hit_t hit = {0};
    bool found = tt_probe(&c->s->tt, key, ply, &hit);
    if (found && !pv_node && !c->exact && hit.depth >= depth &&
        (hit.bound == TT_EXACT || (hit.bound == TT_LOWER && hit.score >= beta) ||
         (hit.bound == TT_UPPER && hit.score <= alpha)))
        return hit.score;

    /* 4. Moves in stages (the table's move first, when legal here: it
     * also shows the game is not over), so that a node cut off early,
     * before the move loop too, never lists its quiet moves. */
    bool respond = c->g->must_respond && c->g->must_respond(&c->pos);
    bool staged = ply > 0 && !respond && c->g->move_legal && c->g->gen_quiet;
    picker_t pk;
    if (!picker_start(c, &pk, found ? hit.move : MOVE_NONE, ply, staged))
        return terminal_score(c, c->g->outcome(&c->pos), ply);
    move_t *moves = pk.moves;

    /* 5. Facing a threat to win at once, only the answers count: any other
     * move loses on the spot. A lone answer is forced, and the line is
     * extended by a ply for it (not beyond twice the iteration's depth). */
    if (respond) {
        move_t answers[MAX_MOVES];
        int k = c->g->gen_noisy(&c->pos, answers);
        if (k > 0) {
            memcpy(moves, answers, (size_t)k * sizeof *moves);
            pk.n = k;
            if (k == 1 && ply < 2 * c->root_depth && !c->exact)
                depth++;
        }
    }
    if (ply == 0) {
        int n = allowed_root_moves(c->req, moves, pk.n), kept = 0;
        for (int i = 0; i < n; i++)
            if (!move_in(moves[i], c->excluded, c->n_excluded))
                moves[kept++] = moves[i];
        pk.n = kept;
    }

    bool ordinary_beta = beta > -SCORE_WIN_BOUND && beta < SCORE_WIN_BOUND;
    score_t eval = !pv_node && !respond && ply > 0 && ordinary_beta && !c->exact ? static_eval(c) : -SCORE_INF;

    /* 6. Reverse futility: far above beta near the leaves, a quiet move will
     * not bring the score back down. Never against a win or loss bound: an
     * evaluation says nothing about a mate. */
    if (depth <= 3 && eval != -SCORE_INF && eval - 150 * depth >= beta && eval < SCORE_WIN_BOUND)
        return eval;

    /* 7. Null move: if passing the turn still holds beta in a reduced
     * search, a real move will too. The game says when a pass is a sound
     * test; never twice in a row, and verified without it when deep. */
    if (depth >= NULL_MIN_DEPTH && eval >= beta && c->null_ok && !c->after_null[ply]) {
        score_t sc = null_move_score(c, depth, ply, beta);
        if (c->stopped)
            return 0;
        if (sc >= beta)
            return sc;
    }

    if (pk.unscored)
        picker_score(c, &pk, found ? hit.move : MOVE_NONE);
    int team = side_to_move(c);
    score_t best = -SCORE_INF, orig_alpha = alpha;
    move_t best_move = MOVE_NONE;
    move_t tried[MAX_MOVES];
    int tried_n = 0;

    bool brs_reply = c->brs_reply[ply];
    bool may_prune = c->null_ok && !pv_node && !respond && eval != -SCORE_INF;
    bool thinned = false; /* the list cut to the moves that make a threat */
    move_t m;
    for (int i = 0; (m = picker_next(c, &pk, i)) != MOVE_NONE; i++) {
        bool quiet = !(m & MOVE_NOISY), killer = m == c->killers[ply][0] || m == c->killers[ply][1];
        /* 8. Late move and futility pruning: near the leaves, once a move
         * has kept the game alive, late quiet moves and quiet moves that
         * cannot lift the evaluation to alpha are not searched. */
        bool prunable = may_prune && quiet && !killer && best > -SCORE_WIN_BOUND &&
                        ((depth <= LMP_DEPTH && tried_n >= 3 + depth * depth) ||
                         (depth <= FUTILITY_DEPTH && eval + FUTILITY_MARGIN * depth <= alpha));
        /* A move the opponent must answer (a king that now sees a corner)
         * is neither pruned nor reduced, as chess engines treat checks.
         * Where no move makes a threat, or the game tells which do, a
         * pruned move need not even be made. Ordered by score, every move
         * after a pruned one is a quiet move and no killer, pruned by the
         * same test (which only grows stricter as moves are searched):
         * none of them is picked, but for those that make a threat. */
        if (prunable && !c->g->must_respond) {
            if (!picker_only_quiet_left(c, &pk))
                continue; /* a counter-move before Brax's calls */
            assert(later_moves_quiet(moves, pk.n, i, c->killers[ply]));
            break;
        }
        bool asks = quiet && c->g->must_respond, told = asks && c->g->gives_threat;
        bool threat = told && c->g->gives_threat(&c->pos, m);
        if (prunable && told && !thinned) {
            picker_fill_all(c, &pk);
            assert(later_moves_quiet(moves, pk.n, i, c->killers[ply]));
            pk.n = i + 1 + keep_threats(c, moves + i + 1, pk.scores + i + 1, pk.n - i - 1);
            thinned = true;
        }
        if (prunable && told && !threat)
            continue;
        if (ply == 0 && c->req->report_root_move && in_progress(c))
            c->req->report_root_move(c->req->report_ctx, &c->req->root, depth, m, i + 1);
        undo_t u;
        push_move(c, m, ply, &u);
        assert(!told || threat == c->g->must_respond(&c->pos));
        if (asks && !told)
            threat = c->g->must_respond(&c->pos);
        quiet &= !threat;
        if (prunable && !threat) {
            pop_move(c, m, &u);
            continue;
        }
        /* A best reply is the only opponent move before the root player's
         * next turn (the other opponents pass). */
        position_t before_hand;
        bool handed = brs_reply && !c->g->decided(&c->pos, &(outcome_t){0}) &&
                      (game_players_in(c->g, &c->pos) & player_bit(c->root_player));
        if (handed) {
            before_hand = c->pos;
            c->g->hand_turn(&c->pos, c->root_player);
        }
        score_t sc;
        if (i == 0) {
            sc = child_score(c, team, depth - 1, ply, alpha, beta, pv_node);
        } else {
            /* 9. Late move reductions: quiet moves ordered late rarely matter. */
            int r = 0;
            if (depth >= 3 && i >= 2 && quiet && c->null_ok)
                r = lmr_table[depth < 64 ? depth : 63][i < 64 ? i : 63] - pv_node - killer;
            else if (depth >= 3 && i >= 3 && quiet && !c->exact) /* games with dice or more sides: as measured there */
                r = 1 + (i >= 8) + (depth >= 8 && i >= 16);
            if (r > depth - 2)
                r = depth - 2;
            if (r < 0)
                r = 0;
            /* 10. Principal variation search: prove the move no better with
             * a null window, and search it fully only if that fails. */
            sc = child_score(c, team, depth - 1 - r, ply, alpha, alpha + 1, false);
            if (sc > alpha && r > 0)
                sc = child_score(c, team, depth - 1, ply, alpha, alpha + 1, false);
            if (sc > alpha && sc < beta && pv_node)
                sc = child_score(c, team, depth - 1, ply, alpha, beta, true);
        }
        if (handed)
            c->pos = before_hand;
        pop_move(c, m, &u);
        if (c->stopped)
            return 0;
        if (sc > best) {
            best = sc;
            best_move = m;
            if (sc > alpha) {
                alpha = sc;
                update_pv(c, ply, m);
                if (ply == 0)
                    c->root_score = sc;
                if (alpha >= beta) {
                    if (!(m & MOVE_NOISY))
                        reward_quiet(c, m, ply, depth, tried, tried_n);
                    break;
                }
            }
        }
        tried[tried_n++] = m;
    }

    int bound = best >= beta ? TT_LOWER : best > orig_alpha ? TT_EXACT : TT_UPPER;
    tt_store(&c->s->tt, key, ply, best_move, best, depth, bound);
    return best;
}

/* ---- iterative deepening ---- */

static void report(ctx_t *c, const search_request_t *req, int line, int depth, score_t score, const move_t *pv,
                   int pv_len, search_bound_t bound)
{
    if (!req->report)
        return;
    search_info_t info;
    info.multipv = req->multipv > 1 ? line + 1 : 0;
    info.bound = bound;
    info.depth = depth;
    /* Table cut-offs can end every line short of the nominal depth. */
    info.seldepth = c->seldepth > depth ? c->seldepth : depth;
    info.score = score;
    counts_t counts = total_counts(c);
    info.nodes = counts.nodes;
    info.time_ms = elapsed(c);
    info.nps = info.nodes * 1000 / (uint64_t)(info.time_ms > 0 ? info.time_ms : 1);
    info.hashfull = tt_hashfull(&c->s->tt);
    info.tables = probes_endings(c);
    info.tbhits = counts.tbhits;
    info.pv_len = pv_len;
    memcpy(info.pv, pv, (size_t)pv_len * sizeof *pv);
    info.mate = c->dice ? 0 : search_mate_moves(c->g, &req->root, score, pv, pv_len);
    req->report(req->report_ctx, &req->root, &info);
}

static void ctx_init(ctx_t *c, searcher_t *s, const search_request_t *req, int id)
{
    memset(c, 0, sizeof *c);
    c->s = s;
    c->id = id;
    c->history = s->workers[id].history;
    c->counters = s->workers[id].counters;
    atomic_init(&c->nodes_seen, 0);
    atomic_init(&c->tbhits_seen, 0);
    c->g = req->game;
    c->req = req;
    c->pondering = atomic_load(&s->pondering);
    c->pos = req->root;
    c->limits = req->limits;
    c->start_ms = timeman_now_ms();
    c->budget_from_ms = c->start_ms;
    c->budget = timeman_budget(&req->limits, c->g->to_move(&req->root), req->overhead_ms);
    c->root_player = c->g->to_move(&req->root);
    c->free_for_all = game_teams(c->g) > 2;
    c->dice = c->g->chance_outcomes != NULL;
    c->multiplayer = c->g->hand_turn ? req->multiplayer : MULTI_PARANOID;
    c->chance_pruning = req->chance_pruning;
    c->exact = req->exact;
    c->null_ok = c->g->pass_turn && !c->dice && !c->free_for_all && !c->exact;
    /* Keep the most recent part of the history that fits beside a full line. */
    int keep = req->history_len < KEYS_MAX - MAX_PLY - 2 ? req->history_len : KEYS_MAX - MAX_PLY - 2;
    if (keep > 0)
        memcpy(c->keys, req->history + (req->history_len - keep), (size_t)keep * sizeof(uint64_t));
    c->key_count = keep;
    c->keys[c->key_count++] = c->g->hash(&c->pos);
    c->rev_from[0] = 0;
}

/* A root move that wins on the spot, or MOVE_NONE. Checked before any
 * search, so that no limit, however short, and no quiescence however
 * large, can make the engine miss a win in one. */
static move_t winning_move(ctx_t *c, const move_t *moves, int n)
{
    int side = side_to_move(c);
    for (int i = 0; i < n; i++) {
        undo_t u;
        c->g->make(&c->pos, moves[i], &u);
        outcome_t o;
        bool won = c->g->decided(&c->pos, &o) && o.kind == OUTCOME_WIN && (o.players & side_players(c, side));
        c->g->unmake(&c->pos, moves[i], &u);
        if (won)
            return moves[i];
    }
    return MOVE_NONE;
}

/* Raises *v to at least x. */
static void atomic_raise(atomic_int *v, int x)
{
    int old = atomic_load(v);
    while (old < x && !atomic_compare_exchange_weak(v, &old, x))
        ;
}

/* The depth of this thread's next iteration, the one after `depth` at the
 * earliest: with other threads, one above the deepest begun, but at most
 * two above the deepest completed (more threads then share a depth). */
static int next_depth(ctx_t *c, int depth, int max_depth)
{
    if (!c->leapfrogs)
        return depth;
    searcher_t *s = c->s;
    int d = atomic_load(&s->started_depth) + 1, cap = atomic_load(&s->completed_depth) + 2;
    if (d > cap)
        d = cap;
    if (d > max_depth)
        d = max_depth;
    if (d < depth)
        d = depth;
    atomic_raise(&s->started_depth, d);
    return d;
}

/* A failed aspiration window, reported with its bound: a fail high with
 * the line of the move that failed high, a fail low with the line it had
 * (one line searched only: MultiPV lines are reported whole). */
static void report_bound(ctx_t *c, int depth, score_t sc, bool high, const line_t *prev)
{
    if (!in_progress(c) || c->req->multipv > 1)
        return;
    if (high)
        report(c, c->req, 0, depth, sc, c->pv[0], c->pv_len[0], SEARCH_LOWER);
    else
        report(c, c->req, 0, depth, sc, prev->pv, prev->pv_len, SEARCH_UPPER);
}

/* One iteration at the root: aspiration windows around the last score
 * (prev, the line of the iteration before), widened on failure until the
 * score lands inside them. */
static score_t aspirate(ctx_t *c, int depth, const line_t *prev)
{
    score_t delta = 25, alpha = -SCORE_INF, beta = SCORE_INF;
    if (depth >= 4 && prev->score > -SCORE_WIN_BOUND && prev->score < SCORE_WIN_BOUND) {
        alpha = prev->score - delta;
        beta = prev->score + delta;
    }
    for (;;) {
        score_t sc = negamax(c, depth, 0, alpha, beta, true);
        if (c->stopped)
            return sc;
        if (sc <= alpha || sc >= beta)
            report_bound(c, depth, sc, sc >= beta, prev);
        if (sc <= alpha) {
            beta = (alpha + beta) / 2;
            alpha = sc - delta > -SCORE_INF ? sc - delta : -SCORE_INF;
        } else if (sc >= beta) {
            beta = sc + delta < SCORE_INF ? sc + delta : SCORE_INF;
        } else {
            return sc;
        }
        delta += delta;
        if (delta > 1000) {
            alpha = -SCORE_INF;
            beta = SCORE_INF;
        }
    }
}

/* Sorts the lines by score, best first; equal ones keep their order. */
static void sort_lines(line_t *lines, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && lines[j].score > lines[j - 1].score; j--) {
            line_t t = lines[j];
            lines[j] = lines[j - 1];
            lines[j - 1] = t;
        }
}

/* When not even one root move was searched: the move whose position the
 * evaluation likes best, rather than whichever came first. */
static move_t fallback_move(ctx_t *c, score_t *score)
{
    move_t moves[MAX_MOVES];
    int n = allowed_root_moves(c->req, moves, c->g->gen_moves(&c->pos, moves));
    int team = side_to_move(c);
    move_t best = n > 0 ? moves[0] : MOVE_NONE;
    score_t best_score = -SCORE_INF;
    for (int i = 0; i < n; i++) {
        undo_t u;
        c->g->make(&c->pos, moves[i], &u);
        score_t v = static_eval(c);
        if (side_to_move(c) != team)
            v = -v;
        c->g->unmake(&c->pos, moves[i], &u);
        if (v > best_score)
            best_score = v, best = moves[i];
    }
    *score = best_score;
    return best;
}

/* When to start no new iteration: the budget's soft limit, stretched up
 * to 2.5 times (never past the hard limit) while the answer is unsettled:
 * the best move changed in recent iterations, or the score fell. */
static int64_t soft_limit(const ctx_t *c, score_t score, score_t prev)
{
    int64_t percent = 100 + c->best_changes / 2 + (prev - score >= 30 ? 50 : 0);
    if (percent > 250)
        percent = 250;
    int64_t soft = c->budget.soft_ms * percent / 100;
    return c->budget.hard_ms >= 0 && soft > c->budget.hard_ms ? c->budget.hard_ms : soft;
}

int search_max_depth(const search_limits_t *l)
{
    int cap = MAX_PLY - 1;
    if (l->depth > 0 && l->depth < cap)
        return l->depth;
    if (l->mate > 0 && l->mate <= cap / SEARCH_PLIES_PER_MOVE)
        return SEARCH_PLIES_PER_MOVE * l->mate;
    return cap;
}

static bool mate_proven(score_t score, int depth)
{
    score_t a = score < 0 ? -score : score;
    return a >= SCORE_WIN_BOUND && SCORE_WIN - a <= depth;
}

/* Searches MultiPV line k of this depth into lines[k]; false when the
 * search stopped before it gave anything worth keeping. A stopped search
 * proves nothing about the root moves it did not reach, but a root move
 * it finished (the first, or one proven better than the first) is better
 * founded than the last iteration's answer. At depth 1 there is no such
 * answer: then the search keeps whatever it has. */
static bool search_line(ctx_t *c, int depth, int k, line_t *line)
{
    score_t sc = aspirate(c, depth, line);
    if (c->stopped) {
        if (k > 0 || (c->pv_len[0] == 0 && depth > 1))
            return false;
        if (c->pv_len[0] == 0) { /* depth 1, not one root move finished */
            c->pv[0][0] = fallback_move(c, &c->root_score);
            c->pv_len[0] = c->pv[0][0] != MOVE_NONE;
        }
        sc = c->root_score;
    }
    line->score = sc;
    line->pv_len = c->pv_len[0];
    memcpy(line->pv, c->pv[0], (size_t)c->pv_len[0] * sizeof(move_t));
    if (line->pv_len > 0)
        c->excluded[c->n_excluded++] = line->pv[0];
    return line->pv_len > 0;
}

/* A helper's completed iteration, kept for the main thread when it is the
 * deepest yet. */
static void hand_over(ctx_t *c, int depth, const line_t *line)
{
    searcher_t *s = c->s;
    /* The counts too: the main thread may report this line before the
     * helper's next poll, and a short search would show too few nodes. */
    publish_counts(c);
    pthread_mutex_lock(&s->handed_lock);
    if (depth > atomic_load_explicit(&s->handed_depth, memory_order_relaxed)) {
        s->handed.score = line->score;
        s->handed.pv_len = line->pv_len;
        memcpy(s->handed.pv, line->pv, (size_t)line->pv_len * sizeof *line->pv);
        atomic_store_explicit(&s->handed_depth, depth, memory_order_relaxed);
    }
    pthread_mutex_unlock(&s->handed_lock);
    atomic_raise(&s->completed_depth, depth); /* after the line: see check_limits */
}

/* The main thread takes the line a helper completed at `depth` or deeper:
 * its depth, or 0 when there is none. */
static int take_handed(ctx_t *c, int depth, line_t *line)
{
    searcher_t *s = c->s;
    if (c->id != 0 || !c->leapfrogs || atomic_load_explicit(&s->handed_depth, memory_order_relaxed) < depth)
        return 0;
    pthread_mutex_lock(&s->handed_lock);
    int got = atomic_load_explicit(&s->handed_depth, memory_order_relaxed);
    line->score = s->handed.score;
    line->pv_len = s->handed.pv_len;
    memcpy(line->pv, s->handed.pv, (size_t)s->handed.pv_len * sizeof *line->pv);
    pthread_mutex_unlock(&s->handed_lock);
    return got;
}

/* The value of the position after move m in a solved ending, from the
 * next mover's side (the end of the game counts as a loss in 0 plies). */
static bool child_ending(const game_t *g, position_t *pos, move_t m, ending_t *out)
{
    undo_t u;
    outcome_t o;
    g->make(pos, m, &u);
    bool known = true;
    if (g->decided(pos, &o))
        *out = (ending_t){o.kind == OUTCOME_WIN ? ENDING_LOSS : ENDING_DRAW, 0};
    else
        known = g->probe_ending(pos, out);
    g->unmake(pos, m, &u);
    return known;
}

/* A line that ends in a won or lost solved ending goes on along the
 * table's moves (the winner's shortest way, the loser's longest) to the
 * end of the game, so that its pv shows the mate its score reports. */
static void extend_solved(const ctx_t *c, line_t *line)
{
    const game_t *g = c->g;
    if (!probes_endings(c))
        return;
    position_t pos = c->req->root;
    for (int i = 0; i < line->pv_len; i++) {
        undo_t u;
        g->make(&pos, line->pv[i], &u);
    }
    ending_t e;
    while (line->pv_len < MAX_PLY && g->probe_ending(&pos, &e) && e.result != ENDING_DRAW && e.plies > 0) {
        move_t moves[MAX_MOVES], next = MOVE_NONE;
        int n = g->gen_moves(&pos, moves);
        for (int i = 0; i < n && next == MOVE_NONE; i++) {
            ending_t child;
            if (child_ending(g, &pos, moves[i], &child) && child.result == -e.result && child.plies == e.plies - 1)
                next = moves[i];
        }
        assert(next != MOVE_NONE && "a solved value is reached by one of the moves");
        if (next == MOVE_NONE)
            return;
        undo_t u;
        g->make(&pos, next, &u);
        line->pv[line->pv_len++] = next;
    }
}

/* The main thread's completed iteration: lines 0..done-1 become the
 * result and are reported. */
static void publish(ctx_t *c, search_result_t *res, line_t *lines, int done, int depth)
{
    sort_lines(lines, done);
    for (int k = 0; k < done; k++)
        extend_solved(c, &lines[k]);
    if (depth > 1 && lines[0].pv[0] != res->best)
        c->best_changes += 100;
    res->best = lines[0].pv[0];
    res->ponder = lines[0].pv_len > 1 ? lines[0].pv[1] : MOVE_NONE;
    res->score = lines[0].score;
    res->mate = c->dice ? 0 : search_mate_moves(c->g, &c->req->root, lines[0].score, lines[0].pv, lines[0].pv_len);
    res->depth = depth;
    for (int k = 0; k < done; k++)
        report(c, c->req, k, depth, lines[k].score, lines[k].pv, lines[k].pv_len, SEARCH_EXACT);
}

/* Iterative deepening, on every thread. Only the main thread keeps time,
 * reports, searches more than one line (MultiPV: line k is the best of
 * the root moves the lines before it did not take) and fills *res; n is
 * the number of root moves. */
static void iterate(ctx_t *c, int n, search_result_t *res, line_t *lines)
{
    bool main_thread = c->id == 0;
    int max_depth = search_max_depth(&c->limits);
    bool timed = c->budget.soft_ms >= 0;
    int n_lines = main_thread && c->req->multipv > 1 ? c->req->multipv : 1;
    if (n_lines > n)
        n_lines = n;
    for (int k = 0; k < n_lines; k++)
        lines[k].score = 0;
    score_t prev_score = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        c->n_excluded = 0;
        int done = 0, handed = take_handed(c, depth, &lines[0]);
        if (!handed) {
            depth = c->root_depth = next_depth(c, depth, max_depth);
            c->seldepth = 0;
            while (done < n_lines && search_line(c, depth, done, &lines[done]))
                done++;
            if (c->overtaken) { /* another thread completed this depth first */
                c->stopped = c->overtaken = false;
                if (!main_thread)
                    continue;
                handed = take_handed(c, depth, &lines[0]);
                assert(handed >= depth);
            }
        }
        if (handed) {
            assert(handed <= max_depth && n_lines == 1);
            depth = c->root_depth = handed;
            done = 1;
        }
        /* Stopped: lines 0..done-1 are new; a later depth's lines mixed
         * with an earlier one's would be out of order. */
        if (c->stopped && (done == 0 || (depth > 1 && done < n_lines)))
            break;
        if (!main_thread) {
            if (c->stopped)
                break;
            hand_over(c, depth, &lines[0]);
            continue;
        }
        if (c->leapfrogs && !c->stopped)
            atomic_raise(&c->s->completed_depth, depth);
        publish(c, res, lines, done, depth);
        if (c->stopped)
            break;
        /* A win or loss proven within the full-width depth: deeper
         * iterations would only repeat it. */
        if (n_lines == 1 && mate_proven(lines[0].score, depth))
            break;
        if (c->limits.mate && res->mate > 0 && res->mate <= c->limits.mate)
            break;
        if (timed && !still_pondering(c) && (budget_used(c) >= soft_limit(c, lines[0].score, prev_score) || n == 1))
            break;
        prev_score = lines[0].score;
        c->best_changes /= 2;
    }
    /* Stopped while a helper had completed a deeper iteration. */
    int handed = main_thread && c->stopped ? take_handed(c, res->depth + 1, &lines[0]) : 0;
    if (handed)
        publish(c, res, lines, 1, handed);
}

static void *helper_main(void *arg)
{
    ctx_t *c = arg;
    search_result_t unused;
    line_t line;
    move_t moves[MAX_MOVES];
    iterate(c, allowed_root_moves(c->req, moves, c->g->gen_moves(&c->pos, moves)), &unused, &line);
    return NULL;
}

/* Starts the helper threads (as many as can be had). */
static void start_helpers(searcher_t *s, const search_request_t *req)
{
    atomic_store(&s->helpers_stop, false);
    atomic_store(&s->handed_depth, 0);
    atomic_store(&s->started_depth, 0);
    atomic_store(&s->completed_depth, 0);
    for (int i = 1; i < s->threads; i++) {
        worker_t *w = &s->workers[i];
        w->running = false;
        if (!ensure_history(w, req->game->move_keys))
            continue;
        ctx_init(w->ctx, s, req, i);
        w->ctx->leapfrogs = true;
        w->running = pthread_create(&w->thread, NULL, helper_main, w->ctx) == 0;
    }
}

/* Stops and joins the helpers; what they counted. */
static counts_t stop_helpers(searcher_t *s)
{
    atomic_store(&s->helpers_stop, true);
    counts_t n = {0, 0};
    for (int i = 1; i < s->threads; i++) {
        worker_t *w = &s->workers[i];
        if (w->running) {
            pthread_join(w->thread, NULL);
            w->running = false;
            n.nodes += w->ctx->nodes;
            n.tbhits += w->ctx->tbhits;
        }
    }
    return n;
}

search_result_t search_run(searcher_t *s, const search_request_t *req)
{
    ctx_t *c = s->workers[0].ctx;
    search_result_t res = {.best = MOVE_NONE, .ponder = MOVE_NONE};
    if (!ensure_history(&s->workers[0], req->game->move_keys))
        return res;
    ctx_init(c, s, req, 0);
    tt_new_search(&s->tt);

    move_t root_moves[MAX_MOVES];
    int n = allowed_root_moves(req, root_moves, c->g->gen_moves(&c->pos, root_moves));
    /* The roller, never the engine, rolls the die: no move to choose yet. */
    if (n == 0 || at_chance(c))
        return res;
    res.best = root_moves[0];
    move_t win = winning_move(c, root_moves, n);
    if (win != MOVE_NONE) {
        res.best = win;
        res.score = c->dice ? CHANCE_WIN : SCORE_WIN - 1;
        res.mate = !c->dice;
        res.depth = c->seldepth = 1;
        res.nodes = c->nodes = (uint64_t)n;
        report(c, req, 0, 1, res.score, &win, 1, SEARCH_EXACT);
        return res;
    }
    start_helpers(s, req);
    c->leapfrogs = s->threads > 1 && req->multipv <= 1;
    iterate(c, n, &res, s->lines);
    counts_t helpers = stop_helpers(s);
    res.nodes = c->nodes + helpers.nodes;
    res.tbhits = c->tbhits + helpers.tbhits;
    return res;
}
