/*
 * skill.h: playing weaker on purpose (the UCI option Skill Level), for
 * people who want a game they can win.
 * Reaches the searcher through search.h only.
 *
 * Below the top level a move is chosen among the best few lines of a
 * shallow MultiPV search: each line's score gets a random bonus whose
 * range grows as the level falls, and the highest total is played. A weak
 * level thus plays moves a little worse than the best, often, and moves
 * much worse only when the lines are close; it never throws away a win it
 * has found, nor walks into a loss it sees, unless every line does. The
 * bonus is in the evaluation's units (hundredths of a man). Jinxx, whose
 * games the die decides more than small errors, has a short scale: at
 * 100 ms a move level 0 scored -315 Elo against full strength, level 10
 * and 19 within the error bars of it (+21, +24; five times the bonus made
 * level 10 -35 only). At the top level nothing changes: the search plays
 * its best move.
 */
#ifndef DENHAM_SKILL_H
#define DENHAM_SKILL_H

#include "../core/rng.h"
#include "multipv.h"

#define SKILL_MAX 20 /* full strength: the default */

/* A generator for a session's choices, seeded from the clock: each
 * session plays its own weak games, so a person who replays a won game
 * move for move does not win it again for free. */
rng_t skill_rng_new(void);
/* The deepest iteration a search at this level may reach (level 0: 1). */
int skill_depth(int level);
/* How many lines a search at this level compares, at least: 4 at the
 * lowest levels, 2 at the highest (each line costs a search of its own). */
int skill_lines(int level);
/* The widest bonus a line may get at this level, in hundredths of a man
 * (0 at the top level). */
int skill_spread(int level);
/* The line to play among lines[0..n-1] (best first, n >= 1). */
int skill_pick(const pv_line_t *lines, int n, int level, rng_t *rng);
/* Searches req at this level and answers with the move to play: at
 * SKILL_MAX search_run itself; below it a copy of req with its depth
 * capped, whose lines (reported as usual) are compared in lines[], which
 * has room for SEARCH_MULTIPV_MAX. The score, mate and pv move after it
 * are the chosen line's. */
search_result_t skill_search(searcher_t *s, const search_request_t *req, int level, pv_line_t *lines, rng_t *rng);

#endif
