/*
 * threads.c: what Lazy SMP's threads share beyond the transposition table:
 * the depth each starts next, and the hand-over of a helper's completed
 * iteration when it is deeper than the main thread's, which the main
 * thread then takes as its own. Called by iterative deepening (iterate.c,
 * which also starts and stops the helpers); may not search.
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
    thr_mutex_lock(&s->handed_lock);
    if (depth > atomic_load_explicit(&s->handed_depth, memory_order_relaxed)) {
        s->handed.score = line->score;
        s->handed.pv_len = line->pv_len;
        memcpy(s->handed.pv, line->pv, (size_t)line->pv_len * sizeof *line->pv);
        atomic_store_explicit(&s->handed_depth, depth, memory_order_relaxed);
    }
    thr_mutex_unlock(&s->handed_lock);
    atomic_raise(&s->completed_depth, depth); /* after the line: see check_limits */
}

/* The main thread takes the line a helper completed at `depth` or deeper:
 * its depth, or 0 when there is none. */
int threads_take_handed(ctx_t *c, int depth, line_t *line)
{
    searcher_t *s = c->s;
    if (c->id != 0 || !c->leapfrogs || atomic_load_explicit(&s->handed_depth, memory_order_relaxed) < depth)
        return 0;
    thr_mutex_lock(&s->handed_lock);
    int got = atomic_load_explicit(&s->handed_depth, memory_order_relaxed);
    line->score = s->handed.score;
    line->pv_len = s->handed.pv_len;
    memcpy(line->pv, s->handed.pv, (size_t)s->handed.pv_len * sizeof *line->pv);
    thr_mutex_unlock(&s->handed_lock);
    return got;
}
