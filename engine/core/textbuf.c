/* textbuf.c: see textbuf.h. */
#include "textbuf.h"

#include <stdlib.h>
#include <string.h>

bool textbuf_add(textbuf_t *t, const char *piece)
{
    size_t n = strlen(piece);
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->len + n + 1)
            cap *= 2;
        char *grown = realloc(t->s, cap);
        if (!grown)
            return false;
        t->s = grown;
        t->cap = cap;
    }
    memcpy(t->s + t->len, piece, n + 1);
    t->len += n;
    return true;
}

void textbuf_clear(textbuf_t *t)
{
    t->len = 0;
    if (t->s)
        t->s[0] = 0;
}

void textbuf_free(textbuf_t *t)
{
    free(t->s);
    *t = (textbuf_t){0};
}
