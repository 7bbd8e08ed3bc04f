/*
 * match_args.c: the command line of `denham-match`, read into a
 * match_cfg_t. Checks and reports; may not start an engine or play.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/core/game.h"
#include "../../engine/core/number.h"
#include "../../engine/games/variants.h"
#include "match_args.h"

void match_usage(FILE *out)
{
    fprintf(out,
            "usage: denham-match --engine name=A cmd=./denham [option.Hash=16] [LIMIT]\n"
            "                    --engine name=B cmd=./denham [LIMIT] [options]\n"
            "       (up to four --engine in jinxx-3p and jinxx-4p, one per seat at most)\n"
            "LIMIT (per engine, or for both with --each): depth=N (1-127) | nodes=N | movetime=MS | tc=SEC[+SEC]\n"
            "options:\n"
            "  --each LIMIT            the limit of every engine that names none\n"
            "  --variant NAME          game (default: the engine's default variant)\n"
            "  --games N               number of games, 1-1000000, rounded up to whole groups (default 100)\n"
            "  --concurrency N         games played at once, 1-64 (default 1)\n"
            "  --openings random:N     N random legal plies from --seed (default random:4)\n"
            "  --openings file:PATH    one 'startpos|fen <fen> [moves ...]' per line, in order\n"
            "  --openings book:PATH    the same, in an order drawn from --seed (bench/books/)\n"
            "  --seed N                seed of the random openings (default 1)\n"
            "  --max-plies N           adjudicate a draw after N plies (default 400, 0: never)\n"
            "  --time-margin MS        lateness forgiven on clocks and movetime (default 50)\n"
            "  --hang MS               kill an engine silent this long past its limit (default 10000)\n"
            "  --games-file PATH       one line per game (index, variant, p1, p2, result, reason,\n"
            "                          opening, position command)\n"
            "  --live-file PATH        the games in progress, move by move, with the engines' scores,\n"
            "                          for the watch page of `denham serve` (PROTOCOL.md)\n"
            "  --log PATH              append the engines' stderr here (default: discarded)\n"
            "  --sprt ELO0 ELO1 ALPHA BETA   stop when the SPRT decides (two-team games; logistic Elo\n"
            "                          from -1000 to 1000, ELO0 < ELO1; exit status 3 when all games\n"
            "                          end undecided)\n"
            "  --seating P[,P...]      free-for-all games: who sits where, one letter per seat\n"
            "                          (A the first engine, B the second ...), each pattern rotated\n"
            "                          through every seat with the same dice; default for two\n"
            "                          engines ABB,BAA (3 seats) or ABBB,BAAA,AABB,ABAB (4), for\n"
            "                          one engine per seat ABC or ABCD\n"
            "  --shard K/N             play only the K-th of N parts of the match (its groups K-1,\n"
            "                          K-1+N, ...: the games a whole run plays there); needs\n"
            "                          --games-file; the SPRT stops no shard\n"
            "  --quiet                 no progress line per game\n"
            "       denham-match --merge FILE... [--partial] [--sprt ELO0 ELO1 ALPHA BETA]\n"
            "                          the shards' games files as one match (two-team games);\n"
            "                          --partial: some shards only (each given one whole)\n"
            "option.NAME=VALUE is checked against the engine's own option lines; a name with a space\n"
            "is one argument: \"option.Skill Level=10\". Exit status: 0 played (decided), 1 stopped on\n"
            "an error, 2 bad argument or file, 3 no SPRT decision, 130 interrupted (Ctrl-C).\n");
}

/* The engine's own bounds (PROTOCOL.md): a limit it would refuse would
 * leave the runner waiting for an answer that never comes. */
#define ENGINE_MAX_DEPTH 127
#define ENGINE_MAX_MS (1LL << 40)
#define MAX_GAMES 1000000
#define MAX_CONCURRENCY 64
#define LIMIT_HELP                                                                                               \
    "limits are depth=1-127, nodes=1-1099511627776, movetime=1-1099511627776 (ms), tc=SEC[+SEC] "               \
    "(finite, at most 1099511627.776 s)"

static bool parse_ll(const char *s, long long lo, long long *out)
{
    return number_parse(s, lo, LLONG_MAX, out);
}

/* Seconds as a decimal fraction ("2", "0.05"), as whole milliseconds in
 * [lo_ms, ENGINE_MAX_MS]: no NaN, no infinity, no overflow. */
static bool parse_seconds(const char *s, long long lo_ms, long long *ms, const char **end)
{
    char *e;
    if (!(*s >= '0' && *s <= '9'))
        return false;
    double v = strtod(s, &e);
    if (!isfinite(v) || v * 1000.0 > (double)ENGINE_MAX_MS || v * 1000.0 + 0.5 < (double)lo_ms)
        return false;
    *ms = (long long)(v * 1000.0 + 0.5);
    *end = e;
    return *ms >= lo_ms;
}

static bool parse_limit(const char *key, const char *val, limit_t *l)
{
    if (strcmp(key, "tc") == 0) {
        const char *end;
        long long base, inc = 0;
        if (!parse_seconds(val, 1, &base, &end))
            return false;
        if (*end == '+' && !parse_seconds(end + 1, 0, &inc, &end))
            return false;
        if (*end)
            return false;
        *l = (limit_t){LIMIT_CLOCK, base, inc};
        return true;
    }
    limit_kind_t kind = strcmp(key, "depth") == 0 ? LIMIT_DEPTH
                        : strcmp(key, "nodes") == 0 ? LIMIT_NODES
                        : strcmp(key, "movetime") == 0 ? LIMIT_MOVETIME
                                                       : (limit_kind_t)-1;
    long long v;
    if ((int)kind < 0 || !number_parse(val, 1, kind == LIMIT_DEPTH ? ENGINE_MAX_DEPTH : ENGINE_MAX_MS, &v))
        return false;
    *l = (limit_t){kind, v, 0};
    return true;
}

/* Reads key=value words after --engine; returns the index after them. */
static int parse_engine(int argc, char **argv, int i, engine_cfg_t *e, bool *has_limit)
{
    for (; i < argc && strncmp(argv[i], "--", 2) != 0; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq) {
            fprintf(stderr, "denham-match: expected key=value, got '%s'\n", argv[i]);
            return -1;
        }
        *eq = 0;
        const char *key = argv[i], *val = eq + 1;
        if (strcmp(key, "name") == 0) {
            snprintf(e->name, sizeof e->name, "%s", val);
        } else if (strcmp(key, "cmd") == 0) {
            snprintf(e->cmd, sizeof e->cmd, "%s", val);
        } else if (strncmp(key, "option.", 7) == 0 && e->n_options < MATCH_MAX_OPTIONS) {
            snprintf(e->option_name[e->n_options], sizeof e->option_name[0], "%s", key + 7);
            snprintf(e->option_value[e->n_options], sizeof e->option_value[0], "%s", val);
            e->n_options++;
        } else if (parse_limit(key, val, &e->limit)) {
            *has_limit = true;
        } else {
            fprintf(stderr, "denham-match: bad engine setting '%s=%s': %s\n", key, val, LIMIT_HELP);
            return -1;
        }
    }
    return i;
}

/* Reads the seating patterns of a free-for-all game (or sets the
 * default); false, with a message, for patterns that do not fit. */
static bool set_seating(match_cfg_t *cfg, const char *text)
{
    int n = cfg->game->players;
    bool ffa = game_teams(cfg->game) > 2;
    if (!ffa) {
        if (text)
            fprintf(stderr, "denham-match: --seating is for free-for-all games (jinxx-3p, jinxx-4p)\n");
        return !text;
    }
    /* Defaults: balanced for two engines; one engine per seat otherwise. */
    static const char *const defaults[MATCH_MAX_ENGINES + 1][MAX_PLAYERS + 1] = {
        [2] = {[3] = "ABB,BAA", [4] = "ABBB,BAAA,AABB,ABAB"},
        [3] = {[3] = "ABC"},
        [4] = {[4] = "ABCD"},
    };
    if (!text)
        text = defaults[cfg->n_engines][n];
    if (!text) {
        fprintf(stderr, "denham-match: %d engines in %d seats need --seating\n", cfg->n_engines, n);
        return false;
    }
    char letters[MATCH_MAX_ENGINES + 1] = "";
    for (int e = 0; e < cfg->n_engines; e++)
        letters[e] = (char)('A' + e);
    bool used[MATCH_MAX_ENGINES] = {false};
    cfg->n_seatings = 0;
    for (const char *c = text; *c;) {
        size_t len = strcspn(c, ",");
        bool ok = len == (size_t)n && cfg->n_seatings < MATCH_MAX_SEATINGS && strspn(c, letters) >= len;
        if (!ok) {
            fprintf(stderr, "denham-match: bad --seating: each pattern is %d letters from %s, at most %d patterns\n",
                    n, letters, MATCH_MAX_SEATINGS);
            return false;
        }
        for (size_t k = 0; k < len; k++)
            used[c[k] - 'A'] = true;
        snprintf(cfg->seating[cfg->n_seatings++], sizeof cfg->seating[0], "%.*s", (int)len, c);
        c += len;
        if (*c == ',')
            c++;
    }
    for (int e = 0; e < cfg->n_engines; e++)
        if (!used[e]) {
            fprintf(stderr, "denham-match: --seating never seats %s\n", cfg->engines[e].name);
            return false;
        }
    if (cfg->sprt_on) {
        fprintf(stderr, "denham-match: --sprt needs two-team games (pairs of games)\n");
        return false;
    }
    return true;
}

int match_args(int argc, char **argv, match_cfg_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->game = variants_default();
    cfg->games = 100;
    cfg->concurrency = 1;
    cfg->max_plies = 400;
    cfg->random_plies = 4;
    cfg->seed = 1;
    cfg->time_margin_ms = 50;
    cfg->hang_ms = 10000;
    cfg->shard_k = cfg->shard_n = 1;
    int n_engines = 0;
    const char *seating = NULL;
    bool has_limit[MATCH_MAX_ENGINES] = {false}, has_each = false;
    limit_t each = {LIMIT_DEPTH, 0, 0};
    for (int i = 1; i < argc;) {
        const char *a = argv[i];
        long long v;
        if (strcmp(a, "--engine") == 0) {
            if (n_engines == MATCH_MAX_ENGINES) {
                fprintf(stderr, "denham-match: %d engines at most\n", MATCH_MAX_ENGINES);
                return 2;
            }
            engine_cfg_t *e = &cfg->engines[n_engines];
            snprintf(e->name, sizeof e->name, "engine%d", n_engines + 1);
            i = parse_engine(argc, argv, i + 1, e, &has_limit[n_engines]);
            if (i < 0)
                return 2;
            if (!e->cmd[0]) {
                fprintf(stderr, "denham-match: --engine needs cmd=...\n");
                return 2;
            }
            n_engines++;
            continue;
        }
        bool one = i + 1 < argc;
        if (strcmp(a, "--each") == 0 && one) {
            char *eq = strchr(argv[i + 1], '=');
            if (!eq || (*eq = 0, !parse_limit(argv[i + 1], eq + 1, &each))) {
                fprintf(stderr, "denham-match: bad --each limit '%s%s%s': %s\n", argv[i + 1], eq ? "=" : "",
                        eq ? eq + 1 : "", LIMIT_HELP);
                return 2;
            }
            has_each = true;
        } else if (strcmp(a, "--variant") == 0 && one) {
            if (!(cfg->game = variants_find(argv[i + 1]))) {
                fprintf(stderr, "denham-match: unknown variant '%s'\n", argv[i + 1]);
                return 2;
            }
        } else if (strcmp(a, "--games") == 0 && one) {
            if (!number_parse(argv[i + 1], 1, MAX_GAMES, &v)) {
                fprintf(stderr, "denham-match: --games must be a whole number from 1 to %d\n", MAX_GAMES);
                return 2;
            }
            cfg->games = (int)v;
        } else if (strcmp(a, "--concurrency") == 0 && one) {
            if (!number_parse(argv[i + 1], 1, MAX_CONCURRENCY, &v)) {
                fprintf(stderr, "denham-match: --concurrency must be a whole number from 1 to %d\n", MAX_CONCURRENCY);
                return 2;
            }
            cfg->concurrency = (int)v;
        } else if (strcmp(a, "--openings") == 0 && one && strncmp(argv[i + 1], "random:", 7) == 0 &&
                   parse_ll(argv[i + 1] + 7, 0, &v) && v < 200) {
            cfg->random_plies = (int)v;
        } else if (strcmp(a, "--openings") == 0 && one && strncmp(argv[i + 1], "file:", 5) == 0) {
            cfg->openings_file = argv[i + 1] + 5;
        } else if (strcmp(a, "--openings") == 0 && one && strncmp(argv[i + 1], "book:", 5) == 0) {
            cfg->openings_file = argv[i + 1] + 5;
            cfg->openings_shuffled = true;
        } else if (strcmp(a, "--seed") == 0 && one && parse_ll(argv[i + 1], 0, &v)) {
            cfg->seed = (unsigned long long)v;
        } else if (strcmp(a, "--max-plies") == 0 && one && parse_ll(argv[i + 1], 0, &v)) {
            cfg->max_plies = (int)v;
        } else if (strcmp(a, "--time-margin") == 0 && one && parse_ll(argv[i + 1], 0, &v)) {
            cfg->time_margin_ms = v;
        } else if (strcmp(a, "--hang") == 0 && one && parse_ll(argv[i + 1], 1, &v)) {
            cfg->hang_ms = v;
        } else if (strcmp(a, "--games-file") == 0 && one) {
            cfg->games_path = argv[i + 1];
        } else if (strcmp(a, "--live-file") == 0 && one) {
            cfg->live_path = argv[i + 1];
        } else if (strcmp(a, "--seating") == 0 && one) {
            seating = argv[i + 1];
        } else if (strcmp(a, "--log") == 0 && one) {
            cfg->log_path = argv[i + 1];
        } else if (strcmp(a, "--sprt") == 0) {
            const char *words[4] = {NULL, NULL, NULL, NULL};
            for (int k = 0; k < 4 && i + 1 + k < argc; k++)
                words[k] = argv[i + 1 + k];
            const char *why = stats_sprt_parse(words, &cfg->sprt);
            if (why) {
                fprintf(stderr, "denham-match: %s\n", why);
                return 2;
            }
            cfg->sprt_on = true;
            i += 5;
            continue;
        } else if (strcmp(a, "--shard") == 0 && one) {
            long long k, n;
            if (!number_parse_shard(argv[i + 1], MAX_GAMES, &k, &n)) {
                fprintf(stderr, "denham-match: --shard takes K/N with 1 <= K <= N <= %d\n", MAX_GAMES);
                return 2;
            }
            cfg->shard_k = (int)k;
            cfg->shard_n = (int)n;
        } else if (strcmp(a, "--quiet") == 0) {
            cfg->quiet = true;
            i += 1;
            continue;
        } else {
            fprintf(stderr, "denham-match: bad or incomplete argument '%s'\n", a);
            match_usage(stderr);
            return 2;
        }
        i += 2;
    }
    cfg->n_engines = n_engines;
    if (n_engines < 2 || (n_engines > 2 && game_teams(cfg->game) <= 2) || n_engines > cfg->game->players) {
        fprintf(stderr, "denham-match: two engines, or in a free-for-all game up to one per seat\n");
        match_usage(stderr);
        return 2;
    }
    if (!set_seating(cfg, seating))
        return 2;
    if (cfg->shard_n > 1 && !cfg->games_path) {
        fprintf(stderr, "denham-match: --shard needs --games-file, which --merge reads\n");
        return 2;
    }
    for (int e = 0; e < n_engines; e++) {
        if (!has_limit[e] && !has_each) {
            fprintf(stderr, "denham-match: %s has no limit (depth=, nodes=, movetime=, tc= or --each)\n",
                    cfg->engines[e].name);
            return 2;
        }
        if (!has_limit[e])
            cfg->engines[e].limit = each;
    }
    return MATCH_ARGS_OK;
}
