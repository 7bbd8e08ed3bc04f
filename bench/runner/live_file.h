/*
 * live_file.h: the live file of `denham-match --live-file` (PROTOCOL.md,
 * "Watching a match"): the games in progress, one line per event, each
 * line written whole with one write() on an O_APPEND descriptor, so that a
 * reader tailing the file sees whole lines or none. match.c says what
 * happened; this file writes it down.
 */
#ifndef DENHAM_LIVE_FILE_H
#define DENHAM_LIVE_FILE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "../../engine/core/textbuf.h"
#include "match.h"

#define LIVE_FORMAT "denham-live 1"

typedef struct live_file {
    bool on;     /* opened: set before the writers start, never changed while they run */
    int fd;      /* -1: none, or no longer written (under lock) */
    const char *path;
    bool opened; /* live_open was called: live_close undoes it */
    pthread_mutex_t lock;
} live_file_t;

/* Creates (truncates) path; path NULL: no live file (true, writes nothing).
 * False, with one line on stderr, when it cannot be written. A live_file_t
 * not opened has fd -1 and nothing to close. */
bool live_open(live_file_t *l, const char *path);
void live_close(live_file_t *l);
/* Writes the fields as one line: tab-separated, a field's own tabs and
 * line breaks as spaces (t is scratch space, emptied). A failed write
 * ends the live file, not the match. Safe from several threads. */
void live_write(live_file_t *l, textbuf_t *t, const char *const *fields, int n);
/* The first line: the match's variant, games, shard, SPRT and engines. */
void live_header(live_file_t *l, const match_cfg_t *cfg, int total_games, int shard_games);
/* From an engine's `info` line, its score ("cp 35", "mate -3") and depth
 * ("7", or "-"); unchanged for a line without a score, a bound or a
 * MultiPV line after the first. */
void live_note_score(const char *info, char *score, size_t score_len, char *depth, size_t depth_len);

#endif
