/*
 * json.h: a small JSON writer for the descriptions a GUI reads (the
 * `layout`, `state` and `legalmoves` commands). It writes one value into a
 * growing buffer, putting the commas itself; it never parses.
 *
 * May not reach into any game or the search: games and front ends call it.
 */
#ifndef DENHAM_JSON_H
#define DENHAM_JSON_H

#include <stdbool.h>
#include <stddef.h>

#define JSON_DEPTH_MAX 16

typedef struct json {
    char *buf;
    size_t len, cap;
    bool failed; /* out of memory: the text is incomplete */
    int depth;
    bool first[JSON_DEPTH_MAX]; /* no value yet at this depth */
    char closer[JSON_DEPTH_MAX]; /* what ends the value open at this depth */
    bool after_key;
} json_t;

void json_init(json_t *j);
void json_free(json_t *j);

void json_object(json_t *j); /* { */
void json_array(json_t *j);  /* [ */
void json_end(json_t *j);    /* the matching } or ] */
/* A key inside an object; the next call writes its value. */
void json_key(json_t *j, const char *key);
void json_string(json_t *j, const char *s);
void json_int(json_t *j, long long v);
void json_number(json_t *j, double v); /* finite, shortest sensible form */
void json_bool(json_t *j, bool v);
void json_null(json_t *j);

/* key and value in one call, for the common cases. */
void json_kstring(json_t *j, const char *key, const char *s);
void json_kint(json_t *j, const char *key, long long v);
void json_knumber(json_t *j, const char *key, double v);
void json_kbool(json_t *j, const char *key, bool v);

#endif
