/*
 * input.h: a front end's command lines from its input stream. With
 * threads a plain getline; in the single-threaded build (thread.h) the
 * lines are buffered here, so that the command loop, taking its turn
 * between slices of a search, can see whether a whole line has come
 * without waiting for one, and look at it before taking it.
 * Knows no protocol: it reads lines.
 */
#ifndef DENHAM_INPUT_H
#define DENHAM_INPUT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "../../engine/core/thread.h"

typedef struct input {
    FILE *f;
    int fd;       /* the stream's descriptor; -1 for a stream in memory, which never waits */
    char *buf;    /* bytes read and not yet taken (single-threaded build) */
    size_t len, cap;
    bool ended;   /* the end of the stream (or a read error) was met */
} input_t;

void input_init(input_t *in, FILE *f);
void input_free(input_t *in);
/* The next line, waiting for it, as getline gives it (its newline kept,
 * NUL bytes and all, its length returned); -1 at the end of input or on
 * a read error (a last line without a newline is still a line). */
ssize_t input_line(input_t *in, char **line, size_t *cap);

#if !THR_THREADS
/* The next line, not taken (the next input_line gives it): its text up
 * to and without the newline, and its length in *len; NULL at the end of
 * input, or, when wait is false, when no whole line has come yet (what
 * has come is read without waiting). */
const char *input_peek(input_t *in, bool wait, size_t *len);
/* Whether the end of input has been met and every line taken. */
bool input_done(const input_t *in);
#endif

#endif
