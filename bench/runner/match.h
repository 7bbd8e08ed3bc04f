/*
 * match.h: engine-against-engine matches, refereed with the engine library's
 * own rules.
 *
 * Two engines play. In two-team games each plays a team, every seat of a
 * team running its own process of that team's engine, and each opening is
 * played twice with the teams swapped. In free-for-all games (Jinxx for 3
 * and 4) seating patterns say which engine sits where, each rotated through
 * every seat. The runner rolls the dice, from a generator seeded per group
 * of games, so every seating of a group meets the same rolls.
 */
#ifndef DENHAM_MATCH_H
#define DENHAM_MATCH_H

#include <stdio.h>

#include "../../engine/core/game.h"
#include "stats.h"

#define MATCH_MAX_OPTIONS 16
#define MATCH_TEXT 512

/* How an engine is limited on each move. Exactly one kind is used. */
typedef enum limit_kind { LIMIT_DEPTH, LIMIT_NODES, LIMIT_MOVETIME, LIMIT_CLOCK } limit_kind_t;

typedef struct limit {
    limit_kind_t kind;
    long long value;   /* depth, nodes or ms per move; base ms for a clock */
    long long inc_ms;  /* clock increment */
} limit_t;

typedef struct engine_cfg {
    char name[64];
    char cmd[MATCH_TEXT];
    int n_options;
    char option_name[MATCH_MAX_OPTIONS][64];
    char option_value[MATCH_MAX_OPTIONS][128];
    limit_t limit;
} engine_cfg_t;

#define MATCH_MAX_SEATINGS 8
#define MATCH_MAX_ENGINES MAX_PLAYERS

typedef struct match_cfg {
    const game_t *game;
    engine_cfg_t engines[MATCH_MAX_ENGINES];
    int n_engines;        /* 2, or up to one per seat in free-for-all games */
    int games;            /* rounded up to whole groups (see match.c): two games in two-team games */
    /* Free-for-all games: seating patterns (A the first engine, B the
     * second ..., one letter per seat), each played rotated through every
     * seat. */
    int n_seatings;
    char seating[MATCH_MAX_SEATINGS][MAX_PLAYERS + 1];
    int concurrency;
    int max_plies;        /* 0: no limit; else a draw by adjudication */
    int random_plies;     /* openings: this many random legal plies ... */
    unsigned long long seed;
    const char *openings_file; /* ... or one `startpos|fen ... [moves ...]` per line */
    bool openings_shuffled;    /* a book: the file's lines in an order drawn from the seed */
    long long time_margin_ms;  /* late answers within this are not losses */
    long long hang_ms;         /* an engine silent this long past its limit is killed */
    const char *games_path;    /* one line per game; NULL: none */
    const char *live_path;     /* the games in progress, move by move (PROTOCOL.md); NULL: none */
    const char *log_path;      /* engines' stderr; NULL: discarded */
    bool sprt_on;
    sprt_t sprt;
    bool quiet;                /* no progress lines */
    /* Shards: this run plays the groups of games whose number, counted
     * from 0, is shard_k - 1 modulo shard_n (1 and 1: every game), the
     * same games a whole run would play there; the SPRT stops no shard. */
    int shard_k, shard_n;
} match_cfg_t;

#define MATCH_MAX_ENDINGS 16

typedef struct match_summary {
    wdl_t wdl; /* engines[0]'s view (two engines) */
    penta_t penta;
    int games_played;
    double llr;
    int sprt_decision; /* 0 none, +1 H1 accepted, -1 H0 accepted */
    int time_losses[MATCH_MAX_ENGINES], illegal_losses[MATCH_MAX_ENGINES], crash_losses[MATCH_MAX_ENGINES];
    /* How games ended: each distinct reason and its count. */
    int n_endings;
    char ending[MATCH_MAX_ENDINGS][96];
    int ending_count[MATCH_MAX_ENDINGS];
    int passes;                 /* pass moves played (team games) */
    int games_with_players_out; /* games in which a player lost all its men */
    int seat_games[MATCH_MAX_ENGINES][MAX_PLAYERS], seat_wins[MATCH_MAX_ENGINES][MAX_PLAYERS]; /* [engine][seat] */
    int engine_wins[MATCH_MAX_ENGINES];
    wdl_t pattern_wdl[MATCH_MAX_SEATINGS]; /* engine 0's against engine 1, per seating pattern */
    /* A single run's games that finished after the SPRT's decision (in
     * flight when it stopped the match): recorded apart, counted in none
     * of the above (games_tally.h). */
    int after_games;
    wdl_t after;
    bool llr_of_games;  /* the LLR is of single games: the pairs were not whole (an interrupted run) */
    bool interrupted;   /* the run was stopped (Ctrl-C) before its games were all played */
    int shards_merged, shards_total; /* a merge of some of the shards only (--merge --partial); else 0 */
} match_summary_t;

/* The longest opening line, terminating NUL included. */
#define MATCH_OPENING_TEXT 8192

/* Reads an openings file: one `position` argument per line (blank lines and
 * '#' comments skipped), each checked against the rules of g. False, with
 * one line on stderr naming the file (`name`) and line, on a bad or too
 * long line or when there is none; *openings is then NULL. */
bool match_read_openings(FILE *f, const game_t *g, const char *name, char (**openings)[MATCH_OPENING_TEXT],
                         int *n_openings);

/* Is game `index` (from 0) one of cfg's shard? */
bool match_in_shard(const match_cfg_t *cfg, int index);

/* The exit statuses of denham-match (docs/man/denham-match.1). */
enum {
    MATCH_EXIT_OK = 0,          /* played (or merged); with --sprt, decided */
    MATCH_EXIT_FAILED = 1,      /* could not be played, or stopped on an error: an engine that failed
                                   its handshake or refused an option, a file that cannot be written */
    MATCH_EXIT_BAD_INPUT = 2,   /* a bad argument, openings file or games file */
    MATCH_EXIT_NO_DECISION = 3, /* with --sprt, every game played (or merged) and no decision */
    MATCH_EXIT_INTERRUPTED = 130 /* stopped by Ctrl-C: the games played so far summed up */
};

/* Plays the match, printing progress to out; MATCH_EXIT_OK when played,
 * else MATCH_EXIT_FAILED or MATCH_EXIT_BAD_INPUT, the reason reported on
 * stderr (the engine that failed its handshake, an unreadable openings
 * file ...). */
int match_run(const match_cfg_t *cfg, FILE *out, match_summary_t *sum);
/* The exit status for a match played: interrupted, no decision, or 0. */
int match_exit_status(const match_cfg_t *cfg, const match_summary_t *sum);
/* Asks a running match (from a signal handler) to start no more games:
 * those in progress finish, and the summary counts the games played. */
void match_interrupt(void);
void match_print_summary(const match_cfg_t *cfg, const match_summary_t *sum, FILE *out);
#endif
