/*
 * number.c: see number.h.
 * Core: includes nothing above engine/core/ and names no game.
 */
#include "number.h"

#include <limits.h>

bool number_read(const char **s, long long lo, long long hi, long long *out)
{
    const char *c = *s;
    bool negative = lo < 0 && *c == '-';
    if (negative)
        c++;
    if (*c < '0' || *c > '9')
        return false;
    /* The magnitude is bounded by the range before it can overflow. */
    unsigned long long limit = negative ? 0ull - (unsigned long long)lo : (unsigned long long)(hi < 0 ? 0 : hi);
    unsigned long long v = 0;
    bool too_big = false;
    for (; *c >= '0' && *c <= '9'; c++) {
        unsigned digit = (unsigned)(*c - '0');
        if (v > (limit - digit) / 10)
            too_big = true; /* keep reading: the whole number is refused, not its prefix */
        else
            v = v * 10 + digit;
    }
    if (too_big)
        return false;
    long long value = negative ? -(long long)(v - 1) - 1 : (long long)v;
    if (value < lo || value > hi)
        return false;
    *out = value;
    *s = c;
    return true;
}

bool number_parse(const char *s, long long lo, long long hi, long long *out)
{
    long long v;
    if (!s || !number_read(&s, lo, hi, &v) || *s)
        return false;
    *out = v;
    return true;
}

bool number_parse_shard(const char *s, long long max, long long *k, long long *n)
{
    long long a, b;
    if (!number_read(&s, 1, max, &a) || *s++ != '/' || !number_parse(s, 1, max, &b) || a > b)
        return false;
    *k = a;
    *n = b;
    return true;
}
