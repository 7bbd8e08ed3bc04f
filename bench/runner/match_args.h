/* match_args.h: reading denham-match's command line (usage: --help). */
#ifndef DENHAM_MATCH_ARGS_H
#define DENHAM_MATCH_ARGS_H

#include "match.h"

#define MATCH_ARGS_OK (-1)

/* The usage of denham-match (and of --merge): on stdout when asked for,
 * on stderr after a mistake. */
void match_usage(FILE *out);

/* Fills cfg from the arguments. MATCH_ARGS_OK when the match should run;
 * otherwise the exit status (0 after --help, 2 for a bad argument, with one
 * line on stderr saying why). */
int match_args(int argc, char **argv, match_cfg_t *cfg);

#endif
