/*
 * solve_cli.h: `denham solve` (solving positions, writing and checking
 * proofs) and the result fields `denham analyse --solve` shares with it.
 * Formats in PROTOCOL.md, "Solving" and "Proofs".
 */
#ifndef DENHAM_SOLVE_CLI_H
#define DENHAM_SOLVE_CLI_H

#include <stdio.h>

#include "../../engine/solve/solve.h"

/* argv holds the arguments after the subcommand. Exit status: 0 answered
 * (or a proof checked good), 1 a proof that could not be written or that
 * fails its check, 2 bad arguments. */
int solve_main(int argc, char **argv, FILE *out);

/* The members of a JSON object for a solve's result ("result", "winner",
 * "plies", "search_plies", "bestmove", "sides", "nodes", "time_ms", "nps"),
 * separated by commas (none before the first or after the last). proof:
 * the checked proof of the win (its longest line is "plies", its first
 * move "bestmove"), or NULL (no "plies": the search's count is no bound). */
void solve_json_fields(FILE *out, const game_t *g, const position_t *root, const solve_both_t *b,
                       const proof_stats_t *proof);
/* The result in words: "win for the defenders in at most 9 plies, first
 * move d4f4 (the proof's longest line)" with a proof, "win for the
 * defenders, first move d4f4 (the search counted 9 plies, unchecked: ...)"
 * without; "draw: neither side can force a win", "no win for ...",
 * "unknown ...". */
void solve_words(char *buf, size_t len, const game_t *g, const position_t *root, const solve_both_t *b,
                 const proof_stats_t *proof);

#endif
