/*
 * record.h: a game in progress: the position, the moves that led to it and
 * the hashes of every position since the last irreversible move.
 *
 * The record is what knows about repetition, which a position cannot: it
 * decides threefold-repetition draws and hands the search its history.
 */
#ifndef DENHAM_RECORD_H
#define DENHAM_RECORD_H

#include "game.h"

#define RECORD_MAX_PLIES 4096

typedef struct record {
    const game_t *game;
    position_t start;
    position_t pos;
    int plies;
    move_t moves[RECORD_MAX_PLIES];
    /* hashes[i] is the key before moves[i]; hashes[plies] the current one. */
    uint64_t hashes[RECORD_MAX_PLIES + 1];
    /* Index in hashes of the first position after the last irreversible move. */
    int reversible_from;
} record_t;

void record_init(record_t *r, const game_t *g, const position_t *start);
/* Plays a legal move; false (record unchanged) when the record is full. */
bool record_play(record_t *r, move_t move);
/* How many times the current position has occurred, itself included. */
int record_occurrences(const record_t *r);
/* The game's result: the position's own outcome, or a repetition draw. */
outcome_t record_outcome(const record_t *r);
/* Legal moves in the current position; 0 once the game is over. */
int record_legal_moves(const record_t *r, move_t *moves);

/* Sets r from the text of a `position` command after the word "position":
 * "startpos [moves m1 m2 ...]" or "fen <fen> [moves m1 m2 ...]", where the
 * FEN may be the word startpos and a further "moves" continues the list.
 * Every move must be legal, and none may follow the end of the game. On
 * failure writes the reason to err and leaves r unspecified. */
bool record_setup(record_t *r, const game_t *g, const char *text, char *err, size_t errlen);
/* Appends " moves m1 m2 ..." (the record's moves as text) to buf. */
void record_moves_text(const record_t *r, char *buf, size_t len);

#endif
