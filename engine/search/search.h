/*
 * search.h: the alpha-beta searcher. It knows no game's rules: it reaches
 * the game only through game_t, and the outside world only through the
 * report callback (the search never prints).
 *
 * One searcher owns a transposition table and the ordering tables, and runs
 * one search at a time, on one or more threads (Lazy SMP, see threads.c);
 * search_stop() may be called from another thread.
 */
#ifndef DENHAM_SEARCH_H
#define DENHAM_SEARCH_H

#include <stdatomic.h>

#include "../core/game.h"
#include "../core/timeman.h"
#include "../core/tt.h"

/* What an info's score is: the iteration's value, or only a bound of it
 * (an aspiration window failed; UCI's lowerbound and upperbound). */
typedef enum search_bound { SEARCH_EXACT, SEARCH_LOWER, SEARCH_UPPER } search_bound_t;

typedef struct search_info {
    int multipv; /* which line, from 1, when the request asked for several; else 0 */
    search_bound_t bound; /* SEARCH_EXACT but in progress reports */
    int depth;
    int seldepth;
    score_t score;
    uint64_t nodes;
    int64_t time_ms;
    uint64_t nps;
    int mate; /* a forced win in `mate` moves of the side to move (> 0), a loss (< 0), or 0 */
    int hashfull;
    bool tables;     /* the game has solved endings the search probes */
    uint64_t tbhits; /* positions the search valued by their table (every thread) */
    int pv_len;
    move_t pv[MAX_PLY];
} search_info_t;

typedef void (*search_report_fn)(void *ctx, const position_t *root, const search_info_t *info);
/* A root move the main thread starts searching: number from 1 in the
 * iteration of that depth (UCI's currmove and currmovenumber). */
typedef void (*search_root_move_fn)(void *ctx, const position_t *root, int depth, move_t move, int number);

/* How games of more than two teams are searched (Jinxx for 3 and 4). */
typedef enum multiplayer {
    MULTI_PARANOID, /* the root player against a coalition of all others */
    MULTI_BRS,      /* Best-Reply Search: only the strongest opponent replies */
} multiplayer_t;

/* Pruning at chance nodes (games with dice). */
typedef enum chance_pruning {
    CHANCE_EXPECTIMAX, /* every outcome searched with the full window */
    CHANCE_STAR1,      /* Ballard's Star1: windows from the value bounds */
    CHANCE_STAR2,      /* Star1 after a probing pass for a fail high */
} chance_pruning_t;

/* The searches measured strongest (README, "Jinxx"): what `go`, `bench`
 * and `denham analyse` use unless an option says otherwise. */
#define SEARCH_MULTIPLAYER_DEFAULT MULTI_PARANOID
#define SEARCH_CHANCE_DEFAULT CHANCE_STAR2

/* In games with dice a won game is worth CHANCE_WIN and a lost one
 * -CHANCE_WIN, whatever its distance: scores are expected values over the
 * rolls, never mate scores. */
#define CHANCE_WIN 10000
_Static_assert(CHANCE_WIN < SCORE_WIN_BOUND, "chance scores are never mate scores");

/* The most lines of MultiPV (UCI's MultiPV option). */
#define SEARCH_MULTIPV_MAX 64

/* The most search threads (UCI's Threads option): one in a build without
 * threads (thread.h). */
#define SEARCH_THREADS_MAX (THR_THREADS ? 256 : 1)

/* Keys of earlier positions the search keeps for repetition. */
#define SEARCH_HISTORY_MAX 4096

typedef struct search_request {
    const game_t *game;
    position_t root;
    /* Keys of the positions before the root since the last irreversible
     * move, oldest first (the root's own key not included); only the last
     * SEARCH_HISTORY_MAX are looked at. */
    const uint64_t *history;
    int history_len;
    search_limits_t limits;
    int64_t overhead_ms;
    search_report_fn report; /* may be NULL */
    void *report_ctx;
    /* Progress, for long searches (0: none): from this many ms into the
     * search, each root move the main thread starts goes to
     * report_root_move (when set), and, with one line, each failed
     * aspiration window to report with its bound and the line it has. */
    int64_t progress_after_ms;
    search_root_move_fn report_root_move;
    multiplayer_t multiplayer;
    chance_pruning_t chance_pruning;
    /* When n_root_moves > 0, only these root moves are searched (UCI's
     * searchmoves; analysis of several best moves excludes those found). */
    const move_t *root_moves;
    int n_root_moves;
    /* MultiPV: the best multipv root moves (at most SEARCH_MULTIPV_MAX),
     * each with its line, reported each; 0 or 1 for the best only. */
    int multipv;
    /* For tests: no selective step (no reduction, pruning, extension,
     * table cut-off or quiescence; a leaf is its static value), so that a
     * search of depth d returns the plain minimax / expectimax value of
     * depth d, which every exact pruning (alpha-beta, PVS, aspiration,
     * Star1, Star2) must leave unchanged. */
    bool exact;
} search_request_t;

typedef struct search_result {
    move_t best;   /* MOVE_NONE when the root has no legal move */
    move_t ponder; /* the expected reply, or MOVE_NONE */
    score_t score;
    int mate; /* as in search_info_t */
    int depth;
    uint64_t nodes;
    uint64_t tbhits; /* as in search_info_t, for the whole search */
    /* The line is a helper thread's (Lazy SMP): the helper completed the
     * iteration first (the main thread's depth, or a deeper one), and the
     * main thread took its line over. */
    bool from_helper;
} search_result_t;

typedef struct searcher searcher_t;

/* A searcher with a hash_mb MiB table; NULL when memory is short. */
searcher_t *searcher_new(size_t hash_mb);
void searcher_free(searcher_t *s);
bool searcher_set_hash(searcher_t *s, size_t hash_mb);
/* Searches on this many threads from the next search on (1 to
 * SEARCH_THREADS_MAX); false when the memory cannot be had. */
bool searcher_set_threads(searcher_t *s, int threads);
int searcher_threads(const searcher_t *s);
/* Forgets everything learnt (a new game). */
void searcher_clear(searcher_t *s);

/* A mate search (limits.mate) without a depth limit goes this many plies
 * deep per move of the side to move: a mate in n moves is at most 4n plies
 * in every game (Blue in brax-3p moves twice a turn), and the margin lets
 * reductions and pruning see it. */
#define SEARCH_PLIES_PER_MOVE 4
/* The deepest iteration a search with these limits starts. */
int search_max_depth(const search_limits_t *l);

search_result_t search_run(searcher_t *s, const search_request_t *req);
/* Is pos quiet: does quiescence (full window) return its static value?
 * False at a roll of the die and where the game is over. For training
 * data (denham datagen); uses s's tables, so never while s searches. */
bool search_quiet(searcher_t *s, const game_t *g, const position_t *pos);
/* Asks a running search to stop soon; safe from any thread. */
void search_stop(searcher_t *s);
/* Pondering (UCI's go ponder): set before the search starts, it lifts the
 * time limits until search_ponderhit(), from which they count. Safe from
 * any thread. */
void search_set_pondering(searcher_t *s, bool on);
void search_ponderhit(searcher_t *s);
bool search_pondering(const searcher_t *s);
/* Clears the stop request; called before starting a search. */
void search_reset_stop(searcher_t *s);
bool search_stopped(const searcher_t *s);

/* UCI score conventions: true with *moves set for a win/loss score
 * ("score mate n"), false for an ordinary score, when the sides move in
 * turn. Scores of games with dice (at most CHANCE_WIN) are never mate
 * scores. */
bool search_score_is_mate(score_t score, int *moves);
/* The same in any game: the moves of the root's side to the end of the
 * game, counted along the line pv from root (Blue moves twice a turn in
 * brax-3p); past the end of the line the sides are taken to alternate.
 * 0 for an ordinary score. */
int search_mate_moves(const game_t *g, const position_t *root, score_t score, const move_t *pv, int pv_len);

#endif
