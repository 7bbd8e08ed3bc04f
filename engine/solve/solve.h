/*
 * solve.h: the solver, a depth-first proof-number search (df-pn, Nagai
 * 2002) with a table of its own, for the two-player games without dice.
 * It proves or disproves "side P can force a win" (within a number of
 * plies, if asked), and writes a proof anyone can check (proof.c, and
 * engine/reference/check.c, which checks it with other code).
 *
 * Like the searcher it knows no game's rules: it reaches a game through
 * game_t only, and the outside world through callbacks (it never prints,
 * but for the proof it writes to the stream it is given).
 *
 * What a result assumes (PROTOCOL.md, "Solving"):
 * - A win is one the rules give on the board (game_t's outcome), in a
 *   finite number of plies. Playing on for ever is no win.
 * - Repetition: the game's history before the root (request.history) and
 *   the line from the root are counted as the rules count them. A position
 *   seen twice before the root draws on its third occurrence. A return to
 *   a position of the line from the root counts as no win for P: the side
 *   defending could walk the cycle again (and by the third time the game
 *   is drawn, where the rules draw it); the side winning never needs to
 *   (a winning strategy that returns to a position has a shorter one that
 *   does not). Results that rest on such a return are not stored in the
 *   table (they hold only for that line): the graph-history interaction of
 *   Kishimoto and Müller, handled by recording how far up the line each
 *   disproof reaches (dfpn.c).
 * - A game's must_respond and gen_noisy are taken at their word: facing a
 *   threat to win at once, a move that is not an answer loses at once
 *   (game.h). The proof writer plays those losses out, and the checker
 *   checks them, so a proof never rests on it.
 */
#ifndef DENHAM_SOLVE_H
#define DENHAM_SOLVE_H

#include <stdatomic.h>
#include <stdio.h>

#include "../core/game.h"

/* Proof and disproof numbers: 0 proves; DFPN_INF is infinite (the other
 * number of a proof or disproof). A search still open has both in 1 ..
 * DFPN_CAP. */
#define DFPN_INF UINT32_MAX
#define DFPN_CAP 0x7FFFFFFFu

/* The deepest line the search follows from its root. */
#define SOLVE_MAX_PLY 1000
/* The most search threads. */
#define SOLVE_THREADS_MAX 64
/* Keys of positions before the root the solver looks at. */
#define SOLVE_HISTORY_MAX 4096

typedef enum solve_status { SOLVE_OPEN, SOLVE_PROVEN, SOLVE_DISPROVEN } solve_status_t;

/* A progress report: the root's numbers so far. */
typedef struct solve_progress {
    int side; /* whose win is being proved */
    uint32_t pn, dn;
    uint64_t nodes;
    int64_t ms;
    int table_permille;
} solve_progress_t;

typedef void (*solve_progress_fn)(void *ctx, const solve_progress_t *p);

typedef struct solve_request {
    const game_t *game;
    position_t root;
    /* Repetition keys (game_t.hash) of the positions before the root since
     * the last irreversible move, oldest first. */
    const uint64_t *history;
    int history_len;
    int side;        /* the team whose win is to be proved: 0 or 1 */
    bool one_side;   /* solve_both: only `side`'s win (the other stays open) */
    int plies;       /* > 0: a win within this many plies; 0: any */
    uint64_t nodes;  /* stop after about this many positions (0: no limit) */
    int64_t ms;      /* or this many milliseconds (0: no limit) */
    /* Progress: every progress_ms (0: never) to progress, from the thread
     * that called solver_run. */
    int64_t progress_ms;
    int64_t progress_from_ms; /* reports at multiples of progress_ms from this time (0: the start) */
    solve_progress_fn progress;
    void *progress_ctx;
} solve_request_t;

typedef struct solve_result {
    solve_status_t status;
    uint32_t pn, dn;  /* the root's, when open */
    /* Proven: plies to the win by the search's own count (its table's
     * values). Each stored value was a bound when stored, but the proof
     * writer does not retrace them (replaced entries are searched again,
     * a position is written once): only a written proof's height is a
     * checked bound (PROTOCOL.md, "Solving"). */
    int dist;
    move_t best;      /* proven with P to move: the first move of the proof */
    uint64_t nodes;   /* positions made, every thread */
    int64_t ms;
    /* The processor time of the busiest thread and of all of them (us):
     * what the solve would take on idle cores, one a thread, and what it
     * cost. */
    int64_t cpu_us_max, cpu_us_total;
} solve_result_t;

typedef struct solver solver_t;

/* A solver with a table of table_mb MiB; NULL when memory is short. */
solver_t *solver_new(size_t table_mb);
void solver_free(solver_t *s);
/* Threads for the next solves (1 to SOLVE_THREADS_MAX); false when the
 * memory cannot be had. */
bool solver_set_threads(solver_t *s, int threads);
/* The table's size in bytes. */
size_t solver_table_bytes(const solver_t *s);
/* Forgets every result (the table holds results for one history: clear it
 * when the game before the root changes). */
void solver_clear(solver_t *s);
/* Brings the whole table into memory now (benchmarks: so that no timed
 * solve pays for its page faults). */
void solver_prefault(solver_t *s);
/* Asks a running solve to stop; safe from any thread. */
void solver_stop(solver_t *s);

/* Can g be solved: two players, no dice? */
bool solve_supported(const game_t *g);

/* Searches until the root is proved, disproved, or the limits are
 * reached. The table keeps what it learnt for the next run with the same
 * history (a larger budget goes on from there). */
solve_result_t solver_run(solver_t *s, const solve_request_t *req);

/* ---- both sides (verdict.c) ---- */

/* What is known of a position after solving for both sides. */
typedef enum solve_verdict {
    VERDICT_WIN,     /* `winner` can force a win */
    VERDICT_DRAW,    /* neither side can force a win */
    VERDICT_NO_WIN,  /* one side (`no_win`) cannot; the other is open */
    VERDICT_UNKNOWN, /* neither is settled */
} solve_verdict_t;

typedef struct solve_both {
    solve_verdict_t verdict;
    int winner;  /* VERDICT_WIN: the team; else -1 */
    int no_win;  /* VERDICT_NO_WIN: the team that cannot win; else -1 */
    solve_result_t side[2]; /* the search for each team's win */
    uint64_t nodes;
    int64_t ms;
    int64_t cpu_us_max, cpu_us_total; /* as solve_result_t's, added up over the rounds */
} solve_both_t;

/* Solves for both teams, the side to move first, the budget (req->nodes,
 * req->ms, for the whole) shared out in doubling rounds so that the
 * easier question is settled first; req->side is ignored unless
 * req->one_side. Progress reports count from its start. */
solve_both_t solve_both(solver_t *s, const solve_request_t *req);

/* ---- proofs (proof.c) ---- */

/* How the root was set up, for the proof's "position" line: the text of
 * a position command after "position" ("startpos moves ...", "fen ..."). */
typedef struct proof_header {
    const char *position;
} proof_header_t;

typedef struct proof_stats {
    uint64_t moves;    /* moves written ("DEPTH MOVE" lines, references included), as the checker counts them */
    uint64_t stars;    /* "DEPTH * ANSWER..." lines (each stands for moves not written) */
    int height;        /* the longest line, in plies: the proof's bound on a win's length */
    move_t first;      /* the proof's first move (MOVE_NONE where the root's every move is written) */
    uint64_t resolved; /* positions searched again to write it */
} proof_stats_t;

/* Writes the proof (PROTOCOL.md, "Proofs") that req->side can (status
 * SOLVE_PROVEN) or cannot (SOLVE_DISPROVEN) force a win, as solver_run
 * found with the same request. Positions whose result the table no longer
 * holds (replaced, or proved only for another line) are searched again,
 * each within req's budget. False with the reason in err when it cannot. */
bool proof_write(solver_t *s, const solve_request_t *req, solve_status_t claim, const proof_header_t *h,
                 FILE *out, proof_stats_t *stats, char *err, size_t errlen);

#endif
