/*
 * tune.c: `denham tune`: reads `denham datagen` files (PROTOCOL.md,
 * "Training data"), traces each position's evaluation into coefficients,
 * fits the scaling constant on the game's current weights, then every
 * weight (engine/learn/texel.c), and prints the table as C source with the
 * loss before and after. With --network it trains the game's net instead
 * (engine/learn/nnue_train.c) and writes its file. Reaches games through
 * game_t and the registry: no game's internals; changes no weight of the
 * running engine.
 */
#define _POSIX_C_SOURCE 200809L
#include "tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/core/number.h"
#include "../../engine/games/variants.h"
#include "../../engine/learn/nnue_train.h"
#include "../../engine/learn/texel.h"
#include "usage.h"

#define TUNE_LINE_MAX (GAME_FEN_MAX + 256)
/* With an anchor: rounds of fitting K, then the weights. */
#define TUNE_ROUNDS 10
/* --network: samples per optimiser step, and the share held out to
 * measure the net on positions it did not learn from. */
#define NET_BATCH 1024
#define NET_HOLDOUT 0.05
#define NET_RATE 0.001

typedef struct tune_cfg {
    const game_t *game;
    long long threads, iterations;
    double rate;
    bool frozen[EVAL_WEIGHTS_MAX]; /* --freeze: the weights left as they are */
    bool anchored;                 /* any of them */
    const char *network;           /* --network: train the net, write it here */
    long long epochs, seed;
    double result_weight;          /* the game result's share of a net's target */
    bool rate_given;
    char **files; /* the FILE arguments in their order (malloc'd; argv is left as it is) */
    int n_files;
} tune_cfg_t;

static int usage(FILE *err, const char *why)
{
    fprintf(err, "denham tune: %s\n", why);
    return usage_print(err, "tune", 2);
}

/* A refused option and its value, named. */
static int refuse(FILE *err, const char *option, const char *value, const char *why)
{
    char what[300];
    snprintf(what, sizeof what, "'%.60s %.60s': %s", option, value, why);
    return usage(err, what);
}

/* The weight called name[0..len) in c's game, or -1. */
static int weight_named(const tune_cfg_t *c, const char *name, size_t len)
{
    for (int k = 0; k < c->game->weights->count; k++)
        if (strlen(c->game->weights->w[k].name) == len && strncmp(c->game->weights->w[k].name, name, len) == 0)
            return k;
    return -1;
}

/* Freezes what one --freeze value names: a whole weight name first (some
 * hold a comma: "route, defenders to move"), else a list split at commas.
 * False when a name is not the game's. */
static bool freeze_names(tune_cfg_t *c, const char *v)
{
    int k = weight_named(c, v, strlen(v));
    if (k >= 0) {
        c->frozen[k] = c->anchored = true;
        return true;
    }
    for (const char *f = v; *f;) {
        size_t len = strcspn(f, ",");
        if ((k = weight_named(c, f, len)) < 0)
            return false;
        c->frozen[k] = c->anchored = true;
        f += len + (f[len] == ',');
    }
    return true;
}

static int parse_args(int argc, char **argv, tune_cfg_t *c, FILE *err)
{
    *c = (tune_cfg_t){.threads = 1, .iterations = 2000, .rate = 1.0, .epochs = 20, .seed = 1, .result_weight = 0.5};
    const char *freeze[EVAL_WEIGHTS_MAX]; /* read once the variant is known */
    int n_freeze = 0;
    /* Options and files in any order; after `--` every argument is a file. */
    c->files = malloc((size_t)(argc > 0 ? argc : 1) * sizeof *c->files);
    if (!c->files)
        return usage(err, "out of memory");
    bool options = true;
    for (int i = 0; i < argc; i++) {
        if (!options || strncmp(argv[i], "--", 2) != 0) {
            c->files[c->n_files++] = argv[i];
            continue;
        }
        if (strcmp(argv[i], "--") == 0) {
            options = false;
            continue;
        }
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long long x;
        char *end;
        if (!v) {
            char what[120];
            snprintf(what, sizeof what, "'%.60s': takes a value", a);
            return usage(err, what);
        }
        if (strcmp(a, "--variant") == 0) {
            if (!(c->game = variants_find(v)))
                return refuse(err, a, v, "unknown variant");
        } else if (strcmp(a, "--threads") == 0 && number_parse(v, 1, 64, &x)) {
            c->threads = x;
        } else if (strcmp(a, "--iterations") == 0 && number_parse(v, 0, 1000000, &x)) {
            c->iterations = x;
        } else if (strcmp(a, "--freeze") == 0 && n_freeze < EVAL_WEIGHTS_MAX) {
            freeze[n_freeze++] = v;
        } else if (strcmp(a, "--rate") == 0 && (c->rate = strtod(v, &end), *end == 0) && c->rate > 0 &&
                   c->rate <= 1000) {
            c->rate_given = true;
        } else if (strcmp(a, "--network") == 0 && *v) {
            c->network = v;
        } else if (strcmp(a, "--epochs") == 0 && number_parse(v, 0, 10000, &x)) {
            c->epochs = x;
        } else if (strcmp(a, "--seed") == 0 && number_parse(v, 0, INT64_MAX, &x)) {
            c->seed = x;
        } else if (strcmp(a, "--result-weight") == 0 && (c->result_weight = strtod(v, &end), *end == 0) &&
                   c->result_weight >= 0 && c->result_weight <= 1) {
        } else {
            return refuse(err, a, v, "unknown option, or a value out of its range (below)");
        }
        i++;
    }
    if (!c->game)
        return usage(err, "--variant is needed");
    if (c->network && !c->game->net)
        return usage(err, "this game has no network to train (brandubh and bolix have)");
    if (!c->network && !c->game->weights)
        return usage(err, "this game's evaluation has no weights to tune");
    if (c->n_files == 0)
        return usage(err, "no data file");
    for (int n = 0; n < n_freeze; n++)
        if (!freeze_names(c, freeze[n]))
            return usage(err, "--freeze names a weight the game does not have (eval lists them)");
    return -1;
}

/* The results field: one value in [0, 1] per side. */
static bool parse_results(const char *s, int sides, double *out)
{
    for (int k = 0; k < sides; k++) {
        char *end;
        while (*s == ' ')
            s++;
        out[k] = strtod(s, &end);
        if (end == s || !(out[k] >= 0 && out[k] <= 1))
            return false;
        s = end;
    }
    while (*s == ' ')
        s++;
    return *s == 0;
}

/* One data line: the position, its results (one per side of `sides`) and
 * the score for the side to move. 1: a sample; 0: a finished game, nothing
 * to learn; -1: not a data line, with the reason in why. */
static int parse_line(const game_t *g, char *line, int sides, position_t *pos, double *results, long *score,
                      char *why, size_t len)
{
    char *bar1 = strchr(line, '|'), *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
    if (!bar2) {
        snprintf(why, len, "expected <position> | <results> | <score>");
        return false;
    }
    *bar1 = *bar2 = 0;
    char *fen = line;
    while (*fen == ' ')
        fen++;
    for (char *e = bar1; e > fen && e[-1] == ' ';)
        *--e = 0;
    char err[160];
    if (!g->parse_fen(pos, fen, err, sizeof err)) {
        snprintf(why, len, "bad position: %s", err);
        return -1;
    }
    if (!parse_results(bar1 + 1, sides, results)) {
        snprintf(why, len, "expected %d results from 0 to 1", sides);
        return -1;
    }
    char *end;
    *score = strtol(bar2 + 1, &end, 10);
    while (*end == ' ')
        end++;
    if (end == bar2 + 1 || *end) {
        snprintf(why, len, "expected a whole score after the second '|'");
        return -1;
    }
    outcome_t o;
    return g->decided(pos, &o) ? 0 : 1;
}

/* What a data line adds: a traced sample for the weights, or a net's. */
typedef struct tune_sink {
    const game_t *g;
    texel_data_t *texel;
    nnue_data_t *net;
    double result_weight;
} tune_sink_t;

/* A sample of the net: its features in every symmetry, the head, and the
 * target for head 0's side (team 0): the result blended with the score. */
static bool add_net_sample(const tune_sink_t *k, const position_t *pos, const double *results, long score)
{
    const game_net_t *gn = k->g->net;
    uint16_t feat[NNUE_SYMMETRIES_MAX * GAME_NET_ACTIVE_MAX];
    int head = 0, active = 0;
    for (int sym = 0; sym < gn->symmetries; sym++) {
        int n = gn->features(pos, sym, feat + sym * active, &head);
        if (sym > 0 && n != active)
            return false;
        active = n;
    }
    double mover = 1.0 / (1.0 + pow(10.0, -(double)score / NNUE_CP));
    double from_score = game_team_to_move(k->g, pos) == 0 ? mover : 1 - mover;
    double target = k->result_weight * results[0] + (1 - k->result_weight) * from_score;
    return nnue_data_add(k->net, feat, active, head, target, gn->base ? gn->base(pos) : 0);
}

/* One data line into the sink; false with the reason in why. */
static bool add_line(const tune_sink_t *k, char *line, char *why, size_t len)
{
    const game_t *g = k->g;
    bool ffa = game_teams(g) > 2;
    position_t pos;
    double results[MAX_PLAYERS];
    long score;
    int got = parse_line(g, line, k->texel ? k->texel->sides : 2, &pos, results, &score, why, len);
    if (got <= 0)
        return got == 0;
    if (k->net) {
        if (!add_net_sample(k, &pos, results, score)) {
            snprintf(why, len, "out of memory");
            return false;
        }
        return true;
    }
    texel_data_t *d = k->texel;
    eval_trace_t t;
    memset(&t, 0, sizeof t);
    g->evaluate(&pos, &t);
    int mover = g->to_move(&pos), stm = ffa ? mover : g->team_of[mover];
    unsigned in = ffa ? game_players_in(g, &pos) : 3u;
    if (!texel_data_add(d, &t, stm, in, results[stm])) {
        snprintf(why, len, "out of memory");
        return false;
    }
    return true;
}

static bool read_file(const tune_sink_t *k, const char *path, FILE *err)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(err, "denham tune: cannot open %s\n", path);
        return false;
    }
    char line[TUNE_LINE_MAX + 2], why[200];
    bool ok = true;
    for (long no = 1; ok && fgets(line, sizeof line, f); no++) {
        size_t n = strcspn(line, "\r\n");
        if (line[n] == 0 && !feof(f)) {
            fprintf(err, "denham tune: %s:%ld: longer than %d characters\n", path, no, TUNE_LINE_MAX);
            ok = false;
        } else if ((line[n] = 0, line[0] != 0 && line[0] != '#') && !add_line(k, line, why, sizeof why)) {
            fprintf(err, "denham tune: %s:%ld: %s\n", path, no, why);
            ok = false;
        }
    }
    fclose(f);
    return ok;
}

static void print_table(FILE *out, const tune_cfg_t *c, size_t n, double k0, double k, double before, double after,
                        const long *tuned)
{
    const eval_weights_t *ws = c->game->weights;
    fprintf(out, "/* denham tune: %s, %zu positions from", c->game->name, n);
    for (int i = 0; i < c->n_files; i++)
        fprintf(out, " %s", c->files[i]);
    fprintf(out, "; K %.4f", k0);
    if (k != k0)
        fprintf(out, " -> %.4f", k);
    fprintf(out, ", loss %.6f -> %.6f. In the order of the game's\n", before, after);
    fprintf(out, " * weight table (its W_ names), to replace its values. */\n");
    for (int j = 0; j < ws->count; j++)
        fprintf(out, "    {\"%s\", %ld}, /* was %d */\n", ws->w[j].name, tuned[j], ws->w[j].value);
}

static int tune_run(const tune_cfg_t *cfg, FILE *out, FILE *err);
static int train_net(const tune_cfg_t *c, FILE *err);

int tune_main(int argc, char **argv, FILE *out, FILE *err)
{
    tune_cfg_t c;
    int status = parse_args(argc, argv, &c, err);
    if (status < 0)
        status = c.network ? train_net(&c, err) : tune_run(&c, out, err);
    free(c.files);
    return status;
}

/* The fit itself, once the arguments are read. */
static int tune_run(const tune_cfg_t *cfg, FILE *out, FILE *err)
{
    tune_cfg_t c = *cfg;
    const eval_weights_t *ws = c.game->weights;
    bool ffa = game_teams(c.game) > 2;
    texel_data_t d;
    texel_data_init(&d, ws->count, ffa ? c.game->players : 2);
    game_prepare(c.game); /* the evaluation uses the solved endings only once built */
    /* The weights are the hand-written evaluation's: it traces them. */
    bool net_was = c.game->net && c.game->net->use;
    if (c.game->net)
        c.game->net->use = false;
    tune_sink_t sink = {.g = c.game, .texel = &d};
    bool read = true;
    for (int i = 0; i < c.n_files && read; i++)
        read = read_file(&sink, c.files[i], err);
    if (c.game->net)
        c.game->net->use = net_was;
    if (!read) {
        texel_data_free(&d);
        return 2;
    }
    if (d.n == 0) {
        texel_data_free(&d);
        fprintf(err, "denham tune: no position to learn from\n");
        return 2;
    }
    double w[EVAL_WEIGHTS_MAX];
    for (int j = 0; j < ws->count; j++)
        w[j] = ws->w[j].value;
    double k = texel_fit_k(&d, w, (int)c.threads), k0 = k, before = texel_loss(&d, w, k, (int)c.threads);
    fprintf(err, "tune: %zu positions, K %.4f, loss %.6f\n", d.n, k, before);
    texel_options_t o = {.rate = c.rate, .threads = (int)c.threads, .frozen = c.frozen};
    /* A frozen weight anchors the scale: K is then fitted again between
     * rounds, so that the weights need not grow to make up for a K fitted
     * on weights that predicted poorly. Without an anchor, K stays: K and
     * the weights' scale cannot both be fitted. */
    int rounds = c.anchored ? TUNE_ROUNDS : 1;
    o.iterations = (int)(c.iterations / rounds);
    for (int r = 0; r < rounds; r++) {
        if (r > 0)
            k = texel_fit_k(&d, w, (int)c.threads);
        texel_tune(&d, w, k, &o);
    }
    long tuned[EVAL_WEIGHTS_MAX];
    for (int j = 0; j < ws->count; j++) {
        tuned[j] = lround(w[j]);
        w[j] = (double)tuned[j];
    }
    double after = texel_loss(&d, w, k, (int)c.threads);
    fprintf(err, "tune: K %.4f -> %.4f, loss %.6f -> %.6f\n", k0, k, before, after);
    print_table(out, &c, d.n, k0, k, before, after, tuned);
    texel_data_free(&d);
    return 0;
}

static void net_progress(void *ctx, int epoch, double train_loss, double test_loss)
{
    fprintf((FILE *)ctx, "tune: epoch %d, loss %.6f, held out %.6f\n", epoch, train_loss, test_loss);
}

/* --network: reads the samples, trains the net from scratch and writes its
 * file, with how it was made in its header. */
static int train_net(const tune_cfg_t *c, FILE *err)
{
    const game_net_t *gn = c->game->net;
    nnue_data_t d;
    nnue_data_init(&d, gn->inputs, gn->max_active, gn->symmetries);
    tune_sink_t sink = {.g = c->game, .net = &d, .result_weight = c->result_weight};
    for (int i = 0; i < c->n_files; i++)
        if (!read_file(&sink, c->files[i], err)) {
            nnue_data_free(&d);
            return 2;
        }
    if (d.n < 2) {
        nnue_data_free(&d);
        fprintf(err, "denham tune: fewer than two positions to learn from\n");
        return 2;
    }
    nnue_train_opts_t o = {.epochs = (int)c->epochs, .rate = c->rate_given ? c->rate : NET_RATE,
                           .batch = NET_BATCH, .holdout = NET_HOLDOUT, .seed = (uint64_t)c->seed,
                           .progress = net_progress, .ctx = err};
    nnue_t *net = malloc(sizeof *net);
    nnue_train_result_t r = {0};
    bool ok = net && nnue_train(&d, &o, gn->name, net, &r);
    nnue_data_free(&d);
    if (!ok) {
        free(net);
        fprintf(err, "denham tune: out of memory\n");
        return 2;
    }
    fprintf(err, "tune: %zu positions trained on, %zu held out; held-out loss %.6f -> %.6f (%.6f quantized)\n",
            r.train_n, r.test_n, r.first_test_loss, r.test_loss, r.quantized_test_loss);
    FILE *f = fopen(c->network, "w");
    if (!f) {
        free(net);
        fprintf(err, "denham tune: cannot write %s\n", c->network);
        return 2;
    }
    char how[256];
    snprintf(how, sizeof how, "trained by denham tune: %zu positions, %lld epochs, rate %g, result weight %g, seed %lld;"
             " held-out loss %.6f", r.train_n, c->epochs, o.rate, c->result_weight, c->seed, r.quantized_test_loss);
    nnue_write(net, f, how);
    bool written = fclose(f) == 0;
    free(net);
    if (!written) {
        fprintf(err, "denham tune: cannot write %s\n", c->network);
        return 2;
    }
    return 0;
}
