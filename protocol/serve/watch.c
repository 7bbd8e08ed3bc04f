/*
 * watch.c: the watch page's data and routes of `denham serve --watch`
 * (PROTOCOL.md, "Watching a match"), over what the live-file reader keeps
 * (watch_live.c). The snapshot of the match is made by the reader's
 * thread after each change, under its lock, as one shared body: the loop
 * sends it to every event stream and answers /api/watch/state with it,
 * never waiting on that lock. A replay or a layout is built on a worker
 * (workers.h), under the lock, and answered by the loop.
 *
 * Reaches the games only through game_t, the record and describe.c (and
 * always under the lock: the games' text and view functions keep static
 * buffers), the statistics only through games_tally.h and stats.h; starts
 * no engine and sees no session; serve.c calls it through watch.h only.
 */
#define _POSIX_C_SOURCE 200809L
#include "watch.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/core/json.h"
#include "../../engine/core/number.h"
#include "../../engine/core/timeman.h"
#include "../../engine/games/variants.h"
#include "../ugi/describe.h"
#include "watch_live.h"
#include "web_assets.h"
#include "workers.h"

#define WATCH_HEARTBEAT_MS 15000

/* ---- the page's data (JSON, built under the lock) ---- */

static const char *seat_engine(const game_t *g, const char *p1, const char *p2, int seat, char *out, size_t len)
{
    if (game_teams(g) <= 2) {
        snprintf(out, len, "%.*s", WATCH_NAME - 1, g->team_of[seat] == 0 ? p1 : p2);
        return out;
    }
    const char *c = p1;
    for (int k = 0; k < seat && c; k++)
        c = strchr(c, ',') ? strchr(c, ',') + 1 : NULL;
    snprintf(out, len, "%.*s", c ? (int)strcspn(c, ",") : 0, c ? c : "");
    return out;
}

static void live_json(json_t *j, int fi, const live_game_t *s)
{
    const game_t *g = s->rec.game;
    json_object(j);
    json_kint(j, "file", fi);
    json_kint(j, "index", s->index);
    json_kstring(j, "variant", g->name);
    json_kstring(j, "p1", s->p1);
    json_kstring(j, "p2", s->p2);
    json_kint(j, "plies", s->rec.plies);
    json_kstring(j, "last", s->last);
    json_key(j, "lastMove"); /* its clicks, to mark on the board */
    if (s->has_before && g->view_move) {
        json_object(j);
        json_kstring(j, "move", s->last);
        g->view_move(g, &s->before, s->rec.moves[s->rec.plies - 1], j);
        json_end(j);
    } else {
        json_null(j);
    }
    json_kbool(j, "stuck", s->stuck);
    json_key(j, "evals");
    json_array(j);
    for (int seat = 0; seat < g->players; seat++) {
        char name[WATCH_NAME];
        json_object(j);
        json_kint(j, "seat", seat);
        json_kstring(j, "seatName", g->player_names[seat]);
        json_kstring(j, "engine", seat_engine(g, s->p1, s->p2, seat, name, sizeof name));
        json_kstring(j, "score", s->eval[seat].score);
        json_kstring(j, "depth", s->eval[seat].depth);
        json_kstring(j, "move", s->eval[seat].move);
        json_kint(j, "ply", s->eval[seat].ply);
        json_end(j);
    }
    json_end(j);
    json_key(j, "state");
    if (!describe_state(&s->rec, j) && !j->failed)
        json_null(j);
    json_end(j);
}

static int by_index(const void *a, const void *b)
{
    const live_game_t *x = *(live_game_t *const *)a, *y = *(live_game_t *const *)b;
    return (x->index > y->index) - (x->index < y->index);
}

static void fmt(char *out, size_t len, const char *format, double v)
{
    snprintf(out, len, format, v);
}

static void results_json(json_t *j)
{
    char t[64];
    json_object(j);
    if (W.ffa_game) {
        const watch_file_t *f = NULL;
        for (int i = 0; i < W.n_files && !f; i++)
            if (W.files[i]->game == W.ffa_game)
                f = W.files[i];
        json_kstring(j, "kind", "free-for-all");
        json_kint(j, "games", W.ffa_games);
        json_kint(j, "draws", W.ffa_draws);
        json_key(j, "engines");
        json_array(j);
        for (int e = 0; f && e < f->n_engines; e++) {
            json_object(j);
            json_kstring(j, "name", f->engines[e]);
            json_kint(j, "wins", W.ffa_wins[e]);
            json_end(j);
        }
        json_end(j);
        json_end(j);
        return;
    }
    if (W.pairs_version != W.version + 1) { /* the pairs once per change, not per page */
        bool over = W.n_files > 0;
        for (int i = 0; i < W.n_files; i++)
            over = over && W.files[i]->over;
        W.tally.final = over; /* then a pair not whole will stay so */
        games_tally_pairs(&W.tally);
        W.pairs_version = W.version + 1;
    }
    const match_summary_t *sum = &W.tally.sum;
    const match_cfg_t *cfg = &W.tally.cfg;
    elo_estimate_t e = stats_elo(sum->wdl);
    const char *a = cfg->engines[0].name, *b = cfg->engines[1].name;
    for (int i = 0; i < W.n_files && !a[0]; i++) /* no game finished yet: the headers' names */
        if (W.files[i]->header && W.files[i]->n_engines >= 2) {
            a = W.files[i]->engines[0];
            b = W.files[i]->engines[1];
        }
    json_kstring(j, "kind", "pairs");
    json_key(j, "engines");
    json_array(j);
    json_string(j, a);
    json_string(j, b);
    json_end(j);
    json_kint(j, "games", sum->games_played);
    json_kint(j, "wins", sum->wdl.wins);
    json_kint(j, "draws", sum->wdl.draws);
    json_kint(j, "losses", sum->wdl.losses);
    fmt(t, sizeof t, "%.3f", e.score), json_kstring(j, "score", t);
    fmt(t, sizeof t, "%+.1f", e.elo), json_kstring(j, "elo", t);
    fmt(t, sizeof t, "%+.1f", e.elo_low), json_kstring(j, "eloLow", t);
    fmt(t, sizeof t, "%+.1f", e.elo_high), json_kstring(j, "eloHigh", t);
    fmt(t, sizeof t, "%.1f%%", 100.0 * e.los), json_kstring(j, "los", t);
    fmt(t, sizeof t, "%.1f%%", 100.0 * e.draw_ratio), json_kstring(j, "drawRatio", t);
    json_key(j, "penta");
    json_array(j);
    for (int k = 0; k < 5; k++)
        json_int(j, sum->penta.n[k]);
    json_end(j);
    json_key(j, "sprt");
    if (!cfg->sprt_on) {
        json_null(j);
    } else {
        double lo, hi;
        stats_sprt_bounds(&cfg->sprt, &lo, &hi);
        json_object(j);
        fmt(t, sizeof t, "%.1f", cfg->sprt.elo0), json_kstring(j, "elo0", t);
        fmt(t, sizeof t, "%.1f", cfg->sprt.elo1), json_kstring(j, "elo1", t);
        fmt(t, sizeof t, "%.3f", cfg->sprt.alpha), json_kstring(j, "alpha", t);
        fmt(t, sizeof t, "%.3f", cfg->sprt.beta), json_kstring(j, "beta", t);
        fmt(t, sizeof t, "%.3f", sum->llr), json_kstring(j, "llr", t);
        fmt(t, sizeof t, "%.3f", lo), json_kstring(j, "lower", t);
        fmt(t, sizeof t, "%.3f", hi), json_kstring(j, "upper", t);
        /* The tally decides as the runner does (games_tally.h): at the
         * pair that took the LLR past a bound; the games in flight then
         * are recorded apart. */
        const char *stopped = "";
        for (int i = 0; i < W.n_files && !stopped[0]; i++)
            stopped = W.files[i]->decision;
        json_kstring(j, "decision", sum->sprt_decision > 0   ? "H1 accepted"
                                    : sum->sprt_decision < 0 ? "H0 accepted"
                                                             : "no decision");
        json_kbool(j, "stoppedByRunner", stopped[0] != 0);
        json_kbool(j, "llrOfGames", sum->llr_of_games);
        json_kint(j, "afterGames", sum->after_games);
        snprintf(t, sizeof t, "%d-%d-%d", sum->after.wins, sum->after.draws, sum->after.losses);
        json_kstring(j, "afterWdl", t);
        json_end(j);
    }
    json_key(j, "endings");
    json_array(j);
    for (int k = 0; k < sum->n_endings; k++) {
        json_object(j);
        json_kstring(j, "reason", sum->ending[k]);
        json_kint(j, "count", sum->ending_count[k]);
        json_end(j);
    }
    json_end(j);
    json_kstring(j, "error", W.tally_error);
    json_kint(j, "refused", W.refused);
    json_end(j);
}

static void snapshot_json(json_t *j)
{
    json_object(j);
    json_kint(j, "version", (long long)W.version);
    json_key(j, "files");
    json_array(j);
    bool over = W.n_files > 0;
    for (int i = 0; i < W.n_files; i++) {
        const watch_file_t *f = W.files[i];
        over = over && f->over;
        json_object(j);
        json_kstring(j, "path", f->path);
        json_kstring(j, "status", f->format_error[0] ? "error" : f->status);
        json_kstring(j, "error", f->format_error[0] ? f->format_error : f->error);
        json_kstring(j, "variant", f->game ? f->game->name : "");
        json_kstring(j, "shard", f->shard);
        json_kint(j, "games", f->games);
        json_kint(j, "shardGames", f->shard_games);
        json_kint(j, "finished", f->finished);
        json_kbool(j, "over", f->over);
        json_kint(j, "badLines", f->bad_lines);
        json_kstring(j, "lastBad", f->last_bad);
        json_key(j, "engines");
        json_array(j);
        for (int e = 0; e < f->n_engines; e++)
            json_string(j, f->engines[e]);
        json_end(j);
        json_end(j);
    }
    json_end(j);
    json_kbool(j, "over", over);
    json_key(j, "live");
    json_array(j);
    for (int i = 0; i < W.n_files; i++) {
        const live_game_t *list[WATCH_LIVE_MAX];
        int n = 0;
        for (int k = 0; k < WATCH_LIVE_MAX; k++)
            if (W.files[i]->live[k].used)
                list[n++] = &W.files[i]->live[k];
        qsort(list, (size_t)n, sizeof list[0], by_index);
        for (int k = 0; k < n; k++)
            live_json(j, i, list[k]);
    }
    json_end(j);
    json_key(j, "results");
    results_json(j);
    json_kint(j, "finishedTotal", W.done_total);
    json_key(j, "finished");
    json_array(j);
    for (int k = W.done_count - 1; k >= 0 && k >= W.done_count - WATCH_DONE_SHOWN; k--) {
        const done_game_t *d = &W.done[(W.done_first + k) % WATCH_DONE_MAX];
        json_object(j);
        json_kint(j, "file", d->file);
        json_kint(j, "index", d->index);
        json_kstring(j, "p1", d->p1);
        json_kstring(j, "p2", d->p2);
        json_kstring(j, "result", d->result);
        json_kstring(j, "reason", d->reason);
        json_kint(j, "plies", d->plies);
        json_end(j);
    }
    json_end(j);
    json_end(j);
}

/* A finished game for replay: its line, and every position on the way as
 * `state` descriptions (at most WATCH_REPLAY_PLIES). */
static bool replay_json(json_t *j, int fi, char *line)
{
    char *fld[8];
    const game_t *g = games_tally_split(line, fld, 8) == 8 ? variants_find(fld[1]) : NULL;
    if (!g)
        return false;
    record_t rec = {0}, step = {0};
    char err[GAME_FEN_MAX + 200];
    if ((!record_setup(&rec, g, fld[7], err, sizeof err) && rec.forfeit_by < 0) || !record_init(&step, g, &rec.start)) {
        record_free(&rec);
        record_free(&step);
        return false;
    }
    json_object(j);
    json_kint(j, "file", fi);
    json_kint(j, "index", atoi(fld[0]));
    json_kstring(j, "variant", g->name);
    json_kstring(j, "p1", fld[2]);
    json_kstring(j, "p2", fld[3]);
    json_kstring(j, "result", fld[4]);
    json_kstring(j, "reason", fld[5]);
    json_kstring(j, "opening", fld[6]);
    json_kstring(j, "game", fld[7]);
    int plies = rec.plies < WATCH_REPLAY_PLIES - 1 ? rec.plies : WATCH_REPLAY_PLIES - 1;
    json_kbool(j, "truncated", plies < rec.plies);
    json_key(j, "moves");
    json_array(j);
    position_t pos = rec.start;
    for (int i = 0; i < plies; i++) { /* each with its clicks, to mark on the board */
        char text[GAME_MOVE_TEXT_MAX];
        undo_t u;
        g->move_text(&pos, rec.moves[i], text, sizeof text);
        json_object(j);
        json_kstring(j, "move", text);
        if (g->view_move)
            g->view_move(g, &pos, rec.moves[i], j);
        json_end(j);
        g->make(&pos, rec.moves[i], &u);
    }
    json_end(j);
    json_key(j, "states");
    json_array(j);
    for (int i = 0; i <= plies && !j->failed; i++) {
        describe_state(&step, j);
        if (i < plies && !record_play(&step, rec.moves[i]))
            break;
    }
    json_end(j);
    json_end(j);
    record_free(&rec);
    record_free(&step);
    return !j->failed;
}

/* ---- the snapshot, made by the reader's thread ---- */

static struct watch_page {
    pthread_mutex_t lock; /* snap and its version: the reader makes them, the loop reads them */
    shared_t *snap;
    unsigned long long version;
    void (*notify)(void);
    /* The loop's alone: */
    struct watch_stream {
        conn_t *conn; /* NULL: a free slot */
        shared_t *sending;
        size_t off; /* bytes of "data: " + snapshot + "\n\n" sent */
        unsigned long long version; /* the one sent (or being sent) */
        bool blocked;
        int64_t last_ms;
    } streams[WATCH_STREAMS_MAX];
} WP = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* The reader's change: a new snapshot (W.lock held). */
static void changed(void)
{
    json_t j;
    json_init(&j);
    snapshot_json(&j);
    shared_t *s = j.failed ? NULL : shared_new(j.len);
    if (s)
        memcpy(s->data, j.buf, j.len);
    json_free(&j);
    if (!s)
        return;
    pthread_mutex_lock(&WP.lock);
    shared_t *old = WP.snap;
    WP.snap = s;
    WP.version++;
    pthread_mutex_unlock(&WP.lock);
    shared_unref(old);
    if (WP.notify)
        WP.notify();
}

/* The newest snapshot, held (release it), and its version. */
static shared_t *newest(unsigned long long *version)
{
    pthread_mutex_lock(&WP.lock);
    shared_t *s = WP.snap ? shared_ref(WP.snap) : NULL;
    *version = WP.version;
    pthread_mutex_unlock(&WP.lock);
    return s;
}

/* ---- event streams (the loop's) ---- */

typedef struct watch_stream watch_stream_t;

static void stream_free(watch_stream_t *st)
{
    shared_unref(st->sending);
    *st = (watch_stream_t){0};
}

/* Sends what is left of the snapshot in flight, then the newest if it is
 * newer, as the socket takes them. */
static void stream_pump(watch_stream_t *st)
{
    while (st->conn) {
        if (!st->sending) {
            unsigned long long v;
            shared_t *s = newest(&v);
            if (!s || v == st->version) {
                shared_unref(s);
                return;
            }
            st->sending = s;
            st->version = v;
            st->off = 0;
        }
        const char *parts[3] = {"data: ", st->sending->data, "\n\n"};
        size_t lens[3] = {6, st->sending->len, 2}, at = 0;
        for (int k = 0; k < 3; k++) {
            if (st->off < at + lens[k]) {
                size_t from = st->off - at;
                ssize_t w = conn_stream_write(st->conn, parts[k] + from, lens[k] - from);
                if (w < 0)
                    return;
                st->off += (size_t)w;
                st->last_ms = timeman_now_ms();
                if ((size_t)w < lens[k] - from) {
                    st->blocked = true;
                    return;
                }
            }
            at += lens[k];
        }
        shared_unref(st->sending);
        st->sending = NULL;
    }
}

static void stream_writable(void *ctx)
{
    watch_stream_t *st = ctx;
    st->blocked = false;
    stream_pump(st);
}

static void stream_gone(void *ctx) { stream_free(ctx); }

static const conn_stream_ops_t stream_ops = {stream_writable, stream_gone};

void watch_pump(void)
{
    for (int i = 0; i < WATCH_STREAMS_MAX; i++)
        if (WP.streams[i].conn && !WP.streams[i].blocked)
            stream_pump(&WP.streams[i]);
}

void watch_tick(int64_t now)
{
    for (int i = 0; i < WATCH_STREAMS_MAX; i++) {
        watch_stream_t *st = &WP.streams[i];
        if (st->conn && !st->blocked && !st->sending && now - st->last_ms >= WATCH_HEARTBEAT_MS) {
            conn_stream_beat(st->conn);
            st->last_ms = now;
        }
    }
}

static void stream(conn_t *c)
{
    watch_stream_t *st = NULL;
    for (int i = 0; i < WATCH_STREAMS_MAX && !st; i++)
        if (!WP.streams[i].conn)
            st = &WP.streams[i];
    if (!st)
        return conn_error(c, 503, "too many watch pages open (8): close one");
    *st = (watch_stream_t){.last_ms = timeman_now_ms()};
    if (!conn_stream_begin(c, &stream_ops, st))
        return;
    st->conn = c;
    stream_pump(st);
}

/* ---- answers built on a worker ---- */

typedef struct replay_job {
    long long file, index;
} replay_job_t;

/* /api/watch/game/<file>/<index>: a finished game still kept. */
static void replay_run(void *arg, int *status, const char **type, char **body, size_t *len, const char **error)
{
    const replay_job_t *r = arg;
    (void)type;
    char *line = NULL;
    json_t j;
    json_init(&j);
    bool ok = false;
    pthread_mutex_lock(&W.lock); /* the games' text and view functions are not all reentrant */
    for (int k = W.done_count - 1; k >= 0 && !line; k--) {
        const done_game_t *d = &W.done[(W.done_first + k) % WATCH_DONE_MAX];
        if (d->file == r->file && d->index == r->index)
            line = strdup(d->line);
    }
    if (line)
        ok = replay_json(&j, (int)r->file, line);
    pthread_mutex_unlock(&W.lock);
    free(line);
    *status = !line || !ok ? 404 : 200;
    *error = !line ? "no such game: not finished, or no longer kept"
             : !ok ? (j.failed ? "out of memory" : "this game's line cannot be replayed")
                   : NULL;
    if (ok) {
        *body = j.buf; /* the worker's answer: the loop sends and frees it */
        *len = j.len;
        j.buf = NULL;
    }
    json_free(&j);
}

static void replay(conn_t *c, const char *rest)
{
    long long fi, index;
    char a[16] = "", b[16] = "";
    size_t n = strcspn(rest, "/");
    if (n == 0 || n >= sizeof a || !rest[n])
        return conn_error(c, 404, "no such game");
    memcpy(a, rest, n);
    snprintf(b, sizeof b, "%.15s", rest + n + 1);
    if (strlen(rest + n + 1) >= sizeof b || !number_parse(a, 0, WATCH_FILES_MAX - 1, &fi) ||
        !number_parse(b, 1, GAMES_TALLY_MAX, &index))
        return conn_error(c, 404, "no such game");
    replay_job_t *r = malloc(sizeof *r);
    if (!r)
        return conn_error(c, 503, "out of memory");
    *r = (replay_job_t){fi, index};
    if (!workers_run(c, replay_run, r)) {
        free(r);
        conn_error(c, 503, "the server is busy: try again");
    }
}

static void layout_run(void *arg, int *status, const char **type, char **body, size_t *len, const char **error)
{
    const game_t *g = *(const game_t **)arg;
    (void)type;
    json_t j;
    json_init(&j);
    pthread_mutex_lock(&W.lock);
    bool ok = describe_layout(g, &j);
    pthread_mutex_unlock(&W.lock);
    *status = ok && !j.failed ? 200 : 404;
    *error = ok ? "out of memory" : "this variant has no board to draw";
    if (ok && !j.failed) {
        *body = j.buf;
        *len = j.len;
        j.buf = NULL;
    }
    json_free(&j);
}

static void layout(conn_t *c, const char *name)
{
    const game_t *g = strlen(name) < 40 && strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(name)
                          ? variants_find(name)
                          : NULL;
    if (!g)
        return conn_error(c, 404, "no such variant");
    const game_t **arg = malloc(sizeof *arg);
    if (!arg)
        return conn_error(c, 503, "out of memory");
    *arg = g;
    if (!workers_run(c, layout_run, arg)) {
        free(arg);
        conn_error(c, 503, "the server is busy: try again");
    }
}

/* ---- routes ---- */

bool watch_route(conn_t *c, const char *method, const char *path)
{
    static const char api[] = "/api/watch";
    bool page = strcmp(path, "/watch") == 0,
         file = strcmp(path, "/watch.html") == 0 || strcmp(path, "/watch.js") == 0 || strcmp(path, "/watch.css") == 0,
         in_api = strncmp(path, api, sizeof api - 1) == 0 && (path[sizeof api - 1] == 0 || path[sizeof api - 1] == '/');
    if (!page && !file && !in_api)
        return false;
    if (W.n_files == 0) {
        conn_error(c, 404, "not watching a match: start the server with --watch FILE");
        return true;
    }
    if (file)
        return false; /* serve.c serves the embedded file */
    bool head = strcmp(method, "HEAD") == 0;
    if (strcmp(method, "GET") != 0 && !(head && page)) {
        conn_error(c, 405, "use GET");
        return true;
    }
    if (page) {
        const web_asset_t *a = web_asset("/watch.html");
        if (a)
            conn_reply_static(c, 200, a->type, a->data, a->size);
        else
            conn_error(c, 404, "no such file");
        return true;
    }
    const char *rest = path + sizeof api - 1;
    if (strcmp(rest, "/state") == 0) {
        unsigned long long v;
        shared_t *s = newest(&v);
        if (s)
            conn_reply_shared(c, 200, "application/json", s);
        else
            conn_error(c, 500, "out of memory");
        shared_unref(s);
    } else if (strcmp(rest, "/events") == 0) {
        stream(c);
    } else if (strncmp(rest, "/layout/", 8) == 0) {
        layout(c, rest + 8);
    } else if (strncmp(rest, "/game/", 6) == 0) {
        replay(c, rest + 6);
    } else {
        conn_error(c, 404, "no such page");
    }
    return true;
}

/* ---- start and stop ---- */

bool watch_start(void (*notify)(void))
{
    WP.notify = notify;
    return watch_live_start(changed);
}

void watch_stop(void)
{
    watch_live_stop();
    for (int i = 0; i < WATCH_STREAMS_MAX; i++)
        stream_free(&WP.streams[i]);
    shared_unref(WP.snap);
    WP.snap = NULL;
}

int watch_threads(void) { return W.running ? 1 : 0; }

/* ---- for the fuzz target (tests/fuzz/targets.c, match_files) ---- */

char *watch_fuzz_read(const char *data, size_t size, size_t cut)
{
    /* A small tally: a game past it is refused as the page refuses one past
     * its match (the fuzzer's inputs are small; clearing a big one each
     * time would be most of the work). */
    if (W.n_files == 0 && (!games_tally_init_for(&W.tally, 4096) || !watch_add("fuzz.live")))
        return NULL;
    pthread_mutex_lock(&W.lock);
    cut = cut < size ? cut : size;
    watch_live_feed(0, data, cut);
    watch_live_feed(0, data + cut, size - cut);
    json_t j;
    json_init(&j);
    snapshot_json(&j);
    char *out = j.failed || !j.buf ? NULL : strndup(j.buf, j.len);
    json_free(&j);
    for (int k = 0; k < W.done_count && k < 1; k++) { /* the first finished game's replay */
        const done_game_t *d = &W.done[(W.done_first + k) % WATCH_DONE_MAX];
        char *line = strndup(d->line, d->len);
        json_init(&j);
        if (line)
            replay_json(&j, d->file, line);
        json_free(&j);
        free(line);
    }
    watch_live_reset();
    pthread_mutex_unlock(&W.lock);
    return out;
}
