/*
 * solve_cli.c: `denham solve`. See solve_cli.h and PROTOCOL.md, "Solving".
 * Reaches games through game_t and the registry, the solver through
 * solve.h, the checker through check.h: no game's internals.
 */
#define _POSIX_C_SOURCE 200809L
#include "solve_cli.h"

#ifndef __wasi__
#include <signal.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "../../engine/core/json.h"
#include "../../engine/core/number.h"
#include "../../engine/core/record.h"
#include "../../engine/core/timeman.h"
#include "../../engine/games/variants.h"
#include "../../engine/reference/check.h"
#include "usage.h"

#define SOLVE_HASH_MB 256
#define PROGRESS_SECONDS 10
#define POSITION_TEXT_MAX 65536

typedef struct options {
    const game_t *game;
    char position[POSITION_TEXT_MAX];
    uint64_t nodes;
    int64_t ms;
    int plies, threads;
    int side; /* -1: both */
    long long hash_mb;
    int64_t progress_ms;
    const char *proof, *check;
    bool json;
} options_t;

static solver_t *volatile interrupted_solver;

#ifndef __wasi__
static void on_interrupt(int sig)
{
    (void)sig;
    if (interrupted_solver)
        solver_stop(interrupted_solver);
}
#endif

/* ---- results ---- */

/* s as a JSON string. */
static void put_json_string(FILE *out, const char *s)
{
    json_t j;
    json_init(&j);
    json_string(&j, s);
    fputs(j.failed ? "null" : j.buf, out);
    json_free(&j);
}

static const char *side_name(const game_t *g, int t) { return game_team_name(g, t); }

/* A side in a sentence: "the attackers", "red"; its possessive with
 * owner set: "the attackers'", "red's" (static, two at a time). */
static const char *side_words(const game_t *g, int t, bool owner)
{
    static char buf[2][48];
    static int k;
    const char *name = side_name(g, t);
    size_t n = strlen(name);
    bool plural = n > 0 && name[n - 1] == 's';
    k ^= 1;
    snprintf(buf[k], sizeof buf[k], "%s%s%s", plural ? "the " : "", name, !owner ? "" : plural ? "'" : "'s");
    return buf[k];
}

static const char *plies_word(int n) { return n == 1 ? "ply" : "plies"; }

static void move_text(const game_t *g, const position_t *root, move_t m, char *buf, size_t len)
{
    if (m == MOVE_NONE)
        snprintf(buf, len, "(none)");
    else
        g->move_text(root, m, buf, len);
}

void solve_words(char *buf, size_t len, const game_t *g, const position_t *root, const solve_both_t *b,
                 const proof_stats_t *proof)
{
    char mv[GAME_MOVE_TEXT_MAX];
    switch (b->verdict) {
    case VERDICT_WIN: {
        /* The length: a checked proof's longest line is a bound; the
         * search's own count is only its count (solve.h, dist). */
        const solve_result_t *r = &b->side[b->winner];
        move_t first = proof && proof->first != MOVE_NONE ? proof->first : r->best;
        int n = proof ? snprintf(buf, len, "win for %s in at most %d %s", side_words(g, b->winner, false),
                                 proof->height, plies_word(proof->height))
                      : snprintf(buf, len, "win for %s", side_words(g, b->winner, false));
        if (first != MOVE_NONE && n > 0 && (size_t)n < len) {
            move_text(g, root, first, mv, sizeof mv);
            n += snprintf(buf + n, len - (size_t)n, ", first move %s", mv);
        }
        if (n > 0 && (size_t)n < len) {
            if (!proof)
                snprintf(buf + n, len - (size_t)n, " (the search counted %d %s, unchecked: --proof checks a bound)",
                         r->dist, plies_word(r->dist));
            else if (proof->height != r->dist)
                snprintf(buf + n, len - (size_t)n, " (the proof's longest line; the search counted %d)", r->dist);
            else
                snprintf(buf + n, len - (size_t)n, " (the proof's longest line)");
        }
        break;
    }
    case VERDICT_DRAW:
        snprintf(buf, len, "draw: neither side can force a win");
        break;
    case VERDICT_NO_WIN: {
        int other = !b->no_win;
        snprintf(buf, len, "no win for %s; %s win is unknown after %llu nodes (pn %u, dn %u)",
                 side_words(g, b->no_win, false), side_words(g, other, true), (unsigned long long)b->nodes,
                 b->side[other].pn, b->side[other].dn);
        break;
    }
    default: {
        int n = snprintf(buf, len, "unknown after %llu nodes", (unsigned long long)b->nodes);
        for (int t = 0, k = 0; t < 2; t++)
            if (b->side[t].nodes && n > 0 && (size_t)n < len)
                n += snprintf(buf + n, len - (size_t)n, "%s %s win pn %u dn %u", k++ ? "," : ":",
                              side_words(g, t, true), b->side[t].pn, b->side[t].dn);
    }
    }
}

void solve_json_fields(FILE *out, const game_t *g, const position_t *root, const solve_both_t *b,
                       const proof_stats_t *proof)
{
    static const char *const results[] = {"win", "draw", "no-win", "unknown"};
    fprintf(out, "\"result\":\"%s\",", results[b->verdict]);
    if (b->verdict == VERDICT_WIN) {
        const solve_result_t *r = &b->side[b->winner];
        move_t first = proof && proof->first != MOVE_NONE ? proof->first : r->best;
        fprintf(out, "\"winner\":\"%s\",", side_name(g, b->winner));
        if (proof)
            fprintf(out, "\"plies\":%d,", proof->height);
        fprintf(out, "\"search_plies\":%d,", r->dist);
        if (first != MOVE_NONE) {
            char mv[GAME_MOVE_TEXT_MAX];
            move_text(g, root, first, mv, sizeof mv);
            fprintf(out, "\"bestmove\":\"%s\",", mv);
        }
    }
    fputs("\"sides\":{", out);
    for (int t = 0; t < 2; t++) {
        const solve_result_t *r = &b->side[t];
        static const char *const status[] = {"open", "proved", "disproved"};
        fprintf(out, "%s\"%s\":{\"win\":\"%s\"", t ? "," : "", side_name(g, t), status[r->status]);
        if (r->status == SOLVE_OPEN && r->nodes)
            fprintf(out, ",\"pn\":%u,\"dn\":%u", r->pn, r->dn);
        fprintf(out, ",\"nodes\":%llu}", (unsigned long long)r->nodes);
    }
    int64_t ms = b->ms;
    fprintf(out, "},\"nodes\":%llu,\"time_ms\":%lld,\"nps\":%llu", (unsigned long long)b->nodes, (long long)ms,
            (unsigned long long)(b->nodes * 1000 / (uint64_t)(ms > 0 ? ms : 1)));
}

/* ---- arguments ---- */

static bool append(char *buf, const char *word)
{
    size_t n = strlen(buf), k = strlen(word);
    if (n + k + 2 >= POSITION_TEXT_MAX)
        return false;
    if (n)
        buf[n++] = ' ';
    memcpy(buf + n, word, k + 1);
    return true;
}

static int read_args(int argc, char **argv, options_t *o)
{
    *o = (options_t){.game = variants_default(), .threads = 1, .hash_mb = SOLVE_HASH_MB, .side = -1,
                     .progress_ms = PROGRESS_SECONDS * 1000};
    const char *side = NULL;
    char base[POSITION_TEXT_MAX] = "", moves[POSITION_TEXT_MAX] = "";
    enum { NONE, FEN, MOVES } mode = NONE;
    int limits = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        long long v;
        bool has = i + 1 < argc;
        if (a[0] == '-' && a[1] == '-') {
            mode = NONE;
            const char *val = has ? argv[i + 1] : NULL;
            if (strcmp(a, "--json") == 0) {
                o->json = true;
                continue;
            }
            static const char *const valued[] = {"--variant", "--nodes",   "--seconds",  "--plies", "--threads",
                                                 "--hash",    "--proof",   "--check",    "--progress",
                                                 "--side"};
            bool known = false;
            for (size_t k = 0; k < sizeof valued / sizeof *valued; k++)
                known |= strcmp(a, valued[k]) == 0;
            if (!known)
                return usage_error("solve", a, "unknown argument");
            if (!val)
                return usage_error("solve", a, "takes a value");
            i++;
            bool ok = true;
            if (strcmp(a, "--variant") == 0) {
                o->game = variants_find(val);
                if (!o->game)
                    return usage_error("solve", val, "unknown variant");
            } else if (strcmp(a, "--nodes") == 0 && (ok = number_parse(val, 1, 1LL << 50, &v))) {
                o->nodes = (uint64_t)v;
                limits++;
            } else if (strcmp(a, "--seconds") == 0 && (ok = number_parse(val, 1, 1LL << 30, &v))) {
                o->ms = v * 1000;
                limits++;
            } else if (strcmp(a, "--plies") == 0 && (ok = number_parse(val, 1, SOLVE_MAX_PLY, &v))) {
                o->plies = (int)v;
            } else if (strcmp(a, "--threads") == 0 && (ok = number_parse(val, 1, SOLVE_THREADS_MAX, &v))) {
                o->threads = (int)v;
            } else if (strcmp(a, "--hash") == 0 && (ok = number_parse(val, 1, 1LL << 20, &v))) {
                o->hash_mb = v;
            } else if (strcmp(a, "--progress") == 0 && (ok = number_parse(val, 0, 1LL << 30, &v))) {
                o->progress_ms = v * 1000;
            } else if (strcmp(a, "--side") == 0) {
                side = val;
            } else if (strcmp(a, "--proof") == 0) {
                o->proof = val;
            } else if (strcmp(a, "--check") == 0) {
                o->check = val;
            }
            if (!ok) {
                char why[200];
                snprintf(why, sizeof why, "bad value '%.100s' (the ranges are below)", val);
                return usage_error("solve", a, why);
            }
        } else if (strcmp(a, "startpos") == 0 || strcmp(a, "fen") == 0) {
            if (base[0])
                return usage_error("solve", a, "one position: startpos or fen F");
            snprintf(base, sizeof base, "%s", a);
            mode = a[0] == 'f' ? FEN : NONE;
        } else if (strcmp(a, "moves") == 0) {
            mode = MOVES;
        } else if (mode == FEN || mode == MOVES) {
            if (!append(mode == FEN ? base : moves, a))
                return usage_error("solve", NULL, "the position is too long");
        } else {
            return usage_error("solve", a, "unknown argument (a position is startpos or fen F, then moves ...)");
        }
    }
    if (limits > 1)
        return usage_error("solve", NULL, "give one of --nodes, --seconds");
    for (int t = 0; side && t < 2; t++) {
        char p[16]; /* "p1", "p2" (room for any int: -Wformat-truncation) */
        snprintf(p, sizeof p, "p%d", t + 1);
        if (strcmp(side, game_team_name(o->game, t)) == 0 || strcmp(side, p) == 0)
            o->side = t;
    }
    if (side && o->side < 0)
        return usage_error("solve", side, "not a side of this variant (its names, or p1 or p2)");
    if (strcmp(base, "fen") == 0)
        return usage_error("solve", "fen", "takes a position string");
    snprintf(o->position, sizeof o->position, "%s", base[0] ? base : "startpos");
    if (moves[0] && (!append(o->position, "moves") || !append(o->position, moves)))
        return usage_error("solve", NULL, "the position is too long");
    return 0;
}

/* ---- checking ---- */

static int check_file(const char *path, FILE *out)
{
    FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!in) {
        fprintf(stderr, "denham solve: cannot open %s\n", path);
        return 2;
    }
    char err[600];
    bool ok = check_proofs(in, path, out, err, sizeof err);
    if (in != stdin)
        fclose(in);
    if (!ok)
        fprintf(stderr, "denham solve: %s\n", err);
    fflush(out);
    return ok ? 0 : 1;
}

/* ---- solving ---- */

static void progress(void *ctx, const solve_progress_t *p)
{
    const game_t *g = ctx;
    fprintf(stderr, "denham solve: %lld s, %llu nodes (%llu/s), %s win: pn %u dn %u, table %d%%\n",
            (long long)(p->ms / 1000), (unsigned long long)p->nodes,
            (unsigned long long)(p->nodes * 1000 / (uint64_t)(p->ms > 0 ? p->ms : 1)), side_words(g, p->side, true),
            p->pn, p->dn, p->table_permille / 10);
}

/* Writes the proof(s) of the verdict to o->proof and checks the file with
 * the reference rules; 0, or 1 with a message. */
static int write_proofs(solver_t *s, const solve_request_t *base, const options_t *o, const solve_both_t *b,
                        proof_stats_t *win, char *summary, size_t len)
{
    int sides[2], claims = 0;
    solve_status_t claim = SOLVE_DISPROVEN;
    if (b->verdict == VERDICT_WIN) {
        sides[claims++] = b->winner;
        claim = SOLVE_PROVEN;
    } else if (b->verdict == VERDICT_DRAW) {
        sides[claims++] = 0;
        sides[claims++] = 1;
    } else if (b->verdict == VERDICT_NO_WIN) {
        sides[claims++] = b->no_win;
    } else {
        fprintf(stderr, "denham solve: nothing settled, so no proof written to %s\n", o->proof);
        return 1;
    }
    FILE *f = fopen(o->proof, "w");
    if (!f) {
        fprintf(stderr, "denham solve: cannot write %s\n", o->proof);
        return 1;
    }
    uint64_t moves = 0, stars = 0;
    int height = 0;
    for (int i = 0; i < claims; i++) {
        solve_request_t r = *base;
        r.side = sides[i];
        proof_header_t h = {o->position};
        proof_stats_t st;
        char err[200];
        if (!proof_write(s, &r, claim, &h, f, &st, err, sizeof err)) {
            fclose(f);
            fprintf(stderr, "denham solve: no proof written: %s\n", err);
            return 1;
        }
        moves += st.moves;
        stars += st.stars;
        if (st.height > height)
            height = st.height;
        if (claim == SOLVE_PROVEN)
            *win = st;
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "denham solve: cannot write %s\n", o->proof);
        return 1;
    }
    FILE *devnull = fopen("/dev/null", "w");
    FILE *in = fopen(o->proof, "r");
    char err[600] = "";
    bool ok = in && devnull && check_proofs(in, o->proof, devnull, err, sizeof err);
    if (in)
        fclose(in);
    if (devnull)
        fclose(devnull);
    char star_words[64] = "";
    if (stars)
        snprintf(star_words, sizeof star_words, " and %llu '*' line%s", (unsigned long long)stars,
                 stars == 1 ? "" : "s");
    snprintf(summary, len, "%s: %llu %s%s, the longest line %d %s; checked by the reference rules: %s", o->proof,
             (unsigned long long)moves, moves == 1 ? "move" : "moves", star_words, height, plies_word(height),
             ok ? "good" : err);
    return ok ? 0 : 1;
}

int solve_main(int argc, char **argv, FILE *out)
{
    options_t *o = malloc(sizeof *o);
    if (!o)
        return 1;
    int status = read_args(argc, argv, o);
    if (status || o->check) {
        status = status ? status : check_file(o->check, out);
        free(o);
        return status;
    }
    const game_t *g = o->game;
    if (!solve_supported(g)) {
        free(o);
        return usage_error("solve", g->name, "solves the two-player games without dice only");
    }
    static record_t r;
    char why[GAME_FEN_MAX + 200];
    if (!record_setup(&r, g, o->position, why, sizeof why) || record_outcome(&r).kind != OUTCOME_NONE) {
        if (record_outcome(&r).kind != OUTCOME_NONE)
            snprintf(why, sizeof why, "the game is over (%s)", record_outcome(&r).reason);
        fprintf(stderr, "denham solve: %s: %s\n", o->position, why);
        record_free(&r);
        free(o);
        return 2;
    }
    solver_t *s = solver_new((size_t)o->hash_mb);
    if (!s || !solver_set_threads(s, o->threads)) {
        fprintf(stderr, "denham solve: not enough memory for a %lld MiB table\n", o->hash_mb);
        solver_free(s);
        record_free(&r);
        free(o);
        return 1;
    }
    static uint64_t history[SOLVE_HISTORY_MAX];
    solve_request_t req = {.game = g, .root = r.pos, .history = history, .plies = o->plies, .nodes = o->nodes,
                           .ms = o->ms, .progress_ms = o->progress_ms, .progress = progress, .progress_ctx = (void *)g};
    req.history_len = record_recent_keys(&r, history, SOLVE_HISTORY_MAX);
    req.one_side = o->side >= 0;
    req.side = o->side >= 0 ? o->side : 0;
    interrupted_solver = s;
#ifndef __wasi__ /* WebAssembly has no signals: Ctrl-C there ends the host */
    struct sigaction sa = {0}, old;
    sa.sa_handler = on_interrupt;
    sigaction(SIGINT, &sa, &old);
#endif
    solve_both_t b = solve_both(s, &req);
    char words[512], summary[800] = "";
    /* A win's length is the checked proof's, when one is written. */
    proof_stats_t win = {.height = -1};
    if (o->proof)
        status = write_proofs(s, &req, o, &b, &win, summary, sizeof summary);
    const proof_stats_t *proof = status == 0 && win.height >= 0 ? &win : NULL;
    solve_words(words, sizeof words, g, &r.pos, &b, proof);
#ifndef __wasi__
    sigaction(SIGINT, &old, NULL);
#endif
    interrupted_solver = NULL;
    if (o->json) {
        fprintf(out, "{\"variant\":\"%s\",\"position\":", g->name);
        put_json_string(out, o->position);
        fputc(',', out);
        solve_json_fields(out, g, &r.pos, &b, proof);
        fputs(",\"words\":", out);
        put_json_string(out, words);
        if (summary[0]) {
            fputs(",\"proof\":{\"file\":", out);
            put_json_string(out, o->proof);
            fprintf(out, ",\"checked\":%s}", status == 0 ? "true" : "false");
        }
        fprintf(out, ",\"table_mb\":%zu,\"threads\":%d}\n", solver_table_bytes(s) >> 20, o->threads);
    } else {
        fprintf(out, "%s\n", words);
        fprintf(out, "nodes %llu time %.3f s nps %llu table %zu MiB threads %d\n", (unsigned long long)b.nodes,
                (double)b.ms / 1000, (unsigned long long)(b.nodes * 1000 / (uint64_t)(b.ms > 0 ? b.ms : 1)),
                solver_table_bytes(s) >> 20, o->threads);
        if (summary[0])
            fprintf(out, "proof %s\n", summary);
    }
    solver_free(s);
    record_free(&r);
    free(o);
    return status;
}
