/*
 * threads.c: Lazy SMP's helper threads and the hand-over between them.
 * Every thread searches the same root by iterative deepening (iterate.c),
 * sharing only the transposition table; a helper that completes an
 * iteration deeper than the main thread's hands its line over here, and
 * the main thread takes it as its own.
 */
#include <string.h>

#include "search_ctx.h"

/* The depth of this thread's next iteration, the one after `depth` at the
 * earliest: with other threads, one above the deepest begun, but at most
 * two above the deepest completed (more threads then share a depth). */
int threads_next_depth(ctx_t *c, int depth, int max_depth)
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

/* A helper's completed iteration, kept for the main thread when it is the
 * deepest yet. */
void threads_hand_over(ctx_t *c, int depth, const line_t *line)
{
    searcher_t *s = c->s;
    /* The counts too: the main thread may report this line before the
     * helper's next poll, and a short search would show too few nodes. */
    ctx_publish_counts(c);
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
int threads_take_handed(ctx_t *c, int depth, line_t *line)
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

static void *helper_main(void *arg)
{
    ctx_t *c = arg;
    search_result_t unused;
    line_t line;
    move_t moves[MAX_MOVES];
    iterate(c, ctx_allowed_root_moves(c->req, moves, c->g->gen_moves(&c->pos, moves)), &unused, &line);
    return NULL;
}

/* Starts the helper threads (as many as can be had). */
void threads_start_helpers(searcher_t *s, const search_request_t *req)
{
    atomic_store(&s->helpers_stop, false);
    atomic_store(&s->handed_depth, 0);
    atomic_store(&s->started_depth, 0);
    atomic_store(&s->completed_depth, 0);
    for (int i = 1; i < s->threads; i++) {
        worker_t *w = &s->workers[i];
        w->running = false;
        if (!searcher_ensure_history(w, req->game->move_keys))
            continue;
        ctx_init(w->ctx, s, req, i);
        w->ctx->leapfrogs = true;
        w->running = pthread_create(&w->thread, NULL, helper_main, w->ctx) == 0;
    }
}

/* Stops and joins the helpers; what they counted. */
counts_t threads_stop_helpers(searcher_t *s)
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
