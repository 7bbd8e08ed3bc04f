/*
 * threads.c: what Lazy SMP's threads share beyond the transposition table:
 * the depth each starts next, and the hand-over of a helper's completed
 * iteration when it is deeper than the main thread's, which the main
 * thread then takes as its own, and the order in which a thread visits a
 * chance node's outcomes. Called by iterative deepening (iterate.c, which
 * also starts and stops the helpers) and chance.c; may not search.
 */
#include <string.h>

#include "search_ctx.h"

/* Whether this thread runs ahead of the others (above the deepest depth
 * begun) or shares the deepest unfinished iteration with them. In a game
 * with dice the main thread and helpers 1, 3, ... share it, splitting
 * the chance nodes' rolls (threads_first_outcome), and helpers 2, 4, ...
 * run ahead: with two threads the time to a depth in Jinxx was 1.2x with
 * the helper ahead, 1.9x sharing (bench_denham smp). Without dice two
 * threads on one depth search the same moves in the same order, and every
 * thread runs ahead: the Brandubh median was 1.4x sharing, 1.5-1.6x not.
 * Nor did it pay to put off, at a node, a move another thread is
 * searching there (simplified ABDADA, at depth 3 and more): 1.23x to
 * 1.45x with it, sharing depths or not, 1.25x to 1.63x without (the
 * same bench, 2026-12-01), also when a deferred move kept its place in
 * the order for its reduction. */
static bool leads(const ctx_t *c) { return !c->dice || (c->id > 0 && c->id % 2 == 0); }

/* The depth of this thread's next iteration, the one after `depth` at the
 * earliest: one above the deepest completed, or for a leading thread one
 * above the deepest begun, but at most two above the deepest completed
 * (two leading threads leapfrog: each searches every other depth, on the
 * table the other is filling one depth below). */
int threads_next_depth(ctx_t *c, int depth, int max_depth)
{
    if (!c->leapfrogs)
        return depth;
    searcher_t *s = c->s;
    int cap = atomic_load(&s->completed_depth) + 1;
    int d = cap;
    if (leads(c)) {
        d = atomic_load(&s->started_depth) + 1;
        cap++;
    }
    if (d > cap)
        d = cap;
    if (d > max_depth)
        d = max_depth;
    if (d < depth)
        d = depth;
    atomic_raise(&s->started_depth, d);
    return d;
}

/* The outcome this thread visits first among a chance node's n: threads
 * sharing an iteration start at outcomes spread evenly, so that each
 * searches a different roll first and finds the others' in the table,
 * rather than all searching the same roll at once. */
int threads_first_outcome(const ctx_t *c, int n)
{
    if (!c->leapfrogs || leads(c))
        return 0;
    int sharers = 1 + c->s->threads / 2, k = (c->id + 1) / 2; /* threads 0, 1, 3, 5, ... */
    return n * k / sharers;
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
