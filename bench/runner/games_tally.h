/*
 * games_tally.h: the lines of games files (one per game, as `denham-match
 * --games-file` writes them) added up as one match of two-team games: W/D/L
 * from the first engine's view, pentanomial pairs (games 2k and 2k+1, the
 * same opening with the teams swapped), the SPRT's state, the endings.
 * `denham-match --merge` (match_merge.c) and `denham serve --watch`
 * (protocol/serve/watch.c) share it. Numbers from text: opens no file,
 * starts no engine.
 */
#ifndef DENHAM_GAMES_TALLY_H
#define DENHAM_GAMES_TALLY_H

#include "match.h"

#define GAMES_TALLY_MAX 1000000 /* the highest game index, as --games allows */

typedef struct games_tally {
    match_cfg_t cfg;    /* the variant and the two engines' names once a line was added; sprt/sprt_on to test */
    signed char *score; /* by game index: +1 the first engine won, 0 draw, -1 lost, 2 absent */
    int max_index;      /* the highest index seen, from 0 */
    match_summary_t sum;
} games_tally_t;

/* An empty tally; false when out of memory. */
/* Splits a games-file (or live-file) line at its tabs, in place: at most
 * max fields; their number. */
int games_tally_split(char *line, char **field, int max);

bool games_tally_init(games_tally_t *t);
void games_tally_free(games_tally_t *t);
/* Adds one games-file line (without its line break; split in place at its
 * tabs). NULL when added; else why it was refused, and nothing is added: not
 * a games-file line, an unknown variant, another variant or other engines
 * than the lines before (shards of another match), a game already added, a
 * free-for-all game (no pairs, no Elo). */
const char *games_tally_add(games_tally_t *t, char *line);
/* Counts the pairs both of whose games are in and, with cfg.sprt_on, the
 * LLR and the decision (sum.penta, sum.llr, sum.sprt_decision), afresh. */
void games_tally_pairs(games_tally_t *t);

#endif
