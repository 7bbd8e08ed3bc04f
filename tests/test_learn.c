/* test_learn.c: the learning loop. denham datagen writes quiet positions
 * with results, the same for a seed whatever the threads or shards; the
 * tuner finds again the scaling constant and the weights that made a data
 * set; denham tune reads datagen's files and lowers the loss. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/core/rng.h"
#include "../engine/games/variants.h"
#include "../engine/learn/texel.h"
#include "../engine/search/search.h"
#include "../protocol/cli/datagen.h"
#include "../protocol/cli/tune.h"
#include "helpers.h"

static int n_variants(void)
{
    int n = 0;
    while (variants_at(n))
        n++;
    return n;
}

/* Runs datagen with these arguments (NULL-terminated) into path; its status. */
static int datagen(const char *path, ...)
{
    char *argv[32];
    int argc = 0;
    va_list ap;
    va_start(ap, path);
    for (const char *a; (a = va_arg(ap, const char *)) && argc < 28;)
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc++] = "--out";
    argv[argc++] = (char *)path;
    FILE *err = fopen("/dev/null", "w");
    int status = datagen_main(argc, argv, err);
    fclose(err);
    return status;
}

/* The data lines of a file (no comments), sorted, as one string (malloc'd). */
static char *data_lines(const char *path, bool sorted)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "grep -hv '^#' %s %s", path, sorted ? "| sort" : "");
    return strdup(shell(cmd));
}

START_TEST(datagen_writes_quiet_positions_with_results)
{
    const game_t *g = variants_at(_i);
    char path[64];
    snprintf(path, sizeof path, "/tmp/denham-test-datagen-%d.txt", _i);
    ck_assert_int_eq(datagen(path, "--variant", g->name, "--games", "3", "--depth", "2", "--max-plies", "120",
                             NULL), 0);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    searcher_t *s = searcher_new(1);
    char line[1024];
    int lines = 0, sides = game_teams(g) > 2 ? g->players : 2;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        char *bar1 = strchr(line, '|'), *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
        ck_assert_msg(bar2, "%s: %s", g->name, line);
        bar1[-1] = 0;
        position_t pos;
        load_fen(g, &pos, line);
        ck_assert_msg(search_quiet(s, g, &pos), "%s: not quiet: %s", g->name, line);
        double sum = 0;
        char *p = bar1 + 1;
        for (int k = 0; k < sides; k++) {
            double r = strtod(p, &p);
            ck_assert(r == 0 || r == 0.5 || r == 1);
            sum += r;
        }
        ck_assert_msg(sum == 1 || (sum > 0 && fmod(sum, 0.5) == 0), "%s: results %s", g->name, bar1 + 1);
        char *e;
        strtol(bar2 + 1, &e, 10); /* a score follows */
        ck_assert_msg(e != bar2 + 1 && (*e == '\n' || *e == 0), "%s: score %s", g->name, bar2 + 1);
        lines++;
    }
    fclose(f);
    searcher_free(s);
    remove(path);
    ck_assert_int_gt(lines, 0);
}
END_TEST

/* The same games for a seed on one thread or two, and split into shards. */
START_TEST(datagen_is_deterministic_across_threads_and_shards)
{
    const char *a = "/tmp/denham-test-dg-a.txt", *b = "/tmp/denham-test-dg-b.txt";
    ck_assert_int_eq(datagen(a, "--variant", "jinxx-3p", "--games", "8", "--depth", "3", "--seed", "5", NULL), 0);
    ck_assert_int_eq(datagen(b, "--variant", "jinxx-3p", "--games", "8", "--depth", "3", "--seed", "5", "--threads",
                             "2", NULL), 0);
    char *one = data_lines(a, false), *two = data_lines(b, false);
    ck_assert_msg(strcmp(one, two) == 0, "one thread and two wrote different data");
    ck_assert_int_gt((int)strlen(one), 100);
    free(two);
    char shard[64];
    for (int k = 1; k <= 3; k++) {
        char which[16];
        snprintf(which, sizeof which, "%d/3", k);
        snprintf(shard, sizeof shard, "/tmp/denham-test-dg-s%d.txt", k);
        ck_assert_int_eq(datagen(shard, "--variant", "jinxx-3p", "--games", "8", "--depth", "3", "--seed", "5",
                                 "--shard", which, NULL), 0);
    }
    char *whole = data_lines(a, true), *parts = data_lines("/tmp/denham-test-dg-s[123].txt", true);
    ck_assert_msg(strcmp(whole, parts) == 0, "the shards together differ from the whole run");
    ck_assert_int_eq(datagen(b, "--variant", "jinxx-3p", "--games", "8", "--depth", "3", "--seed", "6", NULL), 0);
    two = data_lines(b, false);
    ck_assert_msg(strcmp(one, two) != 0, "another seed wrote the same data");
    free(one);
    free(two);
    free(whole);
    free(parts);
    ck_assert_int_eq(datagen(b, "--variant", "brax", "--games", "2", NULL), 2);
    ck_assert_int_eq(datagen(b, "--variant", "brax", "--games", "2", "--depth", "2", "--nodes", "9", NULL), 2);
    ck_assert_int_eq(datagen(b, "--variant", "brax", "--games", "2", "--depth", "2", "--shard", "4/3", NULL), 2);
    ck_assert_int_eq(datagen(b, "--variant", "brax", "--games", "2", "--depth", "2", "--book", "/nonexistent", NULL),
                     2);
    remove(a);
    remove(b);
    for (int k = 1; k <= 3; k++) {
        snprintf(shard, sizeof shard, "/tmp/denham-test-dg-s%d.txt", k);
        remove(shard);
    }
}
END_TEST

/* A data set made from known weights and K, with the results the
 * predictions themselves: the tuner finds K from those weights, and the
 * weights from a start far from them. */
static void check_recovery(const char *variant, double k_true, int iterations)
{
    const game_t *g = variants_find(variant);
    const eval_weights_t *ws = g->weights;
    bool ffa = game_teams(g) > 2;
    nets_off(); /* the weights are the hand-written evaluation's */
    texel_data_t d;
    texel_data_init(&d, ws->count, ffa ? g->players : 2);
    double w_true[EVAL_WEIGHTS_MAX], w[EVAL_WEIGHTS_MAX];
    for (int j = 0; j < ws->count; j++)
        w_true[j] = ws->w[j].value;
    int seen[EVAL_WEIGHTS_MAX] = {0};
    rng_t rng = {0x7E5E1u};
    while (d.n < 6000) {
        position_t pos;
        g->set_start(&pos);
        for (int ply = 0; ply < 120; ply++) {
            outcome_t o;
            move_t moves[MAX_MOVES];
            int n = g->gen_moves(&pos, moves);
            if (g->decided(&pos, &o) || n == 0)
                break;
            if (!game_at_chance(g, &pos) && rng_below(&rng, 3) == 0) {
                eval_trace_t t;
                memset(&t, 0, sizeof t);
                g->evaluate(&pos, &t);
                int mover = g->to_move(&pos), stm = ffa ? mover : g->team_of[mover];
                unsigned in = ffa ? game_players_in(g, &pos) : 3u;
                ck_assert(texel_data_add(&d, &t, stm, in, 0.5));
                double e = texel_eval(&d, d.n - 1, w_true);
                d.target[d.n - 1] = (float)(1.0 / (1.0 + pow(10.0, -k_true * e / 400.0)));
                for (int j = 0; j < ws->count; j++)
                    for (int s = 0; s < d.sides; s++)
                        seen[j] += t.coef[j][s] != t.coef[j][stm];
            }
            undo_t u;
            g->make(&pos, moves[rng_below(&rng, (uint32_t)n)], &u);
        }
    }
    double k = texel_fit_k(&d, w_true, 2);
    ck_assert_msg(fabs(k - k_true) < 0.01 * k_true, "%s: K %f, made with %f", variant, k, k_true);
    /* Start: every weight off by half, plus 5. */
    for (int j = 0; j < ws->count; j++)
        w[j] = w_true[j] * 0.5 + 5;
    double start = texel_loss(&d, w, k_true, 2);
    texel_options_t o = {.iterations = iterations, .rate = 2.0, .threads = 2};
    double end = texel_tune(&d, w, k_true, &o);
    ck_assert_msg(end < start, "%s: loss %f -> %f", variant, start, end);
    for (int j = 0; j < ws->count; j++) {
        if (seen[j] < 200) /* too rare in the data to be fitted */
            continue;
        double tol = 3 + 0.05 * fabs(w_true[j]);
        ck_assert_msg(fabs(w[j] - w_true[j]) <= tol, "%s: %s %f, made with %f (in %d samples)", variant,
                      ws->w[j].name, w[j], w_true[j], seen[j]);
    }
    texel_data_free(&d);
    nets_default();
}

START_TEST(tuner_finds_known_weights)
{
    /* Brandubh's square of the attackers lost (0 to 64) moves with the
     * constant defenders' edge: the edge needs twice the steps. */
    check_recovery("brandubh", 0.8, 6000);
    check_recovery("bolix", 1.2, 3000);
    check_recovery("jinxx-3p", 0.6, 3000);
}
END_TEST

/* denham tune on datagen's file: the table, every weight named once, and
 * a lower loss; a bad line is named with its file and number. */
START_TEST(tune_reads_datagen_files)
{
    const char *path = "/tmp/denham-test-tune.txt";
    ck_assert_int_eq(datagen(path, "--variant", "brandubh", "--games", "30", "--depth", "3", NULL), 0);
    char *out_text = NULL, *err_text = NULL;
    size_t out_len = 0, err_len = 0;
    FILE *out = open_memstream(&out_text, &out_len), *err = open_memstream(&err_text, &err_len);
    char *argv[] = {"--variant", "brandubh", "--iterations", "300", "--threads", "2", (char *)path};
    ck_assert_int_eq(tune_main(7, argv, out, err), 0);
    fclose(out);
    fclose(err);
    const eval_weights_t *ws = variants_find("brandubh")->weights;
    for (int j = 0; j < ws->count; j++) {
        char name[64];
        snprintf(name, sizeof name, "    {\"%s\", ", ws->w[j].name);
        ck_assert_msg(strstr(out_text, name), "no %s in %s", ws->w[j].name, out_text);
    }
    double before, after;
    const char *loss = strstr(out_text, "loss ");
    ck_assert_ptr_nonnull(loss);
    ck_assert_int_eq(sscanf(loss, "loss %lf -> %lf", &before, &after), 2);
    ck_assert_msg(after < before, "%s", out_text);
    free(out_text);
    free(err_text);
    /* An anchor: it stays, and K is fitted again (the header gives both). */
    char *anchored[] = {"--variant", "brandubh", "--iterations", "300", "--freeze", "attacker", (char *)path};
    out = open_memstream(&out_text, &out_len);
    err = open_memstream(&err_text, &err_len);
    ck_assert_int_eq(tune_main(7, anchored, out, err), 0);
    fclose(out);
    fclose(err);
    ck_assert_msg(strstr(out_text, "    {\"attacker\", 100}, /* was 100 */\n"), "%s", out_text);
    double k0, k1;
    const char *kk = strstr(out_text, "; K ");
    ck_assert_msg(kk && sscanf(kk, "; K %lf -> %lf", &k0, &k1) == 2 && k0 != k1, "%s", out_text);
    free(out_text);
    free(err_text);
    /* A whole name that holds a comma, and the option given twice. */
    char *comma[] = {"--variant", "brandubh", "--iterations", "50", "--freeze", "route, defenders to move",
                     "--freeze", "attacker,defender", (char *)path};
    out = open_memstream(&out_text, &out_len);
    err = open_memstream(&err_text, &err_len);
    ck_assert_int_eq(tune_main(9, comma, out, err), 0);
    fclose(out);
    fclose(err);
    ck_assert_msg(strstr(out_text, "    {\"route, defenders to move\", 2000}, /* was 2000 */\n") &&
                      strstr(out_text, "    {\"attacker\", 100}, /* was 100 */\n") &&
                      strstr(out_text, "    {\"defender\", 160}, /* was 160 */\n"),
                  "%s", out_text);
    free(out_text);
    free(err_text);
    /* Options after the files (issue 62, 1.12): read as options, the same
     * fit as before them. */
    char *after_files[] = {(char *)path, "--variant", "brandubh", "--iterations", "50", "--freeze", "attacker"};
    char *before_files[] = {"--variant", "brandubh", "--iterations", "50", "--freeze", "attacker", (char *)path};
    char *texts[2];
    for (int k = 0; k < 2; k++) {
        out = open_memstream(&out_text, &out_len);
        err = open_memstream(&err_text, &err_len);
        ck_assert_int_eq(tune_main(7, k ? before_files : after_files, out, err), 0);
        fclose(out);
        fclose(err);
        texts[k] = out_text;
        free(err_text);
    }
    ck_assert_str_eq(texts[0], texts[1]);
    ck_assert_str_eq(after_files[0], path); /* argv is left as it was */
    free(texts[0]);
    free(texts[1]);
    char *unknown[] = {"--variant", "brandubh", "--freeze", "queen", (char *)path};
    out = open_memstream(&out_text, &out_len);
    err = open_memstream(&err_text, &err_len);
    ck_assert_int_eq(tune_main(5, unknown, out, err), 2);
    fclose(out);
    fclose(err);
    ck_assert(strstr(err_text, "--freeze names a weight"));
    free(out_text);
    free(err_text);
    FILE *f = fopen(path, "a");
    fputs("3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a | 2 0 | 0\n", f);
    fclose(f);
    out = open_memstream(&out_text, &out_len);
    err = open_memstream(&err_text, &err_len);
    ck_assert_int_eq(tune_main(7, argv, out, err), 2);
    fclose(out);
    fclose(err);
    ck_assert_msg(strstr(err_text, "denham-test-tune.txt:") && strstr(err_text, "results from 0 to 1"), "%s",
                  err_text);
    free(out_text);
    free(err_text);
    remove(path);
}
END_TEST

Suite *suite_learn(void)
{
    Suite *s = suite_create("learn");
    TCase *tc = tcase_create("learn");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, datagen_writes_quiet_positions_with_results, 0, n_variants());
    tcase_add_test(tc, datagen_is_deterministic_across_threads_and_shards);
    tcase_add_test(tc, tuner_finds_known_weights);
    tcase_add_test(tc, tune_reads_datagen_files);
    suite_add_tcase(s, tc);
    return s;
}
