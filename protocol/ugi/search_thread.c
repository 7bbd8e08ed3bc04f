/*
 * search_thread.c: the UGI/UCI front end's search thread: a search, go
 * perft or bench runs there so that the command loop keeps answering; its
 * info lines and bestmove. May not read commands (protocol.c does).
 */
#define _POSIX_C_SOURCE 200809L
#include <assert.h>
#include <string.h>

#include "../../engine/core/perft.h"
#include "../../engine/search/bench.h"
#include "engine_state.h"
#include "prepare_wait.h"

void engine_print_info(void *ctx, const position_t *root, const search_info_t *info)
{
    engine_t *e = ctx;
    const game_t *g = e->req.game;
    char line[8192];
    size_t n = 0;
    n += (size_t)snprintf(line + n, sizeof line - n, "info depth %d seldepth %d ", info->depth, info->seldepth);
    if (info->multipv > 0)
        n += (size_t)snprintf(line + n, sizeof line - n, "multipv %d ", info->multipv);
    if (info->mate)
        n += (size_t)snprintf(line + n, sizeof line - n, "score mate %d", info->mate);
    else
        n += (size_t)snprintf(line + n, sizeof line - n, "score cp %d", (int)info->score);
    if (info->bound != SEARCH_EXACT)
        n += (size_t)snprintf(line + n, sizeof line - n, " %s", info->bound == SEARCH_LOWER ? "lowerbound" : "upperbound");
    n += (size_t)snprintf(line + n, sizeof line - n, " nodes %llu nps %llu hashfull %d",
                          (unsigned long long)info->nodes, (unsigned long long)info->nps, info->hashfull);
    if (info->tables)
        n += (size_t)snprintf(line + n, sizeof line - n, " tbhits %llu", (unsigned long long)info->tbhits);
    n += (size_t)snprintf(line + n, sizeof line - n, " time %lld pv", (long long)info->time_ms);
    position_t pos = *root;
    for (int i = 0; i < info->pv_len && n < sizeof line - GAME_MOVE_TEXT_MAX - 2; i++) {
        char mv[GAME_MOVE_TEXT_MAX];
        undo_t u;
        g->move_text(&pos, info->pv[i], mv, sizeof mv);
        n += (size_t)snprintf(line + n, sizeof line - n, " %s", mv);
        g->make(&pos, info->pv[i], &u);
    }
    engine_say(e, "%s", line);
}

void engine_print_currmove(void *ctx, const position_t *root, int depth, move_t move, int number)
{
    engine_t *e = ctx;
    char mv[GAME_MOVE_TEXT_MAX];
    e->req.game->move_text(root, move, mv, sizeof mv);
    engine_say(e, "info depth %d currmove %s currmovenumber %d", depth, mv, number);
}

static void run_perft(engine_t *e, int depth);

static bool stopped(void *ctx) { return search_stopped(((engine_t *)ctx)->searcher); }

/* A `go` before isready or ucinewgame (a script's, a person's) may find
 * the game's solved endings not built yet (PROTOCOL.md, "Searching"):
 * they are built on a thread of their own. A search with a time limit
 * starts at once, without them (the search uses them only if built when
 * it starts); one without (depth, nodes, mate, infinite) waits for them,
 * so that it gives the same answer as after isready, and `stop` ends the
 * wait at once: false then. */
static bool await_endings(engine_t *e)
{
    const search_request_t *req = &e->req;
    const game_t *g = req->game;
    time_budget_t b = timeman_budget(&req->limits, g->to_move(&req->root), req->overhead_ms, g->clock_moves);
    if (b.hard_ms >= 0) {
        prepare_start(g);
        return true;
    }
    return prepare_wait(g, stopped, e);
}

/* The answer of a search given up before it began: the first move it was
 * allowed, said to be unsearched. */
static search_result_t unsearched(engine_t *e)
{
    search_result_t r = {.best = MOVE_NONE, .ponder = MOVE_NONE};
    move_t moves[MAX_MOVES];
    if (e->req.n_root_moves > 0)
        r.best = e->req.root_moves[0];
    else if (e->req.game->gen_moves(&e->req.root, moves) > 0)
        r.best = moves[0];
    engine_say(e, "info string the solved endings were still being built (isready builds them): the first legal "
                  "move, not searched");
    return r;
}

static void *search_thread(void *arg)
{
    engine_t *e = arg;
    if (e->job != JOB_SEARCH) {
        if (e->job == JOB_PERFT)
            run_perft(e, e->job_depth);
        else
            engine_run_bench(e, e->job_depth);
        atomic_store(&e->search_finished, true);
        return NULL;
    }
    search_result_t r = await_endings(e) ? skill_search(e->searcher, &e->req, e->skill, e->skill_lines, &e->skill_rng)
                                         : unsearched(e);
    /* UCI: after `go infinite` the answer waits for `stop`, after `go
     * ponder` for `stop` or `ponderhit`. */
    while ((e->req.limits.infinite || search_pondering(e->searcher)) && !search_stopped(e->searcher))
        thr_wait();
    const game_t *g = e->req.game;
    if (r.best == MOVE_NONE) {
        atomic_store(&e->search_finished, true);
        engine_say(e, "bestmove (none)");
        return NULL;
    }
    char best[GAME_MOVE_TEXT_MAX], ponder[GAME_MOVE_TEXT_MAX + 8] = "";
    g->move_text(&e->req.root, r.best, best, sizeof best);
    /* A `ponder` token only for UCI with the Ponder option on: strict UGI
     * runners read exactly two tokens. */
    if (e->uci && e->ponder_option && r.ponder != MOVE_NONE) {
        position_t after = e->req.root;
        undo_t u;
        g->make(&after, r.best, &u);
        strcpy(ponder, " ponder ");
        g->move_text(&after, r.ponder, ponder + 8, sizeof ponder - 8);
    }
    search_set_pondering(e->searcher, false);
    /* Finished before the answer goes out: a GUI may send the next `go`
     * the moment it reads bestmove, and that `go` must find us done. */
    atomic_store(&e->search_finished, true);
    engine_say(e, "bestmove %s%s", best, ponder);
    return NULL;
}

void engine_stop_job(engine_t *e)
{
    search_stop(e->searcher);
    thr_flag_raise(&e->job_stop);
}

/* Waits for the running search, if any, to print its bestmove. Without
 * threads the job has ended before the command loop reads on. */
void engine_join_search(engine_t *e, bool stop)
{
    if (!e->searching)
        return;
    assert(THR_THREADS && "without threads a job ends before the loop reads on");
    if (stop)
        engine_stop_job(e);
    thr_join(e->thread);
    e->searching = false;
}

/* Sizes the table as the Hash option says, once: at the first isready or
 * go, not at start-up, as the UGI text advises (a GUI sets Hash first). */
void engine_ensure_hash(engine_t *e)
{
    if (e->hash_allocated)
        return;
    e->hash_allocated = true;
    if (!searcher_set_hash(e->searcher, (size_t)e->hash_mb)) {
        ERROR(e, "cannot allocate %d MB for the hash table; using 1 MB", e->hash_mb);
        e->hash_mb = 1;
    }
}

/* Starts e->job on the search thread; false (with an error line) when the
 * thread cannot be had. */
bool engine_start_job(engine_t *e)
{
    engine_ensure_hash(e);
    search_reset_stop(e->searcher);
    thr_flag_lower(&e->job_stop);
    atomic_store(&e->search_finished, false);
#if THR_THREADS
    if (!thr_create(&e->thread, search_thread, e)) {
        ERROR(e, "cannot start the search thread");
        return false;
    }
    e->searching = true;
#else
    /* No threads: the job runs here, and the command loop takes its
     * turns at the job's stop checks (thr_poll, thr_wait; protocol.c's
     * take_turn), so that `stop` and `isready` are read during it. */
    e->searching = true;
    search_thread(e);
    e->searching = false;
#endif
    return true;
}

static void say_divide(void *ctx, const char *move, uint64_t count)
{
    engine_say(ctx, "%s: %llu", move, (unsigned long long)count);
}

/* Repetition is ignored, as docs/rules/README.md defines perft. Runs on
 * the search thread: `stop` ends it, with one line saying so. */
static void run_perft(engine_t *e, int depth)
{
    position_t pos = e->req.root;
    bool stopped;
    uint64_t total = perft_divide_stoppable(e->req.game, &pos, depth, say_divide, e, &e->job_stop, &stopped);
    if (stopped) {
        engine_say(e, "info string perft stopped");
        return;
    }
    engine_say(e, "");
    engine_say(e, "Nodes searched: %llu", (unsigned long long)total);
}

static void bench_progress(void *ctx, int index, const position_t *pos, const search_result_t *r)
{
    engine_t *e = ctx;
    char mv[GAME_MOVE_TEXT_MAX] = "(none)";
    if (r->best != MOVE_NONE)
        e->game->move_text(pos, r->best, mv, sizeof mv);
    engine_say(e, "info string bench position %d: nodes %llu bestmove %s", index + 1, (unsigned long long)r->nodes, mv);
}

void engine_run_bench(engine_t *e, int depth)
{
    bench_result_t b;
    /* As `go` would search: every option that shapes the search. */
    bench_options_t o = {e->multiplayer, e->chance_pruning, e->multipv, e->skill};
    if (!bench_run(e->game, e->searcher, depth, &o, bench_progress, e, &b)) {
        ERROR(e, "a bench position of %s does not parse, or memory is short", e->game->name);
        return;
    }
    if (search_stopped(e->searcher)) {
        engine_say(e, "info string bench stopped");
        searcher_clear(e->searcher);
        return;
    }
    int64_t t = b.time_us > 0 ? b.time_us : 1;
    engine_say(e, "Total time (ms) : %lld", (long long)(b.time_us / 1000));
    engine_say(e, "Nodes searched  : %llu", (unsigned long long)b.nodes);
    engine_say(e, "Nodes/second    : %llu", (unsigned long long)(b.nodes * 1000000 / (uint64_t)t));
    searcher_clear(e->searcher);
}
