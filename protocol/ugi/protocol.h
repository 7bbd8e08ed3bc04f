/*
 * protocol.h: the UGI/UCI text front end (specified in PROTOCOL.md).
 * The only module that reads commands and writes answers; it knows games
 * only through game_t and the variant registry.
 */
#ifndef DENHAM_PROTOCOL_H
#define DENHAM_PROTOCOL_H

#include <stdio.h>

#define DENHAM_VERSION "0.1"

/* Runs the command loop on in/out until `quit` or end of input. At end of
 * input a running finite search is allowed to finish first (so a script can
 * pipe `go depth 8` and read the answer); an infinite one is stopped.
 * Returns the process exit status. */
int protocol_run(FILE *in, FILE *out);

/* `denham perft <variant> <depth> [fen]`: divide, total, time and speed. */
int protocol_cli_perft(int argc, char **argv, FILE *out);
/* `denham bench [variant] [depth]`. */
int protocol_cli_bench(int argc, char **argv, FILE *out);

#endif
