/*
 * tune.h: `denham tune`, which fits a game's evaluation weights to the
 * results in `denham datagen` files and prints the new table as C source.
 */
#ifndef DENHAM_TUNE_H
#define DENHAM_TUNE_H

#include <stdio.h>

/* `denham tune --variant V [--threads T] [--iterations N] [--rate R]
 * [--freeze NAME,...]... FILE...`: the table to out, progress and errors to
 * err. Returns the exit status (2 for a bad argument or an unreadable
 * line, with the reason). */
int tune_main(int argc, char **argv, FILE *out, FILE *err);

#endif
