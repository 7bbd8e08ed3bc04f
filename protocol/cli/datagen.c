/*
 * datagen.c: `denham datagen`: self-play games, each from a random opening
 * (after a book line where a book is given), searched to a fixed number of
 * nodes or depth; every quiet position searched is written with the game's
 * result and the search's score. Reaches games through game_t and the
 * registry, the search through search.h: no game's internals.
 *
 * Deterministic for a seed whatever the threads: game i's opening and dice
 * come from (seed, i), each game starts on a cleared table, and the games
 * are written in their order.
 */
#define _POSIX_C_SOURCE 200809L
#include "datagen.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/core/number.h"
#include "../../engine/core/record.h"
#include "../../engine/core/rng.h"
#include "../../engine/core/textbuf.h"
#include "../../engine/core/thread.h"
#include "../../engine/games/variants.h"
#include "../../engine/search/search.h"
#include "usage.h"

#define DATAGEN_HASH_MB 16
#define DATAGEN_THREADS_MAX 256
#define BOOK_LINE_MAX 4096

typedef struct datagen_cfg {
    const game_t *game;
    long long games, nodes, depth, threads, random_plies, max_plies, shard_k, shard_n;
    uint64_t seed;
    const char *out_path, *book_path;
} datagen_cfg_t;

/* One game's lines, kept until the games before it are written. */
typedef struct game_text {
    textbuf_t text;
    int positions;
    bool done;
} game_text_t;

typedef struct datagen {
    datagen_cfg_t cfg;
    char (*book)[BOOK_LINE_MAX];
    int book_lines;
    long long *indices; /* the games of this shard, by their number in the whole run */
    long long n_games;
    atomic_llong next;   /* the next of indices to play */
    thr_mutex_t lock; /* the fields below */
    game_text_t *texts;
    long long written;   /* games written, in order */
    long long positions; /* positions written */
    bool failed;         /* out of memory or a write failed */
    FILE *out, *err;
    int64_t start_ms, reported_ms;
} datagen_t;

static int usage(FILE *err, const char *why)
{
    fprintf(err, "denham datagen: %s\n", why);
    return usage_print(err, "datagen", 2);
}

/* A refused option and its value, named. */
static int refuse(FILE *err, const char *option, const char *value, const char *why)
{
    char what[300];
    snprintf(what, sizeof what, "'%.60s %.60s': %s", option, value, why);
    return usage(err, what);
}

static int parse_args(int argc, char **argv, datagen_cfg_t *c, FILE *err)
{
    *c = (datagen_cfg_t){.threads = 1, .seed = 1, .random_plies = 8, .max_plies = 400, .shard_k = 1, .shard_n = 1};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long long x;
        if (!v) {
            char what[120];
            snprintf(what, sizeof what, "'%.60s': %s", a, strncmp(a, "--", 2) == 0 ? "takes a value" : "unknown argument");
            return usage(err, what);
        }
        i++;
        if (strcmp(a, "--variant") == 0) {
            if (!(c->game = variants_find(v)))
                return refuse(err, a, v, "unknown variant");
        } else if (strcmp(a, "--games") == 0 && number_parse(v, 1, 100000000, &x)) {
            c->games = x;
        } else if (strcmp(a, "--nodes") == 0 && number_parse(v, 1, 1LL << 40, &x)) {
            c->nodes = x;
        } else if (strcmp(a, "--depth") == 0 && number_parse(v, 1, MAX_PLY - 1, &x)) {
            c->depth = x;
        } else if (strcmp(a, "--threads") == 0 && number_parse(v, 1, DATAGEN_THREADS_MAX, &x)) {
            c->threads = x;
        } else if (strcmp(a, "--seed") == 0 && number_parse(v, 0, INT64_MAX, &x)) {
            c->seed = (uint64_t)x;
        } else if (strcmp(a, "--random-plies") == 0 && number_parse(v, 0, 100, &x)) {
            c->random_plies = x;
        } else if (strcmp(a, "--max-plies") == 0 && number_parse(v, 1, 100000, &x)) {
            c->max_plies = x;
        } else if (strcmp(a, "--shard") == 0) {
            if (!number_parse_shard(v, 1 << 20, &c->shard_k, &c->shard_n))
                return refuse(err, a, v, "takes K/N with 1 <= K <= N");
        } else if (strcmp(a, "--out") == 0) {
            c->out_path = v;
        } else if (strcmp(a, "--book") == 0) {
            c->book_path = v;
        } else {
            return refuse(err, a, v, "unknown option, or a value out of its range (below)");
        }
    }
    if (!c->game || !c->games || !c->out_path)
        return usage(err, "--variant, --games and --out are needed");
    if ((c->nodes > 0) == (c->depth > 0))
        return usage(err, "give one of --nodes and --depth");
    return -1;
}

/* The book: one `position` argument per line ("startpos [moves ...]" or
 * "fen <fen> [moves ...]"), each checked; '#' lines and blank ones skipped. */
static bool read_book(datagen_t *d)
{
    FILE *f = fopen(d->cfg.book_path, "r");
    if (!f) {
        fprintf(d->err, "denham datagen: cannot open the book %s\n", d->cfg.book_path);
        return false;
    }
    char line[BOOK_LINE_MAX], err[160];
    record_t r = {0};
    bool ok = true;
    for (int no = 1; ok && fgets(line, sizeof line, f); no++) {
        size_t n = strcspn(line, "\r\n");
        if (line[n] == 0 && !feof(f)) {
            fprintf(d->err, "denham datagen: book line %d is longer than %d characters\n", no, BOOK_LINE_MAX - 1);
            ok = false;
            break;
        }
        line[n] = 0;
        if (line[0] == 0 || line[0] == '#')
            continue;
        if (!record_setup(&r, d->cfg.game, line, err, sizeof err)) {
            fprintf(d->err, "denham datagen: book line %d: %s\n", no, err);
            ok = false;
            break;
        }
        void *grown = realloc(d->book, (size_t)(d->book_lines + 1) * sizeof *d->book);
        if (!grown) {
            ok = false;
            break;
        }
        d->book = grown;
        memcpy(d->book[d->book_lines++], line, n + 1);
    }
    record_free(&r);
    fclose(f);
    if (ok && d->book_lines == 0) {
        fprintf(d->err, "denham datagen: the book %s has no line\n", d->cfg.book_path);
        ok = false;
    }
    return ok;
}

/* The result for each team (free-for-all games: each player): 1, 0.5 or 0. */
static void result_text(const game_t *g, outcome_t o, char *buf, size_t len)
{
    bool ffa = game_teams(g) > 2;
    int sides = ffa ? g->players : 2;
    size_t n = 0;
    buf[0] = 0;
    for (int k = 0; k < sides; k++) {
        bool in = false;
        for (int p = 0; p < g->players; p++)
            if ((ffa ? p == k : g->team_of[p] == k) && (o.players & player_bit(p)))
                in = true;
        const char *r = o.kind == OUTCOME_WIN ? (in ? "1" : "0") : o.kind == OUTCOME_DRAW && in ? "0.5" : "0";
        n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", k ? " " : "", r);
    }
}

/* Sets up game `index`: the book line (if any), then random plies (and
 * rolls) from rng; false when the opening ended the game or memory ran short. */
static bool play_opening(datagen_t *d, record_t *r, long long index, rng_t *rng)
{
    const game_t *g = d->cfg.game;
    char err[160];
    if (d->book_lines) {
        if (!record_setup(r, g, d->book[index % d->book_lines], err, sizeof err))
            return false;
    } else {
        position_t start;
        g->set_start(&start);
        if (!record_init(r, g, &start))
            return false;
    }
    for (int ply = 0; ply < d->cfg.random_plies;) {
        move_t moves[MAX_MOVES];
        int n = record_legal_moves(r, moves);
        if (n == 0)
            return false;
        bool roll = game_at_chance(g, &r->pos);
        if (!record_play(r, roll ? game_roll(g, &r->pos, rng) : moves[rng_below(rng, (uint32_t)n)]))
            return false;
        ply += !roll;
    }
    return record_legal_moves(r, (move_t[MAX_MOVES]){0}) > 0;
}

/* The quiet positions of a game, with their scores, until its result is known. */
typedef struct kept {
    char (*fen)[GAME_FEN_MAX];
    int *score;
    int n, cap;
} kept_t;

static bool keep(kept_t *k, const char *fen, int score)
{
    if (k->n == k->cap) {
        int cap = k->cap ? 2 * k->cap : 64;
        void *f = realloc(k->fen, (size_t)cap * sizeof *k->fen);
        if (!f)
            return false;
        k->fen = f;
        void *sc = realloc(k->score, (size_t)cap * sizeof *k->score);
        if (!sc)
            return false;
        k->score = sc;
        k->cap = cap;
    }
    snprintf(k->fen[k->n], sizeof *k->fen, "%s", fen);
    k->score[k->n++] = score;
    return true;
}

/* Searches each move of the game in r to its end (or the ply limit),
 * keeping the quiet positions; the game's outcome. */
static outcome_t self_play(datagen_t *d, searcher_t *s, record_t *r, rng_t *rng, kept_t *k, bool *ok)
{
    const game_t *g = d->cfg.game;
    static _Thread_local uint64_t history[SEARCH_HISTORY_MAX];
    /* A roll of the die is no ply (docs/rules/README.md). */
    for (int ply = 0; ply < d->cfg.max_plies && *ok;) {
        move_t moves[MAX_MOVES];
        if (record_legal_moves(r, moves) == 0)
            break;
        if (game_at_chance(g, &r->pos)) {
            *ok = record_play(r, game_roll(g, &r->pos, rng));
            continue;
        }
        ply++;
        search_request_t req = {.game = g, .root = r->pos, .history = history,
                                .multiplayer = SEARCH_MULTIPLAYER_DEFAULT,
                                .chance_pruning = SEARCH_CHANCE_DEFAULT};
        req.history_len = record_recent_keys(r, history, SEARCH_HISTORY_MAX);
        limits_init(&req.limits);
        req.limits.nodes = (uint64_t)d->cfg.nodes;
        req.limits.depth = (int)d->cfg.depth;
        search_reset_stop(s);
        search_result_t res = search_run(s, &req);
        if (res.best == MOVE_NONE)
            break;
        if (search_quiet(s, g, &r->pos)) {
            char fen[GAME_FEN_MAX];
            g->write_fen(&r->pos, fen, sizeof fen);
            *ok = keep(k, fen, (int)res.score);
        }
        *ok = *ok && record_play(r, res.best);
    }
    outcome_t o = record_outcome(r);
    if (o.kind == OUTCOME_NONE) /* the ply limit: adjudicated a draw */
        o = (outcome_t){OUTCOME_DRAW, game_players_in(g, &r->pos), "ply limit"};
    return o;
}

/* Plays game `index` to its end, its quiet positions into t. */
static bool play_game(datagen_t *d, searcher_t *s, long long index, game_text_t *t)
{
    const game_t *g = d->cfg.game;
    rng_t rng = {d->cfg.seed * 0x9E3779B97F4A7C15ull ^ (uint64_t)index};
    record_t r = {0};
    bool opened = false, ok = true;
    for (int tries = 0; tries < 100 && !opened; tries++)
        opened = play_opening(d, &r, index, &rng);
    kept_t k = {0};
    if (opened) {
        searcher_clear(s);
        outcome_t o = self_play(d, s, &r, &rng, &k, &ok);
        char result[64], line[GAME_FEN_MAX + 96];
        result_text(g, o, result, sizeof result);
        for (int i = 0; i < k.n && ok; i++) {
            snprintf(line, sizeof line, "%s | %s | %d\n", k.fen[i], result, k.score[i]);
            ok = textbuf_add(&t->text, line);
        }
        t->positions = k.n;
    }
    free(k.fen);
    free(k.score);
    record_free(&r);
    return ok;
}

/* Writes the finished games that follow the last written one; the lock is held. */
static void flush_ready(datagen_t *d)
{
    while (d->written < d->n_games && d->texts[d->written].done) {
        game_text_t *t = &d->texts[d->written];
        if (t->text.len && fwrite(t->text.s, 1, t->text.len, d->out) != t->text.len)
            d->failed = true;
        d->positions += t->positions;
        textbuf_free(&t->text);
        d->written++;
    }
    int64_t now = timeman_now_ms();
    if (now - d->reported_ms >= 1000 || d->written == d->n_games) {
        d->reported_ms = now;
        double secs = (double)(now - d->start_ms) / 1000.0;
        double left = d->written ? secs / (double)d->written * (double)(d->n_games - d->written) : 0;
        fprintf(d->err, "datagen: %lld/%lld games, %lld positions, %.0f positions/s, about %.0f s left\n",
                d->written, d->n_games, d->positions, secs > 0 ? (double)d->positions / secs : 0.0, left);
    }
}

static void *worker(void *arg)
{
    datagen_t *d = arg;
    searcher_t *s = searcher_new(DATAGEN_HASH_MB);
    if (!s) {
        thr_mutex_lock(&d->lock);
        d->failed = true;
        thr_mutex_unlock(&d->lock);
        return NULL;
    }
    for (;;) {
        long long k = atomic_fetch_add(&d->next, 1);
        if (k >= d->n_games)
            break;
        game_text_t t = {0};
        bool ok = play_game(d, s, d->indices[k], &t);
        thr_mutex_lock(&d->lock);
        d->texts[k] = t;
        d->texts[k].done = true;
        d->failed |= !ok;
        flush_ready(d);
        bool stop = d->failed;
        thr_mutex_unlock(&d->lock);
        if (stop)
            break;
    }
    searcher_free(s);
    return NULL;
}

static int run(datagen_t *d)
{
    const datagen_cfg_t *c = &d->cfg;
    d->n_games = (c->games - (c->shard_k - 1) + c->shard_n - 1) / c->shard_n;
    if (d->n_games <= 0) {
        fprintf(d->err, "denham datagen: shard %lld/%lld has no game of %lld\n", c->shard_k, c->shard_n, c->games);
        return 2;
    }
    d->indices = calloc((size_t)d->n_games, sizeof *d->indices);
    d->texts = calloc((size_t)d->n_games, sizeof *d->texts);
    if (!d->indices || !d->texts) {
        fprintf(d->err, "denham datagen: out of memory\n");
        return 1;
    }
    for (long long k = 0; k < d->n_games; k++)
        d->indices[k] = (c->shard_k - 1) + k * c->shard_n;
    fprintf(d->out, "# denham datagen: %s, %lld games (shard %lld/%lld), %s %lld, seed %llu\n", c->game->name,
            c->games, c->shard_k, c->shard_n, c->nodes ? "nodes" : "depth", c->nodes ? c->nodes : c->depth,
            (unsigned long long)c->seed);
    fprintf(d->out, "# <position> | <result per %s> | <score for the side to move>\n",
            game_teams(c->game) > 2 ? "player" : "team");
    game_prepare(c->game);
    d->start_ms = d->reported_ms = timeman_now_ms();
    thr_t threads[DATAGEN_THREADS_MAX];
    int started = 0;
    for (int i = 0; i < c->threads; i++)
        started += thr_create(&threads[started], worker, d);
    if (started == 0)
        worker(d);
    for (int i = 0; i < started; i++)
        thr_join(threads[i]);
    if (d->failed || d->written < d->n_games || fflush(d->out) != 0) {
        fprintf(d->err, "denham datagen: out of memory or a write to %s failed\n", c->out_path);
        return 1;
    }
    return 0;
}

int datagen_main(int argc, char **argv, FILE *err)
{
    datagen_t *d = calloc(1, sizeof *d);
    if (!d)
        return 1;
    d->err = err;
    int status = parse_args(argc, argv, &d->cfg, err);
    if (status < 0 && d->cfg.book_path && !read_book(d))
        status = 2;
    if (status < 0) {
        d->out = fopen(d->cfg.out_path, "w");
        if (!d->out) {
            fprintf(err, "denham datagen: cannot write %s\n", d->cfg.out_path);
            status = 1;
        }
    }
    if (status < 0) {
        thr_mutex_init(&d->lock);
        atomic_init(&d->next, 0);
        status = run(d);
        thr_mutex_destroy(&d->lock);
    }
    if (d->out && fclose(d->out) != 0 && status == 0) {
        fprintf(err, "denham datagen: a write to %s failed\n", d->cfg.out_path);
        status = 1;
    }
    if (d->texts)
        for (long long k = 0; k < d->n_games; k++)
            textbuf_free(&d->texts[k].text);
    free(d->texts);
    free(d->indices);
    free(d->book);
    free(d);
    return status;
}
