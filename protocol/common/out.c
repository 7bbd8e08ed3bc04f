/*
 * out.c: locked whole-line output for the front ends (out.h).
 * Knows no protocol: it writes lines.
 */
#define _POSIX_C_SOURCE 200809L
#include "out.h"

#include <stdarg.h>
#include <unistd.h>

void out_init(out_t *o, FILE *f)
{
    o->f = f;
    thr_mutex_init(&o->lock);
}

void out_destroy(out_t *o) { thr_mutex_destroy(&o->lock); }

void out_vline(out_t *o, const char *fmt, va_list ap)
{
    thr_mutex_lock(&o->lock);
    vfprintf(o->f, fmt, ap);
    fputc('\n', o->f);
    fflush(o->f);
    thr_mutex_unlock(&o->lock);
}

void out_text(out_t *o, const char *text)
{
    thr_mutex_lock(&o->lock);
    fputs(text, o->f);
    fflush(o->f);
    thr_mutex_unlock(&o->lock);
}

bool out_is_terminal(const out_t *o) { return isatty(fileno(o->f)) != 0; }
