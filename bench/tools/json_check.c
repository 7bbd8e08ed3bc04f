/* json_check.c: a strict JSON reader for the tests (json_check.h); knows
 * no document of ours. A recursive descent over the grammar of
 * RFC 8259; every function returns the end of what it read, or NULL. */
#include "json_check.h"

#include <ctype.h>
#include <string.h>

static const char *value(const char *c, int depth);

static const char *blank(const char *c)
{
    while (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r')
        c++;
    return c;
}

static const char *string(const char *c)
{
    if (*c++ != '"')
        return NULL;
    for (; *c != '"'; c++) {
        if ((unsigned char)*c < 0x20)
            return NULL;
        if (*c == '\\') {
            c++;
            if (*c == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!isxdigit((unsigned char)c[i]))
                        return NULL;
                c += 4;
            } else if (!strchr("\"\\/bfnrt", *c) || !*c) {
                return NULL;
            }
        }
    }
    return c + 1;
}

static const char *number(const char *c)
{
    if (*c == '-')
        c++;
    if (*c == '0')
        c++;
    else if (*c >= '1' && *c <= '9')
        while (isdigit((unsigned char)*c))
            c++;
    else
        return NULL;
    if (*c == '.') {
        c++;
        if (!isdigit((unsigned char)*c))
            return NULL;
        while (isdigit((unsigned char)*c))
            c++;
    }
    if (*c == 'e' || *c == 'E') {
        c++;
        if (*c == '+' || *c == '-')
            c++;
        if (!isdigit((unsigned char)*c))
            return NULL;
        while (isdigit((unsigned char)*c))
            c++;
    }
    return c;
}

static const char *members(const char *c, char close, int depth)
{
    c = blank(c + 1);
    if (*c == close)
        return c + 1;
    for (;;) {
        if (close == '}') {
            c = string(blank(c));
            if (!c || *(c = blank(c)) != ':')
                return NULL;
            c++;
        }
        c = value(c, depth + 1);
        if (!c)
            return NULL;
        c = blank(c);
        if (*c == close)
            return c + 1;
        if (*c != ',')
            return NULL;
        c++;
    }
}

static const char *value(const char *c, int depth)
{
    if (depth > 64)
        return NULL;
    c = blank(c);
    switch (*c) {
    case '{': return members(c, '}', depth);
    case '[': return members(c, ']', depth);
    case '"': return string(c);
    case 't': return strncmp(c, "true", 4) == 0 ? c + 4 : NULL;
    case 'f': return strncmp(c, "false", 5) == 0 ? c + 5 : NULL;
    case 'n': return strncmp(c, "null", 4) == 0 ? c + 4 : NULL;
    default: return number(c);
    }
}

const char *json_skip(const char *text) { return text ? value(text, 0) : NULL; }

bool json_valid(const char *text)
{
    const char *end = value(text, 0);
    return end && *blank(end) == 0;
}

const char *json_member(const char *text, const char *key)
{
    if (!text)
        return NULL;
    const char *c = blank(text);
    if (*c != '{')
        return NULL;
    c = blank(c + 1);
    size_t n = strlen(key);
    while (*c == '"') {
        const char *k = c + 1, *end = string(c);
        if (!end)
            return NULL;
        c = blank(blank(end) + 1); /* past ':' */
        if ((size_t)(end - 1 - k) == n && strncmp(k, key, n) == 0)
            return c;
        c = value(c, 0);
        if (!c)
            return NULL;
        c = blank(c);
        if (*c == ',')
            c = blank(c + 1);
    }
    return NULL;
}

const char *json_element(const char *text, int i)
{
    if (!text)
        return NULL;
    const char *c = blank(text);
    if (*c != '[')
        return NULL;
    c = blank(c + 1);
    if (*c == ']')
        return NULL;
    for (int k = 0;; k++) {
        if (k == i)
            return c;
        c = value(c, 0);
        if (!c)
            return NULL;
        c = blank(c);
        if (*c != ',')
            return NULL;
        c = blank(c + 1);
    }
}

int json_length(const char *text)
{
    if (!text)
        return -1;
    const char *c = blank(text);
    if (*c != '[')
        return -1;
    int n = 0;
    while (json_element(text, n))
        n++;
    return n;
}

bool json_string_at(const char *text, char *out, size_t len)
{
    if (!text)
        return false;
    const char *c = blank(text), *end = string(c);
    if (!end || (size_t)(end - c - 2) >= len)
        return false;
    memcpy(out, c + 1, (size_t)(end - c - 2));
    out[end - c - 2] = 0;
    return true;
}
