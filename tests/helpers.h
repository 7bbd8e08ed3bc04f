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
/* The engine the protocol transcripts drive: the command in DENHAM_ENGINE
 * when set (make test-wasm: "node build/wasm/denham.mjs", the WebAssembly
 * build), else ./denham; and whether it is such another build. Those are
 * single-threaded (thread.h): engine_threads_max() is then 1. */
const char *engine_command(void);
bool engine_is_other_build(void);
int engine_threads_max(void);
/* The engine's standard output for `<engine> args` (static, as shell()). */
const char *engine_shell(const char *args);
/* The protocol's whole output for len bytes of input (malloc'd): run in
 * this process (the sanitizers see the protocol), or by DENHAM_ENGINE. */
char *protocol_transcript(const char *input, size_t len);
typedef char move_text_t[GAME_MOVE_TEXT_MAX];
/* Sorts both lists of n move texts and asserts that they are the same. */
void assert_same_texts(move_text_t *a, move_text_t *b, int n);
/* Plays m on pos, after checking that unmake restores pos bit for bit. */
void play_checked(const game_t *g, position_t *pos, move_t m);
/* Asserts that pos writes ref_fen, and that parsing ref_fen afresh gives
 * the same position, hash included (incremental updates are exact). */
void assert_matches_fen(const game_t *g, const position_t *pos, const char *ref_fen);
/* The FEN of pos. */
const char *fen_of(const game_t *g, const position_t *pos);
/* The value for team (0 or 1) of the evaluation term called name in t,
 * failing the test when t has no such term. */
int trace_term(const eval_trace_t *t, const char *name, int team);
/* The learned evaluations (UseNetwork) of every game that has one: on or
 * off, off (as a checked fixture: the tests of the hand-written
 * evaluations), or each as its default (the fixture's teardown). */
void nets_use(bool on);
void nets_off(void);
void nets_default(void);
/* The legal moves of fen as one sorted, space-separated string (static). */
const char *legal_moves_of(const game_t *g, const char *fen);
/* The FEN after playing `moves` (space-separated) from fen, failing the
 * test on an illegal move (static). */
const char *fen_after(const game_t *g, const char *fen, const char *moves);

Suite *suite_core(void);
Suite *suite_brandubh(void);
Suite *suite_reference(void);
Suite *suite_search(void);
Suite *suite_protocol(void);
Suite *suite_match(void);
Suite *suite_sprt(void);
Suite *suite_merge(void);
Suite *suite_brax(void);
Suite *suite_bolix(void);
Suite *suite_brax_team(void);
Suite *suite_jinxx(void);
Suite *suite_fuzz(void);
Suite *suite_record(void);
Suite *suite_otep(void);
Suite *suite_cli(void);
Suite *suite_describe(void);
Suite *suite_serve(void);
Suite *suite_web(void);
Suite *suite_web_learn(void);
Suite *suite_web_board(void);
Suite *suite_watch(void);
Suite *suite_web_static(void);
Suite *suite_eval(void);
Suite *suite_learn(void);
Suite *suite_nnue(void);
Suite *suite_why(void);
Suite *suite_docs(void);
Suite *suite_builds(void);
Suite *suite_solve(void);
Suite *suite_check(void);

#endif
