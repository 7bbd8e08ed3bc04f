/*
 * out.h: a front end's output: whole lines (or blocks of lines) written and
 * flushed under one lock, so that the search thread's `info` lines and the
 * reading thread's answers never interleave inside a line. The UGI and
 * OTEP front ends each own one.
 */
#ifndef DENHAM_OUT_H
#define DENHAM_OUT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "../../engine/core/thread.h"

typedef struct out {
    FILE *f;
    thr_mutex_t lock;
} out_t;

void out_init(out_t *o, FILE *f);
void out_destroy(out_t *o);
/* One line from a printf format and its arguments; the newline is added. */
void out_vline(out_t *o, const char *fmt, va_list ap);
/* Text as it is (several lines, each with its newline), in one piece. */
void out_text(out_t *o, const char *text);
/* Whether the output is a terminal (colours only for a person). */
bool out_is_terminal(const out_t *o);

#endif
