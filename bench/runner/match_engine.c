/*
 * match_engine.c: an engine's handshake and options (match_engine.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "match_engine.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>

#include "../../engine/core/number.h"
#include "../../engine/core/timeman.h"

#define DECLARED_MAX 64

/* An `option name N type T [default D] [min A] [max B] [var V]...` line. */
typedef struct declared {
    char name[64];
    char type[16];
    bool has_min, has_max;
    long long min, max;
    char vars[1024]; /* a combo's values, each followed by '\n' */
} declared_t;

typedef struct handshake {
    eproc_t *p;
    const engine_cfg_t *ec;
    const char *log_path;
    char *line;
    char *why;
    size_t why_len;
    int n;
    declared_t d[DECLARED_MAX];
} handshake_t;

bool match_engine_refusal(const char *line)
{
    const char *l = strncmp(line, "info string ", 12) == 0 ? line + 12 : line;
    static const char *const words[] = {"error", "no such option", "unknown option", "invalid"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strncasecmp(l, words[i], strlen(words[i])) == 0)
            return true;
    return false;
}

/* Reads the option line into d; false for a line that is not one. */
static bool read_declared(const char *line, declared_t *d)
{
    const char *name = strncmp(line, "option name ", 12) == 0 ? line + 12 : NULL;
    const char *type = name ? strstr(name, " type ") : NULL;
    if (!type || type == name)
        return false;
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%.*s", (int)(type - name), name);
    const char *c = type + 6;
    size_t len = strcspn(c, " ");
    snprintf(d->type, sizeof d->type, "%.*s", (int)len, c);
    c += len;
    /* The words after each keyword, up to the next keyword. */
    size_t nv = 0;
    while (*c) {
        c += strspn(c, " ");
        size_t k = strcspn(c, " ");
        const char *key = c;
        c += k;
        const char *value = c + strspn(c, " ");
        const char *end = value;
        while (*end) {
            const char *w = end + strspn(end, " ");
            size_t wl = strcspn(w, " ");
            if ((wl == 7 && strncmp(w, "default", 7) == 0) || (wl == 3 && (strncmp(w, "min", 3) == 0 ||
                                                                             strncmp(w, "max", 3) == 0 ||
                                                                             strncmp(w, "var", 3) == 0)))
                break;
            end = w + wl;
        }
        char text[256];
        snprintf(text, sizeof text, "%.*s", (int)(end - value), value);
        long long v;
        if (k == 3 && strncmp(key, "min", 3) == 0 && number_parse(text, LLONG_MIN, LLONG_MAX, &v))
            d->has_min = true, d->min = v;
        else if (k == 3 && strncmp(key, "max", 3) == 0 && number_parse(text, LLONG_MIN, LLONG_MAX, &v))
            d->has_max = true, d->max = v;
        else if (k == 3 && strncmp(key, "var", 3) == 0 && nv + strlen(text) + 2 < sizeof d->vars)
            nv += (size_t)snprintf(d->vars + nv, sizeof d->vars - nv, "%s\n", text);
        c = end;
    }
    return true;
}

static const declared_t *find_declared(const handshake_t *h, const char *name)
{
    for (int i = 0; i < h->n; i++)
        if (strcasecmp(h->d[i].name, name) == 0)
            return &h->d[i];
    return NULL;
}

/* Names alike but for case and blanks ("SkillLevel", "Skill Level"). */
static bool alike(const char *a, const char *b)
{
    for (;; a++, b++) {
        while (*a == ' ' || *a == '_')
            a++;
        while (*b == ' ' || *b == '_')
            b++;
        if (!*a || !*b || (*a | 0x20) != (*b | 0x20))
            return !*a && !*b;
    }
}

static bool fail(handshake_t *h, const char *fmt, const char *a, const char *b)
{
    snprintf(h->why, h->why_len, fmt, a, b);
    return false;
}

/* The engine's exit, for a message: "exit status 127: command not found".
 * False, so that a failed step reads `return ended(...)`. */
static bool ended(handshake_t *h, const char *before)
{
    int status = 0;
    eproc_end(h->p, 200, &status);
    char how[96] = "";
    if (WIFEXITED(status))
        snprintf(how, sizeof how, "exit status %d%s", WEXITSTATUS(status),
                 WEXITSTATUS(status) == 127   ? ": command not found"
                 : WEXITSTATUS(status) == 126 ? ": not executable"
                                              : "");
    else if (WIFSIGNALED(status))
        snprintf(how, sizeof how, "killed by signal %d", WTERMSIG(status));
    snprintf(h->why, h->why_len, "it ended before %s (%s)%s", before, how,
             h->log_path ? "" : "; --log FILE keeps what it writes to its standard error");
    return false;
}

/* Reads lines until `want`; the option lines on the way are kept, and a
 * refusal ends it (after `sent`, which it answers). */
static bool answer(handshake_t *h, const char *want, const char *sent)
{
    int64_t deadline = timeman_now_ms() + MATCH_HANDSHAKE_MS;
    for (;;) {
        int r = eproc_read_line(h->p, h->line, EPROC_LINE_MAX, deadline);
        if (r == EPROC_EOF)
            return ended(h, want[0] == 'u' ? "'ugiok'" : "'readyok'");
        if (r == EPROC_TIMEOUT) {
            snprintf(h->why, h->why_len, "no '%s' within %d s%s%s%s", want, MATCH_HANDSHAKE_MS / 1000,
                     sent ? " after " : "", sent ? sent : "",
                     h->log_path ? "" : "; --log FILE keeps what it writes to its standard error");
            return false;
        }
        if (strcmp(h->line, want) == 0 || (strncmp(h->line, want, strlen(want)) == 0 && h->line[strlen(want)] == ' '))
            return true;
        if (strncmp(h->line, "option ", 7) == 0 && h->n < DECLARED_MAX && read_declared(h->line, &h->d[h->n]))
            h->n++;
        else if (sent && match_engine_refusal(h->line)) {
            snprintf(h->why, h->why_len, "it answered '%.200s' with '%.300s'", sent, h->line);
            return false;
        }
    }
}

/* The value against the declared option; false with why. */
static bool check_value(handshake_t *h, const declared_t *d, const char *value)
{
    long long v;
    char range[96] = "";
    if (strcmp(d->type, "spin") == 0) {
        if (d->has_min && d->has_max)
            snprintf(range, sizeof range, " from %lld to %lld", d->min, d->max);
        if (!number_parse(value, LLONG_MIN, LLONG_MAX, &v) || (d->has_min && v < d->min) ||
            (d->has_max && v > d->max)) {
            snprintf(h->why, h->why_len, "its option '%s' takes a whole number%s, not '%s'", d->name, range, value);
            return false;
        }
    } else if (strcmp(d->type, "check") == 0) {
        if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0)
            return fail(h, "its option '%s' takes true or false, not '%s'", d->name, value);
    } else if (strcmp(d->type, "combo") == 0) {
        for (const char *c = d->vars; *c; c += strcspn(c, "\n") + 1)
            if (strlen(value) == strcspn(c, "\n") && strncasecmp(c, value, strlen(value)) == 0)
                return true;
        char vars[sizeof d->vars];
        snprintf(vars, sizeof vars, "%s", d->vars);
        for (char *c = vars; *c; c++)
            if (*c == '\n')
                *c = c[1] ? ',' : 0;
        snprintf(h->why, h->why_len, "its option '%s' is one of %s, not '%s'", d->name, vars, value);
        return false;
    }
    return true;
}

/* Sends one setoption and waits for its readyok: no refusal. */
static bool set_option(handshake_t *h, const char *name, const char *value)
{
    char cmd[512];
    if (value)
        snprintf(cmd, sizeof cmd, "setoption name %s value %s", name, value);
    else
        snprintf(cmd, sizeof cmd, "setoption name %s", name);
    if (!eproc_send(h->p, cmd) || !eproc_send(h->p, "isready"))
        return ended(h, "reading its options");
    return answer(h, "readyok", cmd);
}

/* Each option of the command line: declared, within what is declared, and
 * taken. */
static bool set_options(handshake_t *h)
{
    const engine_cfg_t *ec = h->ec;
    for (int i = 0; i < ec->n_options; i++) {
        const char *name = ec->option_name[i], *value = ec->option_value[i];
        const declared_t *d = find_declared(h, name);
        if (!d) {
            char known[400] = "", hint[160] = "";
            size_t n = 0;
            for (int k = 0; k < h->n; k++) {
                n += (size_t)snprintf(known + n, n < sizeof known ? sizeof known - n : 0, "%s%s", k ? ", " : "",
                                      h->d[k].name);
                if (!hint[0] && alike(h->d[k].name, name))
                    snprintf(hint, sizeof hint, "; did you mean '%s'?", h->d[k].name);
            }
            snprintf(h->why, h->why_len, "it has no option '%s' (its options: %s)%s", name, h->n ? known : "none",
                     hint);
            return false;
        }
        if (!check_value(h, d, value))
            return false;
        if (!set_option(h, d->name, strcmp(d->type, "button") == 0 && !value[0] ? NULL : value))
            return false;
    }
    return true;
}

bool match_engine_handshake(eproc_t *p, const engine_cfg_t *ec, const char *variant, const char *log_path, char *line,
                            char *why, size_t why_len)
{
    handshake_t *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(why, why_len, "out of memory");
        eproc_kill(p); /* ended, as every failure here leaves it */
        return false;
    }
    *h = (handshake_t){.p = p, .ec = ec, .log_path = log_path, .line = line, .why = why, .why_len = why_len};
    /* An engine that ended at once may have closed its input before `ugi`
     * is written: that is its end too, with its status, not a step later. */
    bool ok = eproc_send(p, "ugi") ? answer(h, "ugiok", NULL) : ended(h, "'ugiok'");
    /* The variant: among the engine's own, where it lists them. */
    const declared_t *v = ok ? find_declared(h, "UCI_Variant") : NULL;
    ok = ok && (!v || check_value(h, v, variant)) && set_option(h, "UCI_Variant", variant) && set_options(h);
    if (!ok && eproc_running(p))
        eproc_kill(p);
    free(h);
    return ok;
}

bool match_engine_start(eproc_t *p, const engine_cfg_t *ec, const char *variant, const char *log_path, char *line,
                        char *why, size_t why_len)
{
    eproc_spec_t spec = {.cmd = ec->cmd, .log_path = log_path};
    if (!eproc_spawn(p, &spec)) {
        snprintf(why, why_len, "it could not be started");
        return false;
    }
    return match_engine_handshake(p, ec, variant, log_path, line, why, why_len);
}
