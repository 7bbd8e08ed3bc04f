/* watch_live.h: the live-file reader of `denham serve --watch`
 * (watch_live.c): what it keeps of the files named by --watch, for the
 * watch page's JSON and routes (watch.c), which read it under W.lock.
 * Internal to the two: serve.c sees watch.h only. */
#ifndef DENHAM_WATCH_LIVE_H
#define DENHAM_WATCH_LIVE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/types.h>

#include "../../bench/runner/games_tally.h"
#include "../../engine/core/record.h"
#include "watch.h"
#define WATCH_FORMAT "denham-live 1"
#define WATCH_LINE_MAX (1 << 20)      /* a longer line is skipped (and counted) */
#define WATCH_READ_MAX (4 << 20)      /* read from one file per poll */
#define WATCH_LIVE_MAX 64             /* games in progress kept per file; the oldest give way */
#define WATCH_DONE_MAX 1000           /* finished games kept for replay ... */
#define WATCH_DONE_BYTES (64 << 20)   /* ... and their lines' bytes; the oldest go first */
#define WATCH_DONE_SHOWN 200          /* finished games listed in the page */
#define WATCH_POLL_MS 250
#define WATCH_REPLAY_PLIES 2000       /* positions sent for one replay */
#define WATCH_NAME 64                 /* an engine's name, as the runner keeps it */
#define WATCH_FIELDS 16

typedef struct eval {
    char score[24]; /* "cp 35", "mate -3" or "" */
    char depth[12];
    char move[GAME_MOVE_TEXT_MAX];
    int ply;
} eval_t;

typedef struct live_game {
    bool used;
    int index;
    unsigned long long seq; /* the order games started in: the oldest gives way */
    char p1[4 * WATCH_NAME + 4], p2[WATCH_NAME];
    record_t rec;
    position_t before; /* the position before the last move, when has_before */
    bool has_before;
    bool stuck; /* a move did not follow: shown as it was */
    char last[GAME_MOVE_TEXT_MAX];
    eval_t eval[MAX_PLAYERS]; /* each seat's engine's last score */
} live_game_t;

typedef struct watch_file {
    char path[WATCH_PATH_MAX];
    /* The poller's alone: */
    dev_t dev;
    ino_t ino;
    off_t offset;
    bool seen;
    char *partial; /* a line not yet ended */
    size_t partial_len, partial_cap;
    bool skipping; /* inside a line over WATCH_LINE_MAX */
    /* Under the lock: */
    const char *status; /* "waiting" (not there yet), "reading", "error" (cannot be read) */
    char error[160];
    char format_error[160]; /* not a live file: read no further until it is replaced */
    bool header;
    const game_t *game;
    int games, shard_games, n_engines;
    char shard[24];
    int shard_k, shard_n;
    char engines[MATCH_MAX_ENGINES][WATCH_NAME];
    bool over;
    char decision[16]; /* the SPRT's, when the runner stopped the match for it */
    int finished, bad_lines;
    char last_bad[160];
    live_game_t live[WATCH_LIVE_MAX];
} watch_file_t;

typedef struct done_game {
    int file, index, plies;
    char *line; /* the games-file line */
    size_t len;
    char p1[4 * WATCH_NAME + 4], p2[WATCH_NAME], result[16], reason[96];
} done_game_t;

/* Everything read, under `lock` (the poller changes it; the page's JSON
 * reads it). */
typedef struct watch_state {
    int n_files;
    watch_file_t *files[WATCH_FILES_MAX];
    pthread_mutex_t lock;
    unsigned long long version, seq, pairs_version;
    games_tally_t tally;
    char tally_error[200];
    int refused; /* finished games the tally refused */
    /* Free-for-all games: wins per engine of the first file's header. */
    const game_t *ffa_game;
    int ffa_games, ffa_draws, ffa_wins[MATCH_MAX_ENGINES];
    done_game_t done[WATCH_DONE_MAX]; /* a ring */
    int done_first, done_count, done_total;
    size_t done_bytes;
    pthread_t poller;
    bool running;
    atomic_bool stopping;
    void (*changed)(void); /* after a change, the lock held */
} watch_state_t;

extern watch_state_t watch_state;
#define W watch_state

/* Starts the poller (none without files); changed() is called, W.lock
 * held, after each look that changed what is kept, and once at the start. */
bool watch_live_start(void (*changed)(void));
/* Ends the poller and frees everything read. */
void watch_live_stop(void);
/* For the fuzz target (watch_fuzz_read), W.lock held: bytes read as the
 * file fi's next, and everything read forgotten. */
void watch_live_feed(int fi, const char *buf, size_t len);
void watch_live_reset(void);

#endif
