/*
 * analyse.h: the command line for scripts: `denham analyse` (batch analysis
 * of positions, text or JSON lines) and `denham suite` (test suites of
 * positions with expected best moves or results). Formats in PROTOCOL.md.
 */
#ifndef DENHAM_ANALYSE_H
#define DENHAM_ANALYSE_H

#include <stdio.h>

/* argv holds the arguments after the subcommand. Exit status: 0, or 2 on
 * bad arguments; `suite` 1 when a position is not solved. */
int analyse_main(int argc, char **argv, FILE *out);
int suite_main(int argc, char **argv, FILE *out);

#endif
