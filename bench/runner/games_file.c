/*
 * games_file.c: the games file's header and last line (games_file.h),
 * written and read. Knows the format only: plays no game, opens no file.
 */
#define _POSIX_C_SOURCE 200809L
#include "games_file.h"

#include <stdlib.h>
#include <string.h>

#include "../../engine/core/number.h"
#include "../../engine/games/variants.h"
#include "games_tally.h"

uint64_t games_file_digest(uint64_t h, const void *bytes, size_t n)
{
    const unsigned char *b = bytes;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* A field as written: its tabs and line breaks as spaces (as the live file
 * writes them), so that a header line stays one line of its fields. */
static void put_field(FILE *f, const char *s)
{
    fputc('\t', f);
    for (; *s; s++)
        fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

static void put_line(FILE *f, const char *key, const char *a, const char *b, const char *c)
{
    fprintf(f, "#%s", key);
    for (const char *const *v = (const char *const[]){a, b, c, NULL}; *v; v++)
        put_field(f, *v);
    fputc('\n', f);
}

/* The limit as one canonical word: tc in seconds to the millisecond. */
static void limit_text(const limit_t *l, char *buf, size_t len)
{
    switch (l->kind) {
    case LIMIT_DEPTH: snprintf(buf, len, "depth=%lld", l->value); break;
    case LIMIT_NODES: snprintf(buf, len, "nodes=%lld", l->value); break;
    case LIMIT_MOVETIME: snprintf(buf, len, "movetime=%lld", l->value); break;
    case LIMIT_CLOCK:
        snprintf(buf, len, "tc=%lld.%03lld+%lld.%03lld", l->value / 1000, l->value % 1000, l->inc_ms / 1000,
                 l->inc_ms % 1000);
        break;
    }
}

void games_file_write_header(FILE *f, const match_cfg_t *cfg, int total_games, uint64_t openings_digest)
{
    char t[96], u[96];
    put_line(f, "denham-games", GAMES_FILE_VERSION, NULL, NULL);
    put_line(f, "variant", cfg->game->name, NULL, NULL);
    snprintf(t, sizeof t, "%d", total_games);
    put_line(f, "games", t, NULL, NULL);
    snprintf(t, sizeof t, "%d/%d", cfg->shard_k, cfg->shard_n);
    put_line(f, "shard", t, NULL, NULL);
    snprintf(t, sizeof t, "%llu", cfg->seed);
    put_line(f, "seed", t, NULL, NULL);
    if (cfg->openings_file)
        snprintf(t, sizeof t, "%s", cfg->openings_shuffled ? "book" : "file");
    else
        snprintf(t, sizeof t, "random:%d", cfg->random_plies);
    snprintf(u, sizeof u, "%016llx", (unsigned long long)openings_digest);
    put_line(f, "openings", t, u, NULL);
    snprintf(t, sizeof t, "%d", cfg->max_plies);
    put_line(f, "max-plies", t, NULL, NULL);
    snprintf(t, sizeof t, "%lld", cfg->time_margin_ms);
    put_line(f, "time-margin", t, NULL, NULL);
    snprintf(t, sizeof t, "%lld", cfg->hang_ms);
    put_line(f, "hang", t, NULL, NULL);
    if (game_teams(cfg->game) > 2) {
        size_t n = 0;
        for (int k = 0; k < cfg->n_seatings; k++)
            n += (size_t)snprintf(t + n, n < sizeof t ? sizeof t - n : 0, "%s%s", k ? "," : "", cfg->seating[k]);
        put_line(f, "seating", t, NULL, NULL);
    }
    for (int e = 0; e < cfg->n_engines; e++) {
        const engine_cfg_t *ec = &cfg->engines[e];
        char k[16], opt[256];
        snprintf(k, sizeof k, "%d", e + 1);
        put_line(f, "engine", k, "name", ec->name);
        put_line(f, "engine", k, "cmd", ec->cmd);
        limit_text(&ec->limit, t, sizeof t);
        put_line(f, "engine", k, "limit", t);
        for (int i = 0; i < ec->n_options; i++) {
            snprintf(opt, sizeof opt, "%s=%s", ec->option_name[i], ec->option_value[i]);
            put_line(f, "engine", k, "option", opt);
        }
    }
    if (cfg->sprt_on)
        snprintf(t, sizeof t, "%g %g %g %g", cfg->sprt.elo0, cfg->sprt.elo1, cfg->sprt.alpha, cfg->sprt.beta);
    put_line(f, "sprt", cfg->sprt_on ? t : "-", NULL, NULL);
    fflush(f);
}

void games_file_write_over(FILE *f, int played, const char *how)
{
    char t[16];
    snprintf(t, sizeof t, "%d", played);
    put_line(f, "over", t, how, NULL);
    fflush(f);
}

void games_file_write_failed(FILE *f, const char *why)
{
    put_line(f, "failed", why, NULL, NULL);
    fflush(f);
}

/* ---- reading ---- */

void games_header_free(games_header_t *h)
{
    for (int i = 0; i < h->n_lines; i++)
        free(h->lines[i]);
    memset(h, 0, sizeof *h);
}

static bool keep_line(games_header_t *h, const char *line)
{
    if (h->n_lines == GAMES_FILE_HEADER_MAX)
        return false;
    char *copy = strdup(line);
    if (copy)
        h->lines[h->n_lines++] = copy;
    return copy != NULL;
}

const char *games_header_add(games_header_t *h, const char *line)
{
    char text[1024], *f[6];
    if (strlen(line) >= sizeof text)
        return "a header line longer than 1023 characters";
    memcpy(text, line, strlen(line) + 1);
    int n = 0;
    for (char *c = text; n < 6;) { /* the fields, split at tabs */
        f[n++] = c;
        if (!(c = strchr(c, '\t')))
            break;
        *c++ = 0;
    }
    long long v, k;
    if (h->n_lines == 0 && (strcmp(f[0], GAMES_FILE_MAGIC) != 0 || n != 2 || strcmp(f[1], GAMES_FILE_VERSION) != 0))
        return strcmp(f[0], GAMES_FILE_MAGIC) == 0 ? "a games file of another format than " GAMES_FILE_VERSION
                                                   : "no header (its first line is not '" GAMES_FILE_MAGIC
                                                     " " GAMES_FILE_VERSION "')";
    if (strcmp(f[0], "#shard") == 0) {
        if (n != 2 || !number_parse_shard(f[1], GAMES_TALLY_MAX, &k, &v))
            return "#shard must be K/N";
        h->shard_k = (int)k;
        h->shard_n = (int)v;
        return NULL; /* K differs from shard to shard */
    }
    if (strcmp(f[0], "#sprt") == 0) {
        if (n != 2)
            return "#sprt must be ELO0 ELO1 ALPHA BETA, or -";
        if (strcmp(f[1], "-") == 0)
            return NULL;
        char *w[4], *save = NULL;
        int words = 0;
        for (char *t = strtok_r(f[1], " ", &save); t && words < 5; t = strtok_r(NULL, " ", &save))
            w[words < 4 ? words : 3] = t, words++;
        if (words != 4 || stats_sprt_parse((const char *const *)w, &h->sprt))
            return "#sprt must be ELO0 ELO1 ALPHA BETA, or -";
        h->has_sprt = true;
        return NULL; /* not part of what the match is: a shard plays every game whatever its SPRT */
    }
    if (strcmp(f[0], "#variant") == 0 && !(n == 2 && (h->game = variants_find(f[1]))))
        return "#variant names no variant of this denham-match";
    if (strcmp(f[0], "#games") == 0) {
        if (n != 2 || !number_parse(f[1], 1, GAMES_TALLY_MAX, &v))
            return "#games must be a number of games";
        h->games = (int)v;
    }
    if (strcmp(f[0], "#engine") == 0) {
        if (n != 4 || !number_parse(f[1], 1, MATCH_MAX_ENGINES, &k))
            return "#engine must be: the engine's number, a key, a value";
        if (strcmp(f[2], "name") == 0) {
            if (k != h->n_engines + 1)
                return "#engine's numbers must come in order";
            snprintf(h->engines[h->n_engines++], sizeof h->engines[0], "%s", f[3]);
        }
    }
    return keep_line(h, line) ? NULL : "more header lines than 64";
}

const char *games_header_check(const games_header_t *h)
{
    if (!h->n_lines)
        return "no header";
    if (!h->game)
        return "the header names no #variant";
    if (!h->games)
        return "the header gives no #games";
    if (!h->shard_n)
        return "the header gives no #shard";
    if (h->n_engines < 2)
        return "the header names fewer than two engines";
    if (h->shard_n > h->games)
        return "#shard's N is above #games";
    return NULL;
}

/* A header line for a message: its tabs as spaces, cut short. */
static void shown(const char *line, char *out, size_t len)
{
    snprintf(out, len, "%s", line ? line : "(nothing)");
    for (char *c = out; *c; c++)
        *c = *c == '\t' ? ' ' : *c;
}

const char *games_header_compare(const games_header_t *a, const games_header_t *b, char *why, size_t len)
{
    if (a->shard_n != b->shard_n) {
        snprintf(why, len, "'#shard K/%d' against '#shard K/%d'", b->shard_n, a->shard_n);
        return why;
    }
    for (int i = 0; i < a->n_lines || i < b->n_lines; i++) {
        const char *x = i < a->n_lines ? a->lines[i] : NULL, *y = i < b->n_lines ? b->lines[i] : NULL;
        if (x && y && strcmp(x, y) == 0)
            continue;
        char sx[200], sy[200];
        shown(y, sy, sizeof sy);
        shown(x, sx, sizeof sx);
        snprintf(why, len, "'%s' against '%s'", sy, sx);
        return why;
    }
    return NULL;
}
