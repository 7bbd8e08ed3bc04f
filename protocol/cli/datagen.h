/*
 * datagen.h: `denham datagen`, training data from self-play: positions
 * with the game's result and the search's score, for `denham tune`.
 * Format in PROTOCOL.md, "Training data".
 */
#ifndef DENHAM_DATAGEN_H
#define DENHAM_DATAGEN_H

#include <stdio.h>

/* `denham datagen --variant V --games N (--nodes N | --depth N)
 * [--threads T] [--seed S] [--shard K/N] [--book FILE] [--random-plies P]
 * [--max-plies P] --out FILE`. Progress goes to err. Returns the exit
 * status (2 for a bad argument, with one line on err saying why). */
int datagen_main(int argc, char **argv, FILE *err);

#endif
