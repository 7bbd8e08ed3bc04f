/*
 * input.c: command lines from a stream (input.h).
 * Knows no protocol: it reads lines.
 */
#define _POSIX_C_SOURCE 200809L
#include "input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#if !THR_THREADS
#include <poll.h>
#include <unistd.h>
#endif

void input_init(input_t *in, FILE *f)
{
    memset(in, 0, sizeof *in);
    in->f = f;
    in->fd = fileno(f);
}

void input_free(input_t *in)
{
    free(in->buf);
    in->buf = NULL;
    in->len = in->cap = 0;
}

#if THR_THREADS

ssize_t input_line(input_t *in, char **line, size_t *cap) { return getline(line, cap, in->f); }

#else

static bool buf_reserve(input_t *in, size_t more)
{
    if (in->len + more <= in->cap)
        return true;
    size_t cap = in->cap ? in->cap : 4096;
    while (cap < in->len + more)
        cap *= 2;
    char *grown = realloc(in->buf, cap);
    if (!grown)
        return false;
    in->buf = grown;
    in->cap = cap;
    return true;
}

/* Reads once: what has come (without waiting unless wait), appended to
 * the buffer. A stream in memory gives a line at a time and never waits;
 * a descriptor is polled first when the read must not wait. */
static void fill(input_t *in, bool wait)
{
    if (in->ended)
        return;
    if (in->fd < 0) {
        char *line = NULL;
        size_t cap = 0;
        ssize_t got = getline(&line, &cap, in->f);
        if (got < 0 || !buf_reserve(in, (size_t)got))
            in->ended = true;
        else
            memcpy(in->buf + in->len, line, (size_t)got), in->len += (size_t)got;
        free(line);
        return;
    }
    if (!wait) {
        struct pollfd p = {in->fd, POLLIN, 0};
        if (poll(&p, 1, 0) <= 0)
            return;
    }
    if (!buf_reserve(in, 65536)) {
        in->ended = true;
        return;
    }
    ssize_t got;
    do
        got = read(in->fd, in->buf + in->len, 65536);
    while (got < 0 && errno == EINTR);
    if (got <= 0)
        in->ended = true;
    else
        in->len += (size_t)got;
}

/* The length of the first line with its newline, or 0 when no whole line
 * is in the buffer. */
static size_t first_line(const input_t *in)
{
    const char *nl = in->len ? memchr(in->buf, '\n', in->len) : NULL;
    return nl ? (size_t)(nl - in->buf) + 1 : 0;
}

const char *input_peek(input_t *in, bool wait, size_t *len)
{
    size_t n;
    for (;;) {
        n = first_line(in);
        if (n || in->ended)
            break;
        size_t before = in->len;
        fill(in, wait);
        if (!wait && in->len == before && !in->ended)
            return NULL; /* nothing more has come */
    }
    if (!n)
        n = in->len; /* the last line, without its newline; 0 at the end */
    if (!n)
        return NULL;
    *len = n && in->buf[n - 1] == '\n' ? n - 1 : n;
    return in->buf;
}

bool input_done(const input_t *in) { return in->ended && in->len == 0; }

ssize_t input_line(input_t *in, char **line, size_t *cap)
{
    size_t n;
    if (!input_peek(in, true, &n))
        return -1;
    if (n < in->len && in->buf[n] == '\n')
        n++;
    if (*cap < n + 1) {
        char *grown = realloc(*line, n + 1);
        if (!grown)
            return -1;
        *line = grown;
        *cap = n + 1;
    }
    memcpy(*line, in->buf, n);
    (*line)[n] = 0;
    memmove(in->buf, in->buf + n, in->len - n);
    in->len -= n;
    return (ssize_t)n;
}

#endif
