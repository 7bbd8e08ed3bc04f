/* test_nnue.c: the learned evaluation. A net's text form round trips and
 * refuses what is no net; the accumulator make and unmake keep equals one
 * computed afresh over random games, and the output equals a plain
 * reference computed here; training finds a known function again; denham
 * tune trains a net from datagen's file; the options UseNetwork and
 * EvalFile, as transcripts. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/core/rng.h"
#include "../engine/games/variants.h"
#include "../engine/learn/nnue.h"
#include "../engine/learn/nnue_train.h"
#include "../protocol/cli/datagen.h"
#include "../protocol/cli/tune.h"
#include "../protocol/ugi/net_option.h"
#include "helpers.h"

/* The protocol's whole output for input (static until the next call). */
static const char *transcript(const char *input)
{
    static char *out;
    free(out);
    out = protocol_transcript(input, strlen(input));
    return out;
}

/* A game with a net, its embedded net read. */
static const game_t *net_game(const char *name)
{
    const game_t *g = variants_find(name);
    position_t p;
    g->set_start(&p); /* reads the embedded net */
    ck_assert_ptr_nonnull(g->net);
    ck_assert_ptr_nonnull(g->net->embedded);
    return g;
}

static const game_t *brandubh(void) { return net_game("brandubh"); }

static char *net_text(const nnue_t *n, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    nnue_write(n, f, "a test");
    fclose(f);
    return text;
}

START_TEST(net_text_round_trips)
{
    const nnue_t *n = brandubh()->net->embedded;
    size_t len;
    char *text = net_text(n, &len), why[200];
    ck_assert(strncmp(text, "/* denham-nnue brandubh a test */\n", 34) == 0);
    nnue_t *back = calloc(1, sizeof *back);
    ck_assert_msg(nnue_parse(back, text, len, why, sizeof why), "%s", why);
    ck_assert_str_eq(back->game, "brandubh");
    ck_assert_int_eq(back->inputs, n->inputs);
    ck_assert_int_eq(back->max_active, n->max_active);
    ck_assert(memcmp(back->b1, n->b1, sizeof n->b1) == 0);
    ck_assert(memcmp(back->w1, n->w1, sizeof n->w1[0] * (size_t)n->inputs) == 0);
    ck_assert(memcmp(back->w2, n->w2, sizeof n->w2) == 0);
    ck_assert(memcmp(back->b2, n->b2, sizeof n->b2) == 0);
    /* And through a file, as EvalFile reads it. */
    const char *path = "/tmp/denham-test-net.nnue";
    FILE *f = fopen(path, "w");
    fwrite(text, 1, len, f);
    fclose(f);
    memset(back, 0, sizeof *back);
    ck_assert_msg(nnue_load(back, path, why, sizeof why), "%s", why);
    ck_assert(memcmp(back->w1, n->w1, sizeof n->w1[0] * (size_t)n->inputs) == 0);
    remove(path);
    free(back);
    free(text);
}
END_TEST

/* A tiny net's text with one change: `at` replaced by `with`. */
static bool parse_changed(const char *at, const char *with, char *why, size_t len)
{
    static const char good[] = "/* denham-nnue tiny */ 1, 2, 32, 2, 1,\n";
    char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text, "%s", good);
    for (int i = 0; i < 32 * (1 + 2 + 2); i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%d, ", i % 7 - 3);
    n += (size_t)snprintf(text + n, sizeof text - n, "5, -5,\n");
    char *p = at ? strstr(text, at) : NULL;
    if (p) {
        char changed[4096];
        snprintf(changed, sizeof changed, "%.*s%s%s", (int)(p - text), text, with, p + strlen(at));
        strcpy(text, changed);
    }
    nnue_t *net = malloc(sizeof *net);
    bool ok = nnue_parse(net, text, strlen(text), why, len);
    free(net);
    return ok;
}

START_TEST(bad_net_files_are_refused_with_a_reason)
{
    char why[300];
    ck_assert_msg(parse_changed(NULL, NULL, why, sizeof why), "%s", why);
    struct {
        const char *at, *with, *reason;
    } bad[] = {
        {"/* denham-nnue tiny */", "", "must start with the comment"},
        {"/* denham-nnue tiny */", "/* something else */", "must start with the comment"},
        {"/* denham-nnue tiny */", "/* denham-nnue tiny", "not closed"},
        {"1, 2, 32", "2, 2, 32", "format 1"},
        {"1, 2, 32", "1, 2, 16", "sizes"},
        {"1, 2, 32, 2, 1", "1, 2, 32, 2, 3", "sizes"},
        {"5, -5,", "5,", "numbers; its sizes need"},
        {"5, -5,", "5, -5, 1,", "numbers; its sizes need"},
        {"5, -5,", "5, 99999999999,", "32-bit"},
        {"5, -5,", "5, x,", "unexpected character 'x'"},
        {"1, 2, 32, 2, 1,\n-3", "1, 2, 32, 2, 1,\n16384", "first-layer weight (16384)"},
        {"5, -5,", "2000000000, -5,", "output bias"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = 0;
        ck_assert_msg(!parse_changed(bad[i].at, bad[i].with, why, sizeof why), "case %zu was read", i);
        ck_assert_msg(strstr(why, bad[i].reason), "case %zu: '%s', not '%s'", i, why, bad[i].reason);
    }
    nnue_t *net = malloc(sizeof *net);
    ck_assert(!nnue_load(net, "/nonexistent/denham.nnue", why, sizeof why));
    ck_assert(strstr(why, "cannot open"));
    free(net);
}
END_TEST

/* The net's value of pos for the side to move, computed here from its
 * numbers and the features, without nnue.c. */
static int reference_value(const game_t *g, const nnue_t *n, const position_t *pos)
{
    uint16_t f[GAME_NET_ACTIVE_MAX];
    int head, count = g->net->features(pos, 0, f, &head);
    long long out = n->b2[head];
    for (int j = 0; j < NNUE_HIDDEN; j++) {
        long long acc = n->b1[j];
        for (int i = 0; i < count; i++)
            acc += n->w1[f[i]][j];
        out += (acc < 0 ? 0 : acc > NNUE_QA ? NNUE_QA : acc) * n->w2[head][j];
    }
    long long cp = out * NNUE_CP / (NNUE_QA * NNUE_QB) + (g->net->base ? g->net->base(pos) : 0);
    return g->team_of[g->to_move(pos)] == 0 ? (int)cp : (int)-cp;
}

/* Random games with the net in use, in each game that has one: after
 * every make the cached layer equals a refreshed one and the value the
 * reference's; after every unmake the position is the one before, bit for
 * bit. */
static const char *const net_games[] = {"brandubh", "bolix"};

START_TEST(accumulator_follows_make_and_unmake)
{
    const game_t *g = net_game(net_games[_i]);
    const nnue_t *n = g->net->embedded;
    bool was = g->net->use;
    g->net->use = true;
    rng_t r = {0x5EED};
    int checked = 0;
    for (int game = 0; game < 200; game++) {
        position_t pos;
        g->set_start(&pos);
        g->refresh(&pos);
        for (int ply = 0; ply < 120; ply++) {
            move_t moves[MAX_MOVES];
            int count = g->gen_moves(&pos, moves);
            if (count == 0)
                break;
            move_t m = moves[rng_below(&r, (uint32_t)count)];
            position_t before = pos;
            undo_t u;
            g->make(&pos, m, &u);
            position_t fresh = pos;
            g->refresh(&fresh);
            ck_assert_msg(memcmp(&fresh, &pos, sizeof pos) == 0, "game %d ply %d: the cache differs", game, ply);
            outcome_t o;
            if (!g->decided(&pos, &o)) {
                ck_assert_int_eq(g->evaluate(&pos, NULL), reference_value(g, n, &pos));
                checked++;
            }
            g->unmake(&pos, m, &u);
            ck_assert_msg(memcmp(&before, &pos, sizeof pos) == 0, "game %d ply %d: unmake", game, ply);
            g->make(&pos, m, &u);
        }
    }
    ck_assert_int_gt(checked, 4000);
    /* A position never refreshed is evaluated afresh, to the same value. */
    position_t plain;
    g->set_start(&plain);
    ck_assert_int_eq(g->evaluate(&plain, NULL), reference_value(g, n, &plain));
    g->net->use = false;
    position_t off = plain;
    g->refresh(&off);
    ck_assert(memcmp(&off, &plain, sizeof off) == 0); /* no net: nothing cached */
    g->net->use = was;
}
END_TEST

/* Every symmetry of a position is the same position to the rules: the
 * trainer's augmented samples must hold the same pieces. */
START_TEST(symmetries_keep_every_piece)
{
    const game_t *g = brandubh();
    position_t pos;
    load_fen(g, &pos, "2a4/7/a2d1a1/2dk2a/1d1d3/3a3/3a3 d");
    uint16_t base[GAME_NET_ACTIVE_MAX];
    int head, n = g->net->features(&pos, 0, base, &head);
    ck_assert_int_eq(n, 6 + 4 + 1);
    ck_assert_int_eq(head, 1);
    for (int sym = 1; sym < g->net->symmetries; sym++) {
        uint16_t f[GAME_NET_ACTIVE_MAX];
        int h;
        ck_assert_int_eq(g->net->features(&pos, sym, f, &h), n);
        ck_assert_int_eq(h, head);
        int per_kind[3] = {0}, base_kind[3] = {0};
        bool same = true;
        for (int i = 0; i < n; i++) {
            per_kind[f[i] / 49]++;
            base_kind[base[i] / 49]++;
            same = same && f[i] == base[i];
        }
        ck_assert(memcmp(per_kind, base_kind, sizeof per_kind) == 0);
        ck_assert_msg(!same, "symmetry %d moved no piece", sym);
    }
}
END_TEST

/* A Bolix position with black marbles on the given cells (numbered
 * column by column, a1 = 0, as the game's text lists them). */
static void bolix_with(position_t *pos, const int *cells, int count)
{
    static const int len[10] = {6, 7, 8, 9, 10, 10, 9, 8, 7, 6};
    char fen[128], *w = fen;
    for (int q = 0, first = 0; q < 10; first += len[q++]) {
        int run = 0;
        for (int i = 0; i < len[q]; i++) {
            bool on = false;
            for (int k = 0; k < count; k++)
                on = on || cells[k] == first + i;
            if (on) {
                if (run)
                    w += sprintf(w, "%d", run);
                *w++ = 'b';
                run = 0;
            } else {
                run++;
            }
        }
        if (run)
            w += sprintf(w, "%d", run);
        *w++ = q < 9 ? '/' : ' ';
    }
    snprintf(w, sizeof fen - (size_t)(w - fen), "w %d 36 - 0", 36 - count);
    load_fen(variants_find("bolix"), pos, fen);
}

/* The features of pos under sym, sorted, as one comparable string. */
static const char *sorted_features(const game_t *g, const position_t *pos, int sym)
{
    static char text[GAME_NET_ACTIVE_MAX * 6];
    uint16_t f[GAME_NET_ACTIVE_MAX];
    int head, n = g->net->features(pos, sym, f, &head);
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && f[k - 1] > f[k]; k--) {
            uint16_t t = f[k];
            f[k] = f[k - 1];
            f[k - 1] = t;
        }
    char *w = text;
    for (int i = 0; i < n; i++)
        w += sprintf(w, "%d,", f[i]);
    *w = 0;
    return text;
}

/* Bolix's symmetries are the board's: under each, a lone marble's windows
 * are those of a lone marble on exactly one cell, that cell map is a
 * permutation (moving some cell unless it is the identity), and two or
 * three marbles' windows, counts included, are those of their images. */
START_TEST(bolix_symmetries_map_cells_to_cells)
{
    const game_t *g = net_game("bolix");
    ck_assert_int_eq(g->net->symmetries, 4);
    char alone[80][GAME_NET_ACTIVE_MAX * 6];
    for (int c = 0; c < 80; c++) {
        position_t pos;
        bolix_with(&pos, &c, 1);
        snprintf(alone[c], sizeof alone[c], "%s", sorted_features(g, &pos, 0));
    }
    rng_t r = {99};
    for (int sym = 0; sym < g->net->symmetries; sym++) {
        int image[80];
        bool seen[80] = {false}, moves = false;
        for (int c = 0; c < 80; c++) {
            position_t pos;
            bolix_with(&pos, &c, 1);
            const char *f = sorted_features(g, &pos, sym);
            image[c] = -1;
            for (int d = 0; d < 80; d++)
                if (strcmp(f, alone[d]) == 0) {
                    ck_assert_msg(image[c] < 0, "symmetry %d: cell %d has two images", sym, c);
                    image[c] = d;
                }
            ck_assert_msg(image[c] >= 0, "symmetry %d: cell %d has no image", sym, c);
            ck_assert_msg(!seen[image[c]], "symmetry %d: two cells onto %d", sym, image[c]);
            seen[image[c]] = true;
            moves = moves || image[c] != c;
        }
        ck_assert_msg(moves == (sym != 0), "symmetry %d", sym);
        for (int t = 0; t < 300; t++) {
            int cells[3], to[3], k = 2 + t % 2;
            for (int i = 0; i < k; i++) {
                cells[i] = (int)rng_below(&r, 80);
                to[i] = image[cells[i]];
            }
            position_t pos, mapped;
            bolix_with(&pos, cells, k);
            bolix_with(&mapped, to, k);
            char want[GAME_NET_ACTIVE_MAX * 6];
            snprintf(want, sizeof want, "%s", sorted_features(g, &mapped, 0));
            ck_assert_str_eq(sorted_features(g, &pos, sym), want);
        }
    }
}
END_TEST

/* Data made by a known net-like function plus a base: training brings the
 * held-out loss far below its start, and quantizing costs little. */
START_TEST(training_finds_a_known_function)
{
    enum { INPUTS = 24, ACTIVE = 4 };
    nnue_data_t d;
    nnue_data_init(&d, INPUTS, ACTIVE, 1);
    rng_t r = {42};
    double value[INPUTS];
    for (int i = 0; i < INPUTS; i++)
        value[i] = (double)((int)rng_below(&r, 9) - 4) / 4.0;
    for (int s = 0; s < 20000; s++) {
        uint16_t f[ACTIVE];
        double sum = 0;
        for (int k = 0; k < ACTIVE; k++) {
            f[k] = (uint16_t)(k * (INPUTS / ACTIVE) + (int)rng_below(&r, INPUTS / ACTIVE));
            sum += value[f[k]];
        }
        int head = (int)rng_below(&r, 2);
        sum += head ? 0.25 : -0.25;
        /* A base the net does not see, which the prediction adds. */
        int base = (int)rng_below(&r, 401) - 200;
        sum += (double)base / NNUE_CP;
        ck_assert(nnue_data_add(&d, f, ACTIVE, head, 1 / (1 + pow(10, -sum)), base));
    }
    nnue_train_opts_t o = {.epochs = 30, .rate = 0.003, .batch = 256, .holdout = 0.1, .seed = 7};
    nnue_t *net = malloc(sizeof *net);
    nnue_train_result_t res;
    ck_assert(nnue_train(&d, &o, "known", net, &res));
    ck_assert_int_eq(res.test_n, 2000);
    ck_assert_msg(res.test_loss < res.first_test_loss / 20, "%f -> %f", res.first_test_loss, res.test_loss);
    ck_assert_msg(res.quantized_test_loss < res.test_loss + 0.001, "%f, quantized %f", res.test_loss,
                  res.quantized_test_loss);
    ck_assert_str_eq(net->game, "known");
    /* Out-of-range samples are refused. */
    uint16_t badf[ACTIVE] = {0, 1, 2, INPUTS};
    ck_assert(!nnue_data_add(&d, badf, ACTIVE, 0, 0.5, 0));
    ck_assert(!nnue_data_add(&d, badf, 3, 2, 0.5, 0));
    ck_assert(!nnue_data_add(&d, badf, 3, 0, 1.5, 0));
    ck_assert(!nnue_data_add(&d, badf, 3, 0, 0.5, NNUE_BASE_MAX + 1));
    free(net);
    nnue_data_free(&d);
}
END_TEST

static int tune_quiet(char **argv, int argc, char **err_text)
{
    size_t len;
    FILE *err = open_memstream(err_text, &len);
    FILE *out = fopen("/dev/null", "w");
    int status = tune_main(argc, argv, out, err);
    fclose(out);
    fclose(err);
    return status;
}

START_TEST(tune_trains_a_net_from_datagen)
{
    const char *data = "/tmp/denham-test-net-data.txt", *path = "/tmp/denham-test-trained.nnue";
    char *dg[] = {"--variant", "brandubh", "--games", "40", "--depth", "2", "--out", (char *)data};
    FILE *null = fopen("/dev/null", "w");
    ck_assert_int_eq(datagen_main(8, dg, null), 0);
    fclose(null);
    char *err_text;
    char *argv[] = {"--variant", "brandubh", "--network", (char *)path, "--epochs", "3", (char *)data};
    ck_assert_int_eq(tune_quiet(argv, 7, &err_text), 0);
    double before, after, quantized;
    const char *line = strstr(err_text, "held-out loss ");
    ck_assert_msg(line && sscanf(line, "held-out loss %lf -> %lf (%lf quantized)", &before, &after, &quantized) == 3,
                  "%s", err_text);
    ck_assert_msg(after < before, "%s", err_text);
    ck_assert(strstr(err_text, "tune: epoch 3, loss "));
    free(err_text);
    nnue_t *net = malloc(sizeof *net);
    char why[200];
    ck_assert_msg(nnue_load(net, path, why, sizeof why), "%s", why);
    ck_assert_str_eq(net->game, "brandubh");
    ck_assert_int_eq(net->inputs, 147);
    free(net);
    const char *head = shell("head -c 60 /tmp/denham-test-trained.nnue");
    ck_assert_msg(strstr(head, "/* denham-nnue brandubh trained by denham tune: "), "%s", head);
    /* A game without a net. */
    char *brax[] = {"--variant", "brax", "--network", (char *)path, (char *)data};
    ck_assert_int_eq(tune_quiet(brax, 5, &err_text), 2);
    ck_assert_msg(strstr(err_text, "has no network to train"), "%s", err_text);
    free(err_text);
    remove(data);
    remove(path);
}
END_TEST

/* The options as a GUI sends them; each transcript ends with the nets
 * as they were. */
START_TEST(use_network_and_eval_file_options)
{
    brandubh();
    const game_t *g = variants_find("brandubh");
    bool by_default = g->net->by_default;
    ck_assert(g->net->use == by_default);
    const char *out = transcript("uci\n");
    ck_assert(strstr(out, "option name UseNetwork type combo default auto var auto var true var false\n"));
    ck_assert(strstr(out, "option name EvalFile type string default <embedded>\n"));
    /* A net file written from the embedded one, with its first output
     * bias changed so that its evaluation is another. */
    nnue_t *copy = malloc(sizeof *copy);
    *copy = *g->net->embedded;
    copy->b2[0] += 100 * NNUE_QA * NNUE_QB / NNUE_CP;
    const char *path = "/tmp/denham-test-evalfile.nnue";
    FILE *f = fopen(path, "w");
    nnue_write(copy, f, "shifted");
    fclose(f);
    free(copy);
    char in[1024];
    snprintf(in, sizeof in,
             "setoption name UCI_Variant value brandubh\nsetoption name UseNetwork value false\n"
             "position startpos\neval\n"
             "setoption name UseNetwork value true\neval\n"
             "setoption name EvalFile value %s\neval\n"
             "setoption name EvalFile value /nonexistent.nnue\neval\n"
             "setoption name EvalFile value <embedded>\neval\n"
             "setoption name UseNetwork value maybe\n"
             "setoption name UseNetwork value false\neval\n",
             path);
    out = transcript(in);
    int evals[6], k = 0;
    for (const char *p = out; k < 6 && (p = strstr(p, "Evaluation (side to move, attackers): ")); p++)
        ck_assert_int_eq(sscanf(p, "Evaluation (side to move, attackers): %d", &evals[k++]), 1);
    ck_assert_int_eq(k, 6);
    ck_assert_int_eq(evals[4], evals[1]); /* the embedded net again */
    ck_assert_int_eq(evals[5], evals[0]); /* off: the hand-written evaluation */
    ck_assert(strstr(out, "The network evaluates (UseNetwork): the weights are not used."));
    /* The file's net (100 more, give or take the rounding toward zero),
     * then the same after a refused file. */
    ck_assert_msg(abs(evals[2] - evals[1] - 100) <= 1, "%d then %d", evals[1], evals[2]);
    ck_assert_int_eq(evals[3], evals[2]);
    ck_assert(strstr(out, "info string error: EvalFile: cannot open the net file /nonexistent.nnue; the nets in use stay"));
    ck_assert(strstr(out, "info string error: UseNetwork must be auto, true or false\n"));
    /* A search by the net (a search refuses options: its own transcript). */
    out = transcript("setoption name UCI_Variant value brandubh\nsetoption name UseNetwork value true\n"
                     "position startpos\ngo depth 4\n");
    ck_assert_msg(strstr(out, "\nbestmove ") && !strstr(out, "error"), "%s", out);
    nets_default();
    ck_assert(g->net->use == by_default);
    ck_assert_ptr_null(g->net->loaded);
    /* Bolix: `auto` is its own choice (by_default), `true` its net, which
     * adds to the hand-written evaluation (the weights still count). */
    const game_t *bolix = net_game("bolix");
    out = transcript("setoption name UCI_Variant value bolix\nposition startpos moves e5 f6 e6\n"
                     "setoption name UseNetwork value false\neval\n"
                     "setoption name UseNetwork value true\neval\n"
                     "setoption name UseNetwork value AUTO\neval\n");
    int bv[3];
    k = 0;
    for (const char *p = out; k < 3 && (p = strstr(p, "Evaluation (side to move, white): ")); p++)
        ck_assert_int_eq(sscanf(p, "Evaluation (side to move, white): %d", &bv[k++]), 1);
    ck_assert_msg(k == 3, "%s", out);
    ck_assert_int_eq(bv[2], bolix->net->by_default ? bv[1] : bv[0]);
    ck_assert_int_ne(bv[1], bv[0]);
    ck_assert(strstr(out, "\nnetwork "));
    ck_assert(!strstr(out, "the weights are not used"));
    ck_assert(bolix->net->use == bolix->net->by_default && g->net->use == by_default);
    /* A net of no game with one. */
    f = fopen(path, "w");
    fputs("/* denham-nnue chess */ 1, 1, 32, 2, 1,", f);
    for (int i = 0; i < 32 * 4 + 2; i++)
        fputs(" 0,", f);
    fclose(f);
    snprintf(in, sizeof in, "setoption name EvalFile value %s\n", path);
    out = transcript(in);
    ck_assert_msg(strstr(out, "info string error: EvalFile: the net file is for 'chess', which is no game with a "
                              "network; the nets in use stay"),
                  "%s", out);
    remove(path);
}
END_TEST

Suite *suite_nnue(void)
{
    Suite *s = suite_create("nnue");
    TCase *tc = tcase_create("nnue");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, net_text_round_trips);
    tcase_add_test(tc, bad_net_files_are_refused_with_a_reason);
    tcase_add_loop_test(tc, accumulator_follows_make_and_unmake, 0, 2);
    tcase_add_test(tc, symmetries_keep_every_piece);
    tcase_add_test(tc, bolix_symmetries_map_cells_to_cells);
    tcase_add_test(tc, training_finds_a_known_function);
    tcase_add_test(tc, tune_trains_a_net_from_datagen);
    tcase_add_test(tc, use_network_and_eval_file_options);
    suite_add_tcase(s, tc);
    return s;
}
