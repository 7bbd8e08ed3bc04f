/* doc_examples.c: the marked blocks of a document, the masks and the
 * matcher (doc_examples.h). Runs nothing. */
#define _POSIX_C_SOURCE 200809L
#include "doc_examples.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_range(const char *s, size_t n)
{
    char *t = malloc(n + 1);
    if (!t)
        abort();
    memcpy(t, s, n);
    t[n] = 0;
    return t;
}

static char *dup_trimmed(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    return dup_range(s, n);
}

/* The word at *p (up to a blank), advancing past it and the blanks after. */
static size_t next_word(const char **p, const char **word)
{
    while (**p == ' ' || **p == '\t')
        (*p)++;
    *word = *p;
    while (**p && **p != ' ' && **p != '\t')
        (*p)++;
    size_t n = (size_t)(*p - *word);
    while (**p == ' ' || **p == '\t')
        (*p)++;
    return n;
}

static bool word_is(const char *w, size_t n, const char *what) { return n == strlen(what) && strncmp(w, what, n) == 0; }

static void bad(doc_block_t *b, const char *why)
{
    b->kind = DOC_BAD;
    free(b->error);
    b->error = dup_range(why, strlen(why));
}

void doc_parse_tag(const char *tag, doc_block_t *b)
{
    const char *p = tag, *w;
    size_t n = next_word(&p, &w);
    char lang[32] = "";
    if (n > 0 && !word_is(w, n, "example") && !word_is(w, n, "format")) {
        snprintf(lang, sizeof lang, "%.*s", (int)n, w);
        n = next_word(&p, &w);
    }
    if (word_is(w, n, "format")) {
        b->kind = DOC_FORMAT;
        return;
    }
    if (!word_is(w, n, "example")) {
        b->kind = DOC_UNTAGGED;
        return;
    }
    /* Options: `long`, then `file: PATH`, `run: CMD` (to the end of the
     * tag, or to ` skip:`), `skip: REASON` (to the end). */
    while (*p) {
        const char *start = p;
        n = next_word(&p, &w);
        if (word_is(w, n, "long")) {
            b->is_long = true;
        } else if (word_is(w, n, "skip:")) {
            b->skip = dup_trimmed(p);
            if (!*b->skip)
                return bad(b, "`skip:` gives its reason");
            break;
        } else if (word_is(w, n, "run:")) {
            const char *end = strstr(p, " skip:");
            size_t len = end ? (size_t)(end - p) : strlen(p);
            char *cmd = dup_range(p, len);
            b->run = dup_trimmed(cmd);
            free(cmd);
            p += len;
        } else if (word_is(w, n, "file:")) {
            n = next_word(&p, &w);
            b->file = dup_range(w, n);
        } else {
            char why[160];
            snprintf(why, sizeof why, "unknown option '%.*s' in the tag", (int)strcspn(start, " \t"), start);
            return bad(b, why);
        }
    }
    if (b->run && !*b->run)
        return bad(b, "`run:` gives the command whose output the block shows");
    if (b->file)
        b->kind = DOC_FILE;
    else if (b->run)
        b->kind = DOC_OUTPUT;
    else if (strcmp(lang, "sh") == 0)
        b->kind = DOC_SHELL;
    else if (strcmp(lang, "ugi") == 0)
        b->kind = DOC_TRANSCRIPT;
    else if (!b->skip)
        return bad(b, "an example that is not `sh` or `ugi` names the command that prints it (`run: CMD`) or the "
                      "file it copies (`file: PATH`)");
    else
        b->kind = DOC_OUTPUT; /* skipped: nothing to run */
}

/* ---- reading ---- */

typedef struct lines {
    int n;
    char **line;
} lines_t;

static bool read_lines(const char *path, lines_t *l)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    *l = (lines_t){0};
    int cap = 0;
    char *buf = NULL;
    size_t bufcap = 0;
    ssize_t len;
    while ((len = getline(&buf, &bufcap, f)) >= 0) {
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
            len--;
        if (l->n == cap) {
            cap = cap ? cap * 2 : 256;
            l->line = realloc(l->line, (size_t)cap * sizeof *l->line);
            if (!l->line)
                abort();
        }
        l->line[l->n++] = dup_range(buf, (size_t)len);
    }
    free(buf);
    fclose(f);
    return true;
}

static void free_lines(lines_t *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->line[i]);
    free(l->line);
}

static doc_block_t *add_block(doc_t *d, int line, const char *tag)
{
    d->blocks = realloc(d->blocks, (size_t)(d->n + 1) * sizeof *d->blocks);
    if (!d->blocks)
        abort();
    doc_block_t *b = &d->blocks[d->n++];
    *b = (doc_block_t){.line = line};
    doc_parse_tag(tag, b);
    return b;
}

static void add_body(doc_block_t *b, char *text, int line)
{
    b->body = realloc(b->body, (size_t)(b->n + 1) * sizeof *b->body);
    b->body_line = realloc(b->body_line, (size_t)(b->n + 1) * sizeof *b->body_line);
    if (!b->body || !b->body_line)
        abort();
    b->body[b->n] = text;
    b->body_line[b->n++] = line;
}

/* Markdown: fenced blocks (```), indented as a list item may be. */
static void read_markdown(const lines_t *l, doc_t *d)
{
    for (int i = 0; i < l->n; i++) {
        const char *s = l->line[i];
        size_t indent = strspn(s, " ");
        if (strncmp(s + indent, "```", 3) != 0)
            continue;
        doc_block_t *b = add_block(d, i + 1, s + indent + 3 + strspn(s + indent + 3, "`"));
        for (i++; i < l->n; i++) {
            const char *t = l->line[i];
            size_t sp = strspn(t, " ");
            if (strncmp(t + sp, "```", 3) == 0)
                break;
            add_body(b, dup_range(t + (sp < indent ? sp : indent), strlen(t + (sp < indent ? sp : indent))), i + 1);
        }
    }
}

/* The text of a roff line as printed, for the escapes the pages use. */
static char *roff_text(const char *s)
{
    char *t = dup_range(s, strlen(s));
    char *o = t;
    for (const char *p = s; *p;) {
        if (p[0] != '\\') {
            *o++ = *p++;
            continue;
        }
        if (p[1] == '-' || p[1] == '.') {
            *o++ = p[1];
            p += 2;
        } else if (p[1] == 'e') {
            *o++ = '\\';
            p += 2;
        } else if (p[1] == '&') {
            p += 2;
        } else if (strncmp(p + 1, "(aq", 3) == 0) {
            *o++ = '\'';
            p += 4;
        } else if (strncmp(p + 1, "(dq", 3) == 0) {
            *o++ = '"';
            p += 4;
        } else {
            *o++ = *p++;
        }
    }
    *o = 0;
    return t;
}

/* roff: `.EX` ... `.EE`, tagged by a `.\" ` comment at most three lines
 * before the `.EX` (an `.IP` may stand between). */
static void read_roff(const lines_t *l, doc_t *d)
{
    for (int i = 0; i < l->n; i++) {
        if (strcmp(l->line[i], ".EX") != 0)
            continue;
        const char *tag = "";
        int tag_line = i + 1;
        for (int k = i - 1; k >= 0 && k >= i - 3; k--) {
            if (strncmp(l->line[k], ".\\\" ", 4) == 0) {
                tag = l->line[k] + 4;
                tag_line = k + 1;
                break;
            }
            if (strcmp(l->line[k], ".EE") == 0)
                break;
        }
        doc_block_t *b = add_block(d, tag_line, tag);
        for (i++; i < l->n && strcmp(l->line[i], ".EE") != 0; i++)
            add_body(b, roff_text(l->line[i]), i + 1);
    }
}

bool doc_read(const char *path, doc_t *d)
{
    *d = (doc_t){.path = path};
    lines_t l;
    if (!read_lines(path, &l))
        return false;
    size_t n = strlen(path);
    if (n > 2 && path[n - 2] == '.' && isdigit((unsigned char)path[n - 1]))
        read_roff(&l, d);
    else
        read_markdown(&l, d);
    free_lines(&l);
    return true;
}

void doc_free(doc_t *d)
{
    for (int i = 0; i < d->n; i++) {
        doc_block_t *b = &d->blocks[i];
        for (int k = 0; k < b->n; k++)
            free(b->body[k]);
        free(b->body);
        free(b->body_line);
        free(b->skip);
        free(b->run);
        free(b->file);
        free(b->error);
    }
    free(d->blocks);
    *d = (doc_t){0};
}

/* ---- the one rule set ---- */

bool doc_timed(const char *command)
{
    static const char *const timed[] = {"movetime", "wtime", "btime", "p1time", "p2time", "p3time", "p4time",
                                        "infinite", "tc="};
    for (size_t i = 0; i < sizeof timed / sizeof timed[0]; i++)
        if (strstr(command, timed[i]))
            return true;
    return false;
}

/* Replaces the number (digits, with a sign or a decimal point) at p with
 * `#`, shifting the rest of the line left. */
static void mask_number_at(char *p)
{
    char *q = p;
    if (*q == '-')
        q++;
    if (!isdigit((unsigned char)*q))
        return;
    while (isdigit((unsigned char)*q) || (*q == '.' && isdigit((unsigned char)q[1])))
        q++;
    *p = '#';
    memmove(p + 1, q, strlen(q) + 1);
}

/* Masks the number after every `key` that begins the line or follows a
 * blank, a brace or a comma. */
static void mask_after(char *line, const char *key)
{
    size_t n = strlen(key);
    for (char *p = line; (p = strstr(p, key)) != NULL; p += n) {
        if (p == line || p[-1] == ' ' || p[-1] == '{' || p[-1] == ',' || p[-1] == '\t')
            mask_number_at(p + n);
    }
}

void doc_mask(char *line, bool timed)
{
    /* Every run: times, speeds, the table's fill. */
    static const char *const always[] = {
        "time ",          /* info lines and analyse's text: time <ms> */
        "nps ",           /* info lines */
        "hashfull ",      /* info lines: the table's fill after a search on a background-filled table */
        "\"time_ms\":",   /* analyse --json */
        "Time (ms): ",    /* perft */
        "Nodes/second: ", /* perft */
        "Total time (ms) : ", "Nodes/second    : ", /* bench */
    };
    for (size_t i = 0; i < sizeof always / sizeof always[0]; i++)
        mask_after(line, always[i]);
    /* `N ms` (suite lines, and any other time said in milliseconds). */
    for (char *p = line; (p = strstr(p, " ms")) != NULL; p += 3) {
        if ((p[3] == 0 || p[3] == ',' || p[3] == ' ' || p[3] == ')' || p[3] == ';') && p > line &&
            isdigit((unsigned char)p[-1])) {
            char *s = p;
            while (s > line && (isdigit((unsigned char)s[-1]) || s[-1] == '.'))
                s--;
            mask_number_at(s);
            p = s;
        }
    }
    /* A search with a time limit: how far it got. */
    if (timed) {
        static const char *const counts[] = {"nodes ", "\"nodes\":", "tbhits ", "\"tbhits\":"};
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
            mask_after(line, counts[i]);
    }
    /* Trailing blanks never count. */
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t'))
        line[--n] = 0;
}

/* ---- matching ---- */

bool doc_glob(const char *pattern, const char *text)
{
    const char *star = NULL, *resume = NULL;
    while (*text) {
        if (strncmp(pattern, "...", 3) == 0) {
            pattern += 3;
            star = pattern;
            resume = text;
        } else if (*pattern == *text) {
            pattern++;
            text++;
        } else if (star) {
            pattern = star;
            text = ++resume;
        } else {
            return false;
        }
    }
    while (strncmp(pattern, "...", 3) == 0)
        pattern += 3;
    return *pattern == 0;
}

typedef struct matcher {
    char *const *e;
    char *const *a;
    int ne, na;
    unsigned char *failed; /* (i, j) known not to match */
    int best_i, best_j;    /* the furthest shown line reached */
} matcher_t;

static bool match_from(matcher_t *m, int i, int j)
{
    for (;;) {
        unsigned char *seen = &m->failed[(size_t)i * (size_t)(m->na + 1) + (size_t)j];
        if (*seen)
            return false;
        if (i > m->best_i || (i == m->best_i && j > m->best_j)) {
            m->best_i = i;
            m->best_j = j;
        }
        if (i == m->ne) {
            if (j == m->na)
                return true;
            *seen = 1;
            return false;
        }
        if (strcmp(m->e[i], "...") == 0) {
            for (int k = j; k <= m->na; k++)
                if (match_from(m, i + 1, k))
                    return true;
            *seen = 1;
            return false;
        }
        if (j == m->na || !doc_glob(m->e[i], m->a[j])) {
            *seen = 1;
            return false;
        }
        i++;
        j++;
    }
}

bool doc_match(char *const *expected, int ne, char *const *actual, int na, int *bad_expected, int *bad_actual)
{
    matcher_t m = {expected, actual, ne, na, calloc((size_t)(ne + 1) * (size_t)(na + 1), 1), -1, -1};
    if (!m.failed)
        abort();
    bool ok = match_from(&m, 0, 0);
    free(m.failed);
    if (!ok) {
        /* The first shown line past the furthest point reached that is not
         * a wildcard, and the printed line it met. */
        int i = m.best_i, j = m.best_j;
        while (i < ne && strcmp(expected[i], "...") == 0)
            i++;
        *bad_expected = i;
        *bad_actual = j;
    }
    return ok;
}
