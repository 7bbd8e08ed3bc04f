/* helpers.h: small tools shared by the test files. */
#ifndef DENHAM_TEST_HELPERS_H
#define DENHAM_TEST_HELPERS_H

#include <check.h>

#include "../engine/core/game.h"

/* A Brandubh FEN from space-separated square lists ("d1 d2"), king may be "". */
void bdb_fen(char *out, const char *att, const char *def, const char *king, char side);

/* Parses fen for g, failing the test on error. */
void load_fen(const game_t *g, position_t *pos, const char *fen);
/* Plays a legal move given as text, failing the test if it is not legal. */
void play(const game_t *g, position_t *pos, const char *text);
/* True when the move text is legal in pos. */
bool is_legal(const game_t *g, const position_t *pos, const char *text);
/* Runs a shell command (the real binaries, as a GUI or script would);
 * returns its standard output (static, overwritten by the next call). */
const char *shell(const char *cmd);
/* The FEN of pos. */
const char *fen_of(const game_t *g, const position_t *pos);

Suite *suite_core(void);
Suite *suite_brandubh(void);
Suite *suite_reference(void);
Suite *suite_search(void);
Suite *suite_protocol(void);
Suite *suite_match(void);
Suite *suite_brax(void);
Suite *suite_bolix(void);

#endif
