/*
 * play.h: `denham play`: a person plays against Denham at a terminal (or
 * watches it play itself). Moves in the game's notation; `moves`, `hint`,
 * `undo`, `new`, `help`, `quit`. Bad input gets a line and a new prompt.
 */
#ifndef DENHAM_PLAY_H
#define DENHAM_PLAY_H

#include <stdio.h>

/* argv holds the arguments after `play`. Exit status 0, or 2 on bad
 * arguments. */
int play_main(int argc, char **argv, FILE *in, FILE *out);

#endif
