/*
 * number.h: the one strict reader of decimal numbers, used by every
 * position parser, the protocol and the match runner.
 *
 * Every digit is read: a value outside the allowed range is refused, never
 * wrapped or cut short (strtol saturates, sscanf("%d") overflows, and both
 * skip leading blanks and signs that no field here allows).
 * Core: includes nothing above engine/core/ and names no game.
 */
#ifndef DENHAM_NUMBER_H
#define DENHAM_NUMBER_H

#include <stdbool.h>

/* Reads a decimal number at *s (a leading '-' only when lo < 0) and
 * advances *s past it; false, with *s and *out unchanged, when there is no
 * digit or the value lies outside [lo, hi]. */
bool number_read(const char **s, long long lo, long long hi, long long *out);

/* True when the whole of s is one such number within [lo, hi]. */
bool number_parse(const char *s, long long lo, long long hi, long long *out);

/* A shard, "K/N" with 1 <= K <= N <= max (denham-match and datagen's
 * --shard): true with *k and *n set, else false with them unchanged. */
bool number_parse_shard(const char *s, long long max, long long *k, long long *n);

#endif
