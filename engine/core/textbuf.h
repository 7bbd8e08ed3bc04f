/*
 * textbuf.h: text that grows a piece at a time (a game's move list, which
 * no rule bounds, a datagen game's lines). A zero-initialised textbuf_t is
 * empty. Core: includes nothing above engine/core/ and names no game.
 */
#ifndef DENHAM_TEXTBUF_H
#define DENHAM_TEXTBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct textbuf {
    char *s; /* NUL-terminated once anything was added; NULL before */
    size_t len, cap;
} textbuf_t;

/* Appends piece; false (text unchanged) when memory runs out. */
bool textbuf_add(textbuf_t *t, const char *piece);
/* Empties the text, keeping its memory. */
void textbuf_clear(textbuf_t *t);
void textbuf_free(textbuf_t *t);

#endif
