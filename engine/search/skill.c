/*
 * skill.c: a weaker player's choice among the best lines (skill.h).
 * Reaches the searcher through search.h only; knows no game's rules.
 */
#include "skill.h"

#include <assert.h>

#include "../core/timeman.h"

/* Each level below the top widens the bonus by this much: at level 0 a
 * line up to four men worse than the best may be played. */
#define SPREAD_PER_LEVEL 20

rng_t skill_rng_new(void) { return (rng_t){(uint64_t)timeman_now_us() * 0x9E3779B97F4A7C15ull}; }

int skill_depth(int level) { return level >= SKILL_MAX ? MAX_PLY : 1 + level; }

/* Each line past the first is a search of its own: at 50 ms a move, four
 * lines cost Brandubh about 100 Elo by themselves, which flattened the top
 * of the scale; so the top levels compare two. */
int skill_lines(int level) { return level >= SKILL_MAX ? 1 : 2 + (SKILL_MAX - level) / 7; }

int skill_spread(int level) { return level >= SKILL_MAX ? 0 : (SKILL_MAX - level) * SPREAD_PER_LEVEL; }

int skill_pick(const pv_line_t *lines, int n, int level, rng_t *rng)
{
    assert(n >= 1);
    int spread = skill_spread(level);
    /* A found win is played; when the best line is lost, so is every line. */
    if (spread == 0 || lines[0].score >= SCORE_WIN_BOUND || lines[0].score <= -SCORE_WIN_BOUND)
        return 0;
    int best = 0;
    score_t best_total = 0;
    for (int i = 0; i < n; i++) {
        if (lines[i].score <= -SCORE_WIN_BOUND) /* a loss it sees is avoided */
            continue;
        score_t total = lines[i].score + (score_t)rng_below(rng, (uint32_t)spread + 1);
        if (i == 0 || total > best_total) {
            best = i;
            best_total = total;
        }
    }
    return best;
}

search_result_t skill_search(searcher_t *s, const search_request_t *req, int level, pv_line_t *lines, rng_t *rng)
{
    if (level >= SKILL_MAX)
        return search_run(s, req);
    /* A copy: the front end may read its request while this runs. */
    search_request_t weak = *req;
    if (search_max_depth(&weak.limits) > skill_depth(level))
        weak.limits.depth = skill_depth(level);
    int k = weak.multipv > skill_lines(level) ? weak.multipv : skill_lines(level);
    search_result_t r = {.best = MOVE_NONE, .ponder = MOVE_NONE};
    int n = multipv_search(s, &weak, k, lines);
    if (n == 0)
        return r;
    const pv_line_t *l = &lines[skill_pick(lines, n, level, rng)];
    r.best = l->pv[0];
    r.ponder = l->pv_len > 1 ? l->pv[1] : MOVE_NONE;
    r.score = l->score;
    r.mate = l->mate;
    r.depth = l->depth;
    r.nodes = l->nodes;
    return r;
}
