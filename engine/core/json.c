/*
 * json.c: see json.h.
 * Core: includes nothing above engine/core/ and names no game. Knows no
 * view's shapes (view.c).
 */
#include "json.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void json_init(json_t *j)
{
    *j = (json_t){0};
    j->first[0] = true;
}

void json_free(json_t *j)
{
    free(j->buf);
    *j = (json_t){0};
}

static void put(json_t *j, const char *s, size_t n)
{
    if (j->failed)
        return;
    if (j->len + n + 1 > j->cap) {
        size_t cap = j->cap ? j->cap : 256;
        while (cap < j->len + n + 1)
            cap *= 2;
        char *grown = realloc(j->buf, cap);
        if (!grown) {
            j->failed = true;
            return;
        }
        j->buf = grown;
        j->cap = cap;
    }
    memcpy(j->buf + j->len, s, n);
    j->len += n;
    j->buf[j->len] = 0;
}

static void puts_(json_t *j, const char *s) { put(j, s, strlen(s)); }

/* The comma before a value that is not the first at its depth. */
static void before_value(json_t *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (!j->first[j->depth])
        put(j, ",", 1);
    j->first[j->depth] = false;
}

static void open(json_t *j, char c)
{
    before_value(j);
    put(j, &c, 1);
    assert(j->depth + 1 < JSON_DEPTH_MAX);
    if (j->depth + 1 < JSON_DEPTH_MAX) {
        j->first[++j->depth] = true;
        j->closer[j->depth] = c == '{' ? '}' : ']';
    } else {
        j->failed = true; /* nested deeper than any description needs */
    }
}

void json_object(json_t *j) { open(j, '{'); }
void json_array(json_t *j) { open(j, '['); }

void json_end(json_t *j)
{
    assert(j->depth > 0);
    if (j->depth == 0)
        return;
    put(j, &j->closer[j->depth], 1);
    j->depth--;
}

static void string_body(json_t *j, const char *s)
{
    put(j, "\"", 1);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        char esc[8];
        if (*c == '"' || *c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)*c;
            put(j, esc, 2);
        } else if (*c == '\n' || *c == '\t' || *c == '\r') {
            esc[0] = '\\';
            esc[1] = *c == '\n' ? 'n' : *c == '\t' ? 't' : 'r';
            put(j, esc, 2);
        } else if (*c < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", *c);
            puts_(j, esc);
        } else {
            put(j, (const char *)c, 1);
        }
    }
    put(j, "\"", 1);
}

void json_key(json_t *j, const char *key)
{
    before_value(j);
    string_body(j, key);
    put(j, ":", 1);
    j->after_key = true;
}

void json_string(json_t *j, const char *s)
{
    before_value(j);
    string_body(j, s ? s : "");
}

void json_int(json_t *j, long long v)
{
    before_value(j);
    char text[32];
    snprintf(text, sizeof text, "%lld", v);
    puts_(j, text);
}

void json_number(json_t *j, double v)
{
    before_value(j);
    char text[32];
    if (!isfinite(v))
        v = 0;
    snprintf(text, sizeof text, "%.4g", v);
    puts_(j, text);
}

void json_bool(json_t *j, bool v)
{
    before_value(j);
    puts_(j, v ? "true" : "false");
}

void json_null(json_t *j)
{
    before_value(j);
    puts_(j, "null");
}

void json_kstring(json_t *j, const char *key, const char *s)
{
    json_key(j, key);
    json_string(j, s);
}

void json_kint(json_t *j, const char *key, long long v)
{
    json_key(j, key);
    json_int(j, v);
}

void json_knumber(json_t *j, const char *key, double v)
{
    json_key(j, key);
    json_number(j, v);
}

void json_kbool(json_t *j, const char *key, bool v)
{
    json_key(j, key);
    json_bool(j, v);
}
