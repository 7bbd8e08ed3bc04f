/*
 * engine_state.h: the state the UGI/UCI front end keeps between commands
 * (engine_t), shared by the command table (protocol.c), the search thread
 * (search_thread.c) and the command-line subcommands (cli.c). Private to
 * those three files; the outside world calls protocol.h.
 */
#ifndef DENHAM_ENGINE_STATE_H
#define DENHAM_ENGINE_STATE_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

#include "../../engine/core/number.h"
#include "../../engine/core/record.h"
#include "../../engine/core/thread.h"
#include "../../engine/search/search.h"
#include "../../engine/search/skill.h"
#include "../common/out.h"

#define HASH_DEFAULT_MB 16
#define HASH_MAX_MB 16384
#define OVERHEAD_DEFAULT_MS 30
#define OVERHEAD_MAX_MS 5000
/* Searches longer than this also report the root move being searched
 * and failed aspiration windows (as Stockfish does, after 3 s). */
#define PROGRESS_AFTER_MS 3000
/* go mate n: at most this many moves (its search goes 4n plies deep). */
#define GO_MATE_MAX ((MAX_PLY - 1) / SEARCH_PLIES_PER_MOVE)
/* Words per command; `position` is parsed from the untokenised line, so
 * its move list is not bounded by this. */
#define MAX_TOKENS 1024

typedef struct engine {
    out_t out;
    const game_t *game;
    record_t *rec;
    record_t *scratch; /* where `position` is set up before it replaces rec */
    /* The arguments of the `position` command rec was set up from, when it
     * had a move list: a runner sends the whole game before every move, and
     * a command that extends this one only has its new moves played. */
    char *last_position;
    size_t last_position_cap;
    searcher_t *searcher;
    int hash_mb;
    int multipv; /* the MultiPV option */
    bool hash_allocated; /* the table is sized at the first isready or go */
    int overhead_ms;
    multiplayer_t multiplayer;
    chance_pruning_t chance_pruning;
    bool random_mover; /* Strength random: a uniformly random legal move */
    int skill;         /* the Skill Level option; SKILL_MAX: full strength */
    rng_t skill_rng;   /* a weakened search's choices */
    pv_line_t skill_lines[SEARCH_MULTIPV_MAX];
    bool ponder_option; /* the Ponder option */
    bool uci;           /* the last hello was `uci` (not `ugi`): ponder moves may be named */
    bool go_ponder;     /* the running search is a `go ponder` */
    uint64_t random_state;
    /* The running job (a search, go perft or bench), if any: they all run
     * on one thread so that the command loop keeps answering. */
    enum { JOB_SEARCH, JOB_PERFT, JOB_BENCH } job;
    int job_depth;
    thr_flag_t job_stop;
    bool searching;
    atomic_bool search_finished; /* set by the search thread after its bestmove */
    thr_t thread;
    search_request_t req;
    uint64_t req_history[SEARCH_HISTORY_MAX];
    move_t searchmoves[MAX_MOVES]; /* go searchmoves: the root moves allowed */
    int n_searchmoves;
} engine_t;

/* Writes one line of output (whole, under the output lock). Here, not in
 * protocol.c, because the search thread speaks too and must not reach
 * back into the command table. */
static inline void engine_say(engine_t *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    out_vline(&e->out, fmt, ap);
    va_end(ap);
}
#define ERROR(e, ...) engine_say((e), "info string error: " __VA_ARGS__)

/* Sets up the state for output on out, with the default variant and
 * options; false when out of memory. */
bool engine_init(engine_t *e, FILE *out);
void engine_free(engine_t *e);

/* ---- tokens ---- */

typedef struct tokens {
    int n;
    char *t[MAX_TOKENS];
} tokens_t;

/* Splits line into words; false when it has more than MAX_TOKENS (the
 * first MAX_TOKENS are kept). */
bool tokens_split(char *line, tokens_t *tk);
/* Joins tokens [from, to) with single spaces into buf; false when they do
 * not fit (the caller refuses them: nothing is cut short). */
bool tokens_join(const tokens_t *tk, int from, int to, char *buf, size_t len);

/* Parses a whole decimal integer in [lo, hi]. */
static inline bool parse_int(const char *s, long long lo, long long hi, long long *out)
{
    return number_parse(s, lo, hi, out);
}

/* ---- search_thread.c: the one thread that runs searches, perft and bench ---- */

/* Sizes the table as the Hash option says, once (at the first isready or go). */
void engine_ensure_hash(engine_t *e);
/* Starts e->job on the search thread; false (with an error line) when the
 * thread cannot be had. Without threads (thread.h) the job runs to its
 * end inside this call, the command loop taking its turns meanwhile. */
bool engine_start_job(engine_t *e);
/* Waits for the running job, if any, to finish (stopping it first when
 * stop is set). */
void engine_join_search(engine_t *e, bool stop);
/* Asks the running job to stop soon (it answers as it ends). */
void engine_stop_job(engine_t *e);
/* The search's report callbacks: info lines, and the root move being
 * searched. ctx is the engine_t. */
void engine_print_info(void *ctx, const position_t *root, const search_info_t *info);
void engine_print_currmove(void *ctx, const position_t *root, int depth, move_t move, int number);
/* bench at depth (0: each game's own), as `go` would search, with its
 * summary lines; runs on the caller's thread. */
void engine_run_bench(engine_t *e, int depth);

#endif
