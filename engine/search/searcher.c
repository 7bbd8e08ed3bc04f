/*
 * searcher.c: the searcher object (search.h): its table, threads and
 * per-thread history, stop and ponder flags, and the mate arithmetic the
 * protocol reports. May not reach into a running search's nodes.
 */
#include "search_ctx.h"

#include <stdlib.h>
#include <string.h>

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
    negamax_init();
    thr_flag_init(&s->stop, false);
    atomic_init(&s->helpers_stop, false);
    atomic_init(&s->pondering, false);
    atomic_init(&s->ponderhit_ms, 0);
    atomic_init(&s->handed_depth, 0);
    atomic_init(&s->started_depth, 0);
    atomic_init(&s->completed_depth, 0);
    thr_mutex_init(&s->handed_lock);
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
    thr_mutex_destroy(&s->handed_lock);
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

void search_stop(searcher_t *s) { thr_flag_raise(&s->stop); }

void search_set_pondering(searcher_t *s, bool on) { atomic_store(&s->pondering, on); }

bool search_pondering(const searcher_t *s) { return atomic_load(&((searcher_t *)s)->pondering); }

void search_ponderhit(searcher_t *s)
{
    atomic_store(&s->ponderhit_ms, timeman_now_ms());
    atomic_store(&s->pondering, false);
}

void search_reset_stop(searcher_t *s) { thr_flag_lower(&s->stop); }

bool search_stopped(const searcher_t *s) { return thr_flag_up(&s->stop); }

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
