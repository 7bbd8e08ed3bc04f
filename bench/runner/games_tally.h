/*
 * games_tally.h: games added up as one match of two-team games: W/D/L from
 * the first engine's view, pentanomial pairs (games 2k and 2k+1, the same
 * opening with the teams swapped), the SPRT's state, the endings, the
 * forfeits and the seats. The runner (match.c) counts its games here as
 * they finish, `denham-match --merge` (match_merge.c) the lines of games
 * files, `denham serve --watch` (protocol/serve/watch.c) the `end` lines of
 * live files: one rule for all three. Numbers from text: opens no file,
 * starts no engine.
 *
 * The SPRT's rule (README, "The SPRT's decision"):
 * - it counts game pairs (the pentanomial), a pair once both its games
 *   are in;
 * - a single run's games (one source, shard 1/1: `sequential`), in the
 *   order they finished, are checked after every pair, as the runner
 *   checks them: the first pair that takes the LLR past a bound decides,
 *   and the games that finish after it (games in flight when the runner
 *   stopped) are recorded apart, counted in no result;
 * - shards are checked on all the pairs given (a shard never stops: the
 *   merge decides, and sprt.sh merges after each batch);
 * - a count that is final with pairs not whole (a run interrupted between
 *   a pair's two games) takes the LLR of single games (trinomial) instead,
 *   and a sequential count never decides there.
 */
#ifndef DENHAM_GAMES_TALLY_H
#define DENHAM_GAMES_TALLY_H

#include "../../engine/core/record.h"
#include "match.h"

#define GAMES_TALLY_MAX 1000000 /* the highest game index, as --games allows */
/* Games counted at most: --games rounded up to whole groups (32 games at most). */
#define GAMES_TALLY_SLOTS (GAMES_TALLY_MAX + MATCH_MAX_SEATINGS * MAX_PLAYERS)

typedef struct games_tally {
    match_cfg_t cfg;    /* the variant and the two engines' names once a line was added; sprt/sprt_on to test */
    signed char *score; /* by game index: +1 the first engine won, 0 draw, -1 lost (counted), 2 absent, 3 apart */
    int slots;          /* score's games: the indices a game may have */
    int max_index;      /* the highest index seen, from 0 */
    bool sequential;    /* one run's games, in the order they finished: the SPRT checked after every pair */
    bool final;         /* no game will be added: pairs not whole count as single games */
    bool replay;        /* games_tally_add replays each game for the passes and players out (team games) */
    int unpaired;       /* counted games whose pair's other game is not counted */
    match_summary_t sum;
} games_tally_t;

/* Splits a games-file (or live-file) line at its tabs, in place: at most
 * max fields; their number. */
int games_tally_split(char *line, char **field, int max);

/* An empty tally for any games (GAMES_TALLY_SLOTS), or for a match of
 * `games` games (indices 0 to games - 1); false when out of memory. */
bool games_tally_init(games_tally_t *t);
bool games_tally_init_for(games_tally_t *t, int games);
/* Empty again, keeping the memory (and the flags). */
void games_tally_clear(games_tally_t *t);
void games_tally_free(games_tally_t *t);

/* Game `index` (from 0) finished, scoring s for the first engine (+1, 0,
 * -1): counted in sum, its pair and the SPRT's state (see above) once both
 * of the pair are in; or, after a decision, recorded apart (sum.after).
 * True when counted. The game must not be in already, index < slots;
 * t->cfg.game set. */
bool games_tally_count(games_tally_t *t, int index, int s);

/* Adds one games-file line (without its line break; split in place at its
 * tabs). NULL when added (counted or apart); else why it was refused, and
 * nothing is added: not a games-file line, an unknown variant, another
 * variant or other engines than the lines before (shards of another
 * match), a game already added or beyond the tally's slots, a free-for-all
 * game (no pairs, no Elo). */
const char *games_tally_add(games_tally_t *t, char *line);

/* The SPRT's state now: in a count that is not sequential, the LLR of the
 * pairs counted and the decision; in a final count with pairs not whole,
 * the LLR of single games (sum.llr_of_games). */
void games_tally_pairs(games_tally_t *t);

/* Is game `index` (from 0) part of a match of `games` games in groups of
 * `group`, in shard k of n? */
bool games_tally_in_match(int index, int games, int group, int shard_k, int shard_n);

/* The forfeit a game's reason names: 1 time, 2 illegal move, 3 crash, or 0
 * (the runner writes these reasons; match.c). */
int games_tally_forfeit_kind(const char *reason);

/* The passes played after ply from_ply of a finished game, and whether a
 * player lost all its men on the way (team games: a player without men is
 * skipped), into sum. */
void games_tally_passes(match_summary_t *sum, const record_t *rec, int from_ply);

/* A reason's count in sum's endings (MATCH_MAX_ENDINGS kinds at most). */
void games_tally_ending(match_summary_t *sum, const char *reason);

#endif
