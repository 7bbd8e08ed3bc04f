/*
 * record.h: a game in progress: the position, the moves that led to it and
 * the hashes of every position since the last irreversible move.
 *
 * The record is what knows about repetition, which a position cannot: it
 * decides threefold-repetition draws and hands the search its history.
 * Reaches a game through game_t only; includes nothing above engine/core/.
 */
#ifndef DENHAM_RECORD_H
#define DENHAM_RECORD_H

#include "game.h"

/* A record grows as the game does; this bounds its memory (about 12 bytes
 * a ply, plus the repetition table). */
#define RECORD_MAX_PLIES 10000000

/* Occurrences of each position since the last irreversible move, so that
 * repetition is found in constant time however long the game. A slot is
 * in use when its generation is the table's; an irreversible move starts a
 * new generation instead of clearing. */
typedef struct rep_slot {
    uint64_t key;
    uint32_t count;
    uint32_t generation;
} rep_slot_t;

typedef struct record {
    const game_t *game;
    position_t start;
    position_t pos;
    int plies;
    int capacity;    /* plies the arrays below hold */
    move_t *moves;   /* moves[0 .. plies-1] */
    /* hashes[i] is the key before moves[i]; hashes[plies] the current one. */
    uint64_t *hashes;
    /* Index in hashes of the first position after the last irreversible move. */
    int reversible_from;
    rep_slot_t *rep;
    int rep_size, rep_used; /* slots (a power of two), slots of this generation */
    uint32_t generation;
    /* The player who lost by an illegal move in `position` (record_setup),
     * or -1: the game is over, the record ends before that move. */
    int forfeit_by;
} record_t;

/* A record is zero-initialised or set up by record_init, which keeps the
 * buffers of an earlier game (false when out of memory: r is then empty
 * and unusable); record_free releases them. */
bool record_init(record_t *r, const game_t *g, const position_t *start);
void record_free(record_t *r);
/* Makes dst a copy of src with buffers of its own; false when out of
 * memory (dst then unspecified). */
bool record_copy(record_t *dst, const record_t *src);
/* Exchanges two records (the buffers move with them). */
void record_swap(record_t *a, record_t *b);
/* Plays a legal move; false (record unchanged) when the record cannot grow
 * (RECORD_MAX_PLIES or out of memory). */
bool record_play(record_t *r, move_t move);
/* Copies the keys of the positions before the current one since the last
 * irreversible move, the most recent `max` of them, oldest first (what a
 * search request's history holds); returns how many. */
int record_recent_keys(const record_t *r, uint64_t *keys, int max);
/* How many times the position with this key has occurred since the last
 * irreversible move. */
int record_count(const record_t *r, uint64_t key);
/* How many times the current position has occurred, itself included. */
int record_occurrences(const record_t *r);
/* The game's result: a forfeit, the position's own outcome, or a
 * repetition draw. A forfeit loses for the offender: in games of two teams
 * the other team wins; in free-for-all games the others draw. */
outcome_t record_outcome(const record_t *r);
/* Legal moves in the current position; 0 once the game is over. */
int record_legal_moves(const record_t *r, move_t *moves);

/* Sets r from the text of a `position` command after the word "position":
 * "startpos [moves m1 m2 ...]" or "fen <fen> [moves m1 m2 ...]", where the
 * FEN may be the word startpos and a further "moves" continues the list.
 * Every move must be legal, and none may follow the end of the game. On
 * failure writes the reason to err and returns false; r is then a usable
 * record only if r->forfeit_by >= 0: a move the player to move could not
 * play (unreadable or illegal), which ends the game with that player's
 * loss, the record holding the game up to it. */
bool record_setup(record_t *r, const game_t *g, const char *text, char *err, size_t errlen);
/* Plays the moves of text ("m1 m2 ...", a "moves" word skipped) on r, with
 * record_setup's checks and its forfeit on an illegal move. */
bool record_append(record_t *r, const char *text, char *err, size_t errlen);
/* Where and why the game ended (game.h, game_why_t): the game's own
 * explain_result for an end by its rules (given the position before the
 * last move, replayed from the start), a sentence alone for a forfeit or a
 * repetition; empty (no cells, "") while the game goes on. */
void record_explain(const record_t *r, game_why_t *why);
/* Appends " moves m1 m2 ..." (the record's moves as text) to buf. */
void record_moves_text(const record_t *r, char *buf, size_t len);

#endif
