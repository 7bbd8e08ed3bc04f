/* json_check.h: a strict JSON reader for tests: checks that a text is one
 * JSON value, and finds members of objects by path. Slow and simple. */
#ifndef DENHAM_JSON_CHECK_H
#define DENHAM_JSON_CHECK_H

#include <stdbool.h>
#include <stddef.h>

/* The end of the JSON value at text (after it), or NULL when there is none. */
const char *json_skip(const char *text);
/* True when text is exactly one JSON value (surrounding blanks allowed). */
bool json_valid(const char *text);
/* The text of the value of member `key` of the object at text (the start of
 * that value), or NULL; only the object's own members, not nested ones. */
const char *json_member(const char *text, const char *key);
/* The i-th element of the array at text, or NULL. */
const char *json_element(const char *text, int i);
/* How many elements the array at text has (-1: not an array). */
int json_length(const char *text);
/* The string at text copied (no escapes expected) into out; false if not a string. */
bool json_string_at(const char *text, char *out, size_t len);

#endif
