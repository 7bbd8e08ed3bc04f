/*
 * analyse.c: `denham analyse` and `denham suite`. See PROTOCOL.md.
 * Reaches games through game_t and the registry, the search through search.h:
 * no game's internals.
 */
#define _POSIX_C_SOURCE 200809L
#include "analyse.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../engine/core/number.h"
#include "../../engine/core/record.h"
#include "../../engine/core/timeman.h"
#include "../../engine/games/variants.h"
#include "../../engine/search/multipv.h"
#include "solve_cli.h"
#include "usage.h"

#define ANALYSE_HASH_MB 64
#define ANALYSE_SOLVE_MB 64
#define DEFAULT_MOVETIME_MS 1000
#define PROGRESS_EVERY_MS 10000

typedef struct options {
    const game_t *game;
    search_limits_t limits;
    int multipv;
    uint64_t solve; /* --solve N: nodes for the solver; 0: none */
    bool json;
    const char *path; /* NULL: standard input */
} options_t;

/* Says what is wrong with argument i, which read_options refused: a
 * missing or bad value, or an unknown argument. Returns false. */
static bool refuse(const char *sub, int argc, char **argv, int i, bool analyse)
{
    static const char *const valued[] = {"--variant", "--depth", "--movetime", "--nodes", "--multipv", "--solve"};
    for (int k = 0; k < (analyse ? 6 : 4); k++) {
        if (strcmp(argv[i], valued[k]) != 0)
            continue;
        if (i + 1 >= argc)
            return usage_error(sub, argv[i], "takes a value") == 0;
        char why[200];
        snprintf(why, sizeof why, "bad value '%.100s' (the ranges are below)", argv[i + 1]);
        return usage_error(sub, argv[i], why) == 0;
    }
    return usage_error(sub, argv[i], "unknown argument") == 0;
}

/* Reads the options common to both subcommands; false (after saying what
 * was wrong) on a bad one. */
static bool read_options(int argc, char **argv, options_t *o, bool analyse)
{
    const char *sub = analyse ? "analyse" : "suite";
    *o = (options_t){.game = variants_default(), .multipv = 1};
    limits_init(&o->limits);
    int limits = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        long long v;
        bool has_value = i + 1 < argc;
        if (strcmp(a, "--json") == 0 && analyse) {
            o->json = true;
        } else if (strcmp(a, "--variant") == 0 && has_value) {
            o->game = variants_find(argv[++i]);
            if (!o->game)
                return usage_error(sub, argv[i], "unknown variant") == 0;
        } else if (strcmp(a, "--depth") == 0 && has_value && number_parse(argv[i + 1], 1, MAX_PLY - 1, &v)) {
            o->limits.depth = (int)v;
            limits++, i++;
        } else if (strcmp(a, "--movetime") == 0 && has_value && number_parse(argv[i + 1], 1, 1LL << 40, &v)) {
            o->limits.movetime = v;
            limits++, i++;
        } else if (strcmp(a, "--nodes") == 0 && has_value && number_parse(argv[i + 1], 1, 1LL << 40, &v)) {
            o->limits.nodes = (uint64_t)v;
            limits++, i++;
        } else if (strcmp(a, "--multipv") == 0 && analyse && has_value &&
                   number_parse(argv[i + 1], 1, SEARCH_MULTIPV_MAX, &v)) {
            o->multipv = (int)v;
            i++;
        } else if (strcmp(a, "--solve") == 0 && analyse && has_value && number_parse(argv[i + 1], 1, 1LL << 40, &v)) {
            o->solve = (uint64_t)v;
            i++;
        } else if (a[0] != '-' && !o->path) {
            o->path = a;
        } else {
            return refuse(sub, argc, argv, i, analyse);
        }
    }
    if (limits > 1)
        return usage_error(sub, NULL, "give one of --depth, --movetime, --nodes") == 0;
    if (limits == 0)
        o->limits.movetime = DEFAULT_MOVETIME_MS;
    return true;
}

static void trim(char *s)
{
    s[strcspn(s, "\r\n")] = 0;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = 0;
}

/* ---- analysis of one position ---- */

/* Sets r from a position argument; false with the reason. */
static bool set_up(record_t *r, const game_t *g, const char *text, char *why, size_t len)
{
    if (!record_setup(r, g, text, why, len))
        return false;
    outcome_t o = record_outcome(r);
    if (o.kind != OUTCOME_NONE) {
        snprintf(why, len, "the game is over (%s)", o.reason);
        return false;
    }
    if (game_at_chance(g, &r->pos)) {
        snprintf(why, len, "the die is still to be rolled");
        return false;
    }
    return true;
}

/* Solves the position within `nodes` (both sides, the table cleared
 * first: its results hold for one game before the root); true when
 * something was settled (a win, a draw, or one side's lack of one). */
static bool solve_position(solver_t *solver, const game_t *g, const record_t *r, uint64_t nodes, solve_both_t *b)
{
    static uint64_t history[SOLVE_HISTORY_MAX];
    solve_request_t req = {.game = g, .root = r->pos, .history = history, .nodes = nodes};
    req.history_len = record_recent_keys(r, history, SOLVE_HISTORY_MAX);
    solver_clear(solver);
    *b = solve_both(solver, &req);
    return b->verdict != VERDICT_UNKNOWN;
}

static int search_position(searcher_t *s, const game_t *g, const record_t *r, const search_limits_t *limits,
                           int k, pv_line_t *lines)
{
    static uint64_t history[SEARCH_HISTORY_MAX];
    search_request_t req = {.game = g, .root = r->pos, .limits = *limits};
    req.multiplayer = SEARCH_MULTIPLAYER_DEFAULT; /* as `go` searches */
    req.chance_pruning = SEARCH_CHANCE_DEFAULT;
    req.history_len = record_recent_keys(r, history, SEARCH_HISTORY_MAX);
    req.history = history;
    searcher_clear(s); /* each position alone: results do not depend on the order */
    game_prepare(g); /* outside any position's time */
    search_reset_stop(s);
    int64_t t0 = timeman_now_us();
    int found = multipv_search(s, &req, k, lines);
    /* The whole search's time, as its node count is (not the last
     * finished iteration's). */
    int64_t ms = (timeman_now_us() - t0) / 1000;
    for (int i = 0; i < found; i++)
        lines[i].time_ms = ms;
    return found;
}

static void score_text(const pv_line_t *l, bool json, char *buf, size_t len)
{
    const char *kind = l->mate ? "mate" : "cp";
    int value = l->mate ? l->mate : (int)l->score;
    if (json)
        snprintf(buf, len, "{\"%s\":%d}", kind, value);
    else
        snprintf(buf, len, "%s %d", kind, value);
}

/* JSON string escaping of s into buf. */
static void json_quote(const char *s, char *buf, size_t len)
{
    size_t n = 0;
    buf[n++] = '"';
    for (; *s && n + 8 < len; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            n += (size_t)snprintf(buf + n, len - n, "\\%c", c);
        else if (c < 0x20)
            n += (size_t)snprintf(buf + n, len - n, "\\u%04x", c);
        else
            buf[n++] = (char)c;
    }
    buf[n++] = '"';
    buf[n] = 0;
}

static void print_line(FILE *out, const options_t *o, const record_t *r, int index, const char *position, int k,
                       const pv_line_t *l, const solve_both_t *solved)
{
    const game_t *g = o->game;
    char score[64], mv[GAME_MOVE_TEXT_MAX];
    score_text(l, o->json, score, sizeof score);
    g->move_text(&r->pos, l->pv[0], mv, sizeof mv);
    if (o->json) {
        static char pos_json[1 << 16];
        json_quote(position, pos_json, sizeof pos_json);
        fprintf(out, "{\"index\":%d,\"position\":%s,\"multipv\":%d,\"bestmove\":\"%s\",\"score\":%s,\"depth\":%d,"
                     "\"seldepth\":%d,\"nodes\":%llu,",
                index, pos_json, k + 1, mv, score, l->depth, l->seldepth, (unsigned long long)l->nodes);
        if (l->tables)
            fprintf(out, "\"tbhits\":%llu,", (unsigned long long)l->tbhits);
        fprintf(out, "\"time_ms\":%lld,\"pv\":[", (long long)l->time_ms);
    } else {
        fprintf(out, "%d ", index);
        if (o->multipv > 1)
            fprintf(out, "multipv %d ", k + 1);
        fprintf(out, "bestmove %s score %s depth %d seldepth %d nodes %llu", mv, score, l->depth, l->seldepth,
                (unsigned long long)l->nodes);
        if (l->tables)
            fprintf(out, " tbhits %llu", (unsigned long long)l->tbhits);
        fprintf(out, " time %lld pv", (long long)l->time_ms);
    }
    position_t pos = r->pos;
    for (int i = 0; i < l->pv_len; i++) {
        undo_t u;
        g->move_text(&pos, l->pv[i], mv, sizeof mv);
        fprintf(out, o->json ? "%s\"%s\"" : "%s%s", o->json ? (i ? "," : "") : " ", mv);
        g->make(&pos, l->pv[i], &u);
    }
    if (o->json && solved) {
        fputs("],\"solve\":{", out);
        solve_json_fields(out, g, &r->pos, solved, NULL);
        fputs("}}\n", out);
        return;
    }
    fprintf(out, o->json ? "]}\n" : "\n");
}

static void print_error(FILE *out, const options_t *o, int index, const char *position, const char *why)
{
    if (o->json) {
        static char pos_json[1 << 16], why_json[512];
        json_quote(position, pos_json, sizeof pos_json);
        json_quote(why, why_json, sizeof why_json);
        fprintf(out, "{\"index\":%d,\"position\":%s,\"error\":%s}\n", index, pos_json, why_json);
    } else {
        fprintf(out, "%d error %s\n", index, why);
    }
}

int analyse_main(int argc, char **argv, FILE *out)
{
    options_t o;
    if (!read_options(argc, argv, &o, true))
        return 2;
    FILE *in = o.path ? fopen(o.path, "r") : stdin;
    if (!in) {
        fprintf(stderr, "denham analyse: cannot open %s\n", o.path);
        return 2;
    }
    searcher_t *s = searcher_new(ANALYSE_HASH_MB);
    static record_t r;
    static pv_line_t lines[SEARCH_MULTIPV_MAX];
    if (o.solve && !solve_supported(o.game)) {
        searcher_free(s);
        return usage_error("analyse", "--solve", "solves the two-player games without dice only");
    }
    solver_t *solver = o.solve ? solver_new(ANALYSE_SOLVE_MB) : NULL;
    if (!s || (o.solve && !solver)) {
        solver_free(solver);
        fprintf(stderr, "denham: out of memory\n");
        return 1;
    }
    char *line = NULL;
    size_t cap = 0;
    int index = 0;
    int64_t start = timeman_now_ms(), last_progress = start;
    while (getline(&line, &cap, in) >= 0) {
        trim(line);
        const char *text = line + strspn(line, " \t");
        if (!*text || *text == '#')
            continue;
        index++;
        char why[GAME_FEN_MAX + 200];
        if (!set_up(&r, o.game, text, why, sizeof why)) {
            print_error(out, &o, index, text, why);
        } else {
            int found = search_position(s, o.game, &r, &o.limits, o.multipv, lines);
            solve_both_t solved;
            bool proved = solver && solve_position(solver, o.game, &r, o.solve, &solved);
            for (int k = 0; k < found; k++)
                print_line(out, &o, &r, index, text, k, &lines[k], proved ? &solved : NULL);
            if (proved && !o.json) {
                char words[512];
                solve_words(words, sizeof words, o.game, &r.pos, &solved, NULL);
                fprintf(out, "%d solve %s nodes %llu time %lld\n", index, words, (unsigned long long)solved.nodes,
                        (long long)solved.ms);
            }
        }
        fflush(out);
        int64_t now = timeman_now_ms();
        if (now - last_progress >= PROGRESS_EVERY_MS) {
            fprintf(stderr, "denham analyse: %d positions, %lld s\n", index, (long long)(now - start) / 1000);
            last_progress = now;
        }
    }
    if (timeman_now_ms() - start >= PROGRESS_EVERY_MS)
        fprintf(stderr, "denham analyse: done, %d positions\n", index);
    free(line);
    record_free(&r);
    searcher_free(s);
    solver_free(solver);
    if (in != stdin)
        fclose(in);
    return 0;
}

/* ---- test suites ---- */

typedef struct expectation {
    char id[128];
    char bm[256], am[256]; /* space-separated move texts, with spaces around */
    char result[8];        /* "", "win", "loss", "draw" */
    search_limits_t limits;
} expectation_t;

/* Reads the fields after the position ("bm ...", "am ...", "result ...",
 * "id ...", "depth N", "nodes N", "movetime N"); false with the reason. */
static bool read_fields(char *fields, const search_limits_t *defaults, expectation_t *x, char *why, size_t len)
{
    memset(x, 0, sizeof *x);
    x->limits = *defaults;
    bool own_limit = false;
    char *save = NULL;
    for (char *f = strtok_r(fields, ";", &save); f; f = strtok_r(NULL, ";", &save)) {
        f += strspn(f, " \t");
        trim(f);
        char *arg = f + strcspn(f, " \t");
        if (*arg)
            *arg++ = 0;
        arg += strspn(arg, " \t");
        long long v;
        if (strcmp(f, "bm") == 0 || strcmp(f, "am") == 0) {
            snprintf(f[0] == 'b' ? x->bm : x->am, sizeof x->bm, " %s ", arg);
        } else if (strcmp(f, "result") == 0 &&
                   (strcmp(arg, "win") == 0 || strcmp(arg, "loss") == 0 || strcmp(arg, "draw") == 0)) {
            snprintf(x->result, sizeof x->result, "%s", arg);
        } else if (strcmp(f, "id") == 0) {
            snprintf(x->id, sizeof x->id, "%s", arg);
        } else if ((strcmp(f, "depth") == 0 || strcmp(f, "nodes") == 0 || strcmp(f, "movetime") == 0) &&
                   number_parse(arg, 1, strcmp(f, "depth") == 0 ? MAX_PLY - 1 : 1LL << 40, &v)) {
            if (!own_limit)
                limits_init(&x->limits);
            own_limit = true;
            if (f[0] == 'd') x->limits.depth = (int)v;
            else if (f[0] == 'n') x->limits.nodes = (uint64_t)v;
            else x->limits.movetime = v;
        } else if (*f) {
            snprintf(why, len, "bad field '%s %s'", f, arg);
            return false;
        }
    }
    if (!x->bm[0] && !x->am[0] && !x->result[0]) {
        snprintf(why, len, "nothing expected: give bm, am or result");
        return false;
    }
    return true;
}

static bool listed(const char *list, const char *move)
{
    char key[GAME_MOVE_TEXT_MAX + 2];
    snprintf(key, sizeof key, " %s ", move);
    return strstr(list, key) != NULL;
}

static bool solved(const expectation_t *x, const char *move, const pv_line_t *l)
{
    int moves = l->mate;
    bool mate = moves != 0;
    score_t score = l->score;
    if (x->bm[0] && !listed(x->bm, move))
        return false;
    if (x->am[0] && listed(x->am, move))
        return false;
    if (strcmp(x->result, "win") == 0)
        return mate && moves > 0;
    if (strcmp(x->result, "loss") == 0)
        return mate && moves < 0;
    if (strcmp(x->result, "draw") == 0)
        return score == 0;
    return true;
}

int suite_main(int argc, char **argv, FILE *out)
{
    options_t o;
    if (!read_options(argc, argv, &o, false))
        return 2;
    if (!o.path)
        return usage_error("suite", NULL, "no suite file");
    FILE *in = fopen(o.path, "r");
    if (!in) {
        fprintf(stderr, "denham suite: cannot open %s\n", o.path);
        return 2;
    }
    searcher_t *s = searcher_new(ANALYSE_HASH_MB);
    if (!s)
        return 1;
    static record_t r;
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0, total = 0, good = 0, status = 0;
    int64_t all_ms = 0;
    const game_t *g = o.game;
    while (getline(&line, &cap, in) >= 0 && status != 2) {
        lineno++;
        trim(line);
        char *text = line + strspn(line, " \t");
        if (!*text || *text == '#')
            continue;
        char why[GAME_FEN_MAX + 200];
        if (strncmp(text, "variant ", 8) == 0) {
            g = variants_find(text + 8);
            if (!g) {
                fprintf(stderr, "denham suite: %s line %d: unknown variant '%s'\n", o.path, lineno, text + 8);
                status = 2;
            }
            continue;
        }
        char *fields = strchr(text, ';');
        expectation_t x;
        if (fields)
            *fields++ = 0;
        if (!fields || !read_fields(fields, &o.limits, &x, why, sizeof why) ||
            !set_up(&r, g, text, why, sizeof why)) {
            fprintf(stderr, "denham suite: %s line %d: %s\n", o.path, lineno, fields ? why : "expected ';' fields");
            status = 2;
            continue;
        }
        pv_line_t best;
        int64_t t0 = timeman_now_ms();
        int found = search_position(s, g, &r, &x.limits, 1, &best);
        int64_t ms = timeman_now_ms() - t0;
        all_ms += ms;
        char mv[GAME_MOVE_TEXT_MAX] = "(none)", score[64] = "";
        if (found) {
            g->move_text(&r.pos, best.pv[0], mv, sizeof mv);
            score_text(&best, false, score, sizeof score);
        }
        bool ok = found && solved(&x, mv, &best);
        total++;
        good += ok;
        fprintf(out, "%s %-24s %s %s, %lld ms", ok ? "ok  " : "FAIL", x.id[0] ? x.id : "-", mv, score, (long long)ms);
        if (!ok)
            fprintf(out, " (expected%s%s%s%s%s%s)", x.bm[0] ? " bm" : "", x.bm, x.am[0] ? " am" : "", x.am,
                    x.result[0] ? " result " : "", x.result);
        fputc('\n', out);
        fflush(out);
    }
    if (status != 2) {
        fprintf(out, "solved %d / %d, %lld ms\n", good, total, (long long)all_ms);
        status = good == total ? 0 : 1;
    }
    free(line);
    record_free(&r);
    searcher_free(s);
    fclose(in);
    return status;
}
