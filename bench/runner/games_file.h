/*
 * games_file.h: the games file of `denham-match --games-file`, format 1:
 * first a header saying which match the file is part of, one `#` line per
 * item (tab-separated, so that the board's "Open" and any reader of game
 * lines pass over them: they are not eight fields); then one line per game
 * in the order the games finished (index, variant, player 1, player 2,
 * result, reason, opening, the whole game; games_tally.h reads them); last
 * a line saying how the run ended:
 *
 *   #denham-games  1
 *   #variant       brandubh
 *   #games         60            (the whole match's, rounded up to whole groups)
 *   #shard         2/3           (1/1 without shards)
 *   #seed          1
 *   #openings      random:4      <digest of the openings played, 16 hex digits>
 *   #max-plies     400
 *   #time-margin   50
 *   #hang          10000
 *   #seating       ABB,BAA       (free-for-all games only)
 *   #engine        1  name    deep
 *   #engine        1  cmd     ./denham
 *   #engine        1  limit   depth=3
 *   #engine        1  option  Hash=16      (one line per option.NAME=VALUE)
 *   #sprt          0 50 0.05 0.05          (or -)
 *   ...games...
 *   #over          20  complete | H1 accepted | H0 accepted | interrupted
 *   (or #failed    <why the run stopped>)
 *
 * Two files are of one match when their headers are the same line for
 * line but for #shard's K and #sprt (the SPRT stops a single run only; a
 * shard plays all its games). Writes and reads text; plays nothing.
 */
#ifndef DENHAM_GAMES_FILE_H
#define DENHAM_GAMES_FILE_H

#include <stdint.h>
#include <stdio.h>

#include "match.h"

#define GAMES_FILE_MAGIC "#denham-games"
#define GAMES_FILE_VERSION "1"
#define GAMES_FILE_HEADER_MAX 64 /* header lines at most */

/* The header of cfg's match (total_games its games, rounded up; digest
 * the openings played), written to f. */
void games_file_write_header(FILE *f, const match_cfg_t *cfg, int total_games, uint64_t openings_digest);
/* The last line: how the run ended, after `played` games written. */
void games_file_write_over(FILE *f, int played, const char *how);
void games_file_write_failed(FILE *f, const char *why);

/* FNV-1a, 64 bits: the digest of the openings, `bytes` at a time. */
uint64_t games_file_digest(uint64_t h, const void *bytes, size_t n);
#define GAMES_FILE_DIGEST_START 0xcbf29ce484222325ull

/* A header as read. */
typedef struct games_header {
    int n_lines;
    char *lines[GAMES_FILE_HEADER_MAX]; /* the identity: every header line but #shard and #sprt, as written */
    const game_t *game;
    int games, shard_k, shard_n;
    int n_engines;
    char engines[MATCH_MAX_ENGINES][64];
    bool has_sprt;
    sprt_t sprt;
} games_header_t;

void games_header_free(games_header_t *h);
/* One header line (without its line break, NUL-terminated) into h; NULL,
 * or why it is not a header line this reader knows. The first line must be
 * the format's. */
const char *games_header_add(games_header_t *h, const char *line);
/* After the last header line: NULL, or what it lacks. */
const char *games_header_check(const games_header_t *h);
/* NULL when a and b are headers of one match; else the first line where
 * they differ, in why (as "'#engine 2 limit depth=2' against '... depth=3'"). */
const char *games_header_compare(const games_header_t *a, const games_header_t *b, char *why, size_t len);

#endif
