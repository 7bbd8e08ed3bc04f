/*
 * usage.h: what every `denham` subcommand says of itself: its usage, on
 * stdout when asked for (`--help`, `-h`: status 0) and on stderr after a
 * mistake, with the argument that was wrong (status 2). One table for
 * `denham --help`, each `denham SUB --help`, every error and the manual
 * page's test, so that they cannot say different things.
 */
#ifndef DENHAM_USAGE_H
#define DENHAM_USAGE_H

#include <stdbool.h>
#include <stdio.h>

/* Is one of the arguments `--help` or `-h`? */
bool usage_asked(int argc, char **argv);

/* The usage of subcommand sub ("" for `denham` itself, whose usage lists
 * every subcommand) to out; returns status. False-safe: an unknown sub
 * prints the whole list. */
int usage_print(FILE *out, const char *sub, int status);

/* A mistake: "denham SUB: ARG: WHY" (or "denham SUB: WHY" when arg is
 * NULL), then the usage, on stderr. Returns 2, the status to exit with. */
int usage_error(const char *sub, const char *arg, const char *why);

#endif
