/*
 * watch.c: `denham serve --watch FILE`: a running match in the browser
 * (PROTOCOL.md, "Watching a match"). A thread polls the live files named on
 * the command line, and only those (no request names a path), reading
 * whole lines from where it left off, every size and count bounded. Each
 * game in progress is kept as a record of the engine library, so that the
 * page is sent the `state` descriptions it draws (describe.c), with both
 * engines' last scores; finished games are added up by the runner's own
 * games_tally.c (W/D/L, pairs, SPRT; shards' files as one match, as
 * `denham-match --merge` does) and kept for replay.
 *
 * Reaches the games only through game_t, the record and describe.c (and
 * always under the lock: the games' text and view functions keep static
 * buffers), the statistics only through games_tally.h and stats.h; starts
 * no engine and sees no session; serve.c calls it through watch.h only.
 */
#define _POSIX_C_SOURCE 200809L
#include "watch.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../bench/runner/games_tally.h"
#include "../../engine/core/json.h"
#include "../../engine/core/number.h"
#include "../../engine/core/record.h"
#include "../../engine/core/timeman.h"
#include "../../engine/games/variants.h"
#include "../ugi/describe.h"
#include "web_assets.h"

#define WATCH_FORMAT "denham-live 1"
#define WATCH_LINE_MAX (1 << 20)      /* a longer line is skipped (and counted) */
#define WATCH_READ_MAX (4 << 20)      /* read from one file per poll */
#define WATCH_LIVE_MAX 64             /* games in progress kept per file; the oldest give way */
#define WATCH_DONE_MAX 1000           /* finished games kept for replay ... */
#define WATCH_DONE_BYTES (64 << 20)   /* ... and their lines' bytes; the oldest go first */
#define WATCH_DONE_SHOWN 200          /* finished games listed in the page */
#define WATCH_POLL_MS 250
#define WATCH_STREAMS_MAX 8           /* event streams at once */
#define WATCH_HEARTBEAT_MS 15000
#define WATCH_REPLAY_PLIES 2000       /* positions sent for one replay */
#define WATCH_NAME 64                 /* an engine's name, as the runner keeps it */
#define WATCH_FIELDS 16

typedef struct eval {
    char score[24]; /* "cp 35", "mate -3" or "" */
    char depth[12];
    char move[GAME_MOVE_TEXT_MAX];
    int ply;
} eval_t;

typedef struct live_game {
    bool used;
    int index;
    unsigned long long seq; /* the order games started in: the oldest gives way */
    char p1[4 * WATCH_NAME + 4], p2[WATCH_NAME];
    record_t rec;
    position_t before; /* the position before the last move, when has_before */
    bool has_before;
    bool stuck; /* a move did not follow: shown as it was */
    char last[GAME_MOVE_TEXT_MAX];
    eval_t eval[MAX_PLAYERS]; /* each seat's engine's last score */
} live_game_t;

typedef struct watch_file {
    char path[WATCH_PATH_MAX];
    /* The poller's alone: */
    dev_t dev;
    ino_t ino;
    off_t offset;
    bool seen;
    char *partial; /* a line not yet ended */
    size_t partial_len, partial_cap;
    bool skipping; /* inside a line over WATCH_LINE_MAX */
    /* Under the lock: */
    const char *status; /* "waiting" (not there yet), "reading", "error" (cannot be read) */
    char error[160];
    char format_error[160]; /* not a live file: read no further until it is replaced */
    bool header;
    const game_t *game;
    int games, shard_games, n_engines;
    char shard[24];
    int shard_k, shard_n;
    char engines[MATCH_MAX_ENGINES][WATCH_NAME];
    bool over;
    char decision[16]; /* the SPRT's, when the runner stopped the match for it */
    int finished, bad_lines;
    char last_bad[160];
    live_game_t live[WATCH_LIVE_MAX];
} watch_file_t;

typedef struct done_game {
    int file, index, plies;
    char *line; /* the games-file line */
    size_t len;
    char p1[4 * WATCH_NAME + 4], p2[WATCH_NAME], result[16], reason[96];
} done_game_t;

static struct watch {
    int n_files;
    watch_file_t *files[WATCH_FILES_MAX];
    pthread_mutex_t lock;
    unsigned long long version, seq, pairs_version;
    games_tally_t tally;
    char tally_error[200];
    int refused; /* finished games the tally refused */
    /* Free-for-all games: wins per engine of the first file's header. */
    const game_t *ffa_game;
    int ffa_games, ffa_draws, ffa_wins[MATCH_MAX_ENGINES];
    done_game_t done[WATCH_DONE_MAX]; /* a ring */
    int done_first, done_count, done_total;
    size_t done_bytes;
    pthread_t poller;
    bool running;
    const atomic_bool *stopping;
    atomic_int streams;
} W = {.lock = PTHREAD_MUTEX_INITIALIZER};

bool watch_add(const char *path)
{
    if (W.n_files >= WATCH_FILES_MAX || !path[0] || strlen(path) >= WATCH_PATH_MAX)
        return false;
    watch_file_t *f = calloc(1, sizeof *f);
    if (!f)
        return false;
    snprintf(f->path, sizeof f->path, "%s", path);
    f->status = "waiting";
    W.files[W.n_files++] = f;
    return true;
}

/* ---- reading the live files (the poller; state changes under the lock) ---- */

static void bad_line(watch_file_t *f, const char *why)
{
    f->bad_lines++;
    snprintf(f->last_bad, sizeof f->last_bad, "%s", why);
}

static void forget_done(void)
{
    done_game_t *d = &W.done[W.done_first];
    W.done_bytes -= d->len;
    free(d->line);
    d->line = NULL;
    W.done_first = (W.done_first + 1) % WATCH_DONE_MAX;
    W.done_count--;
}

/* Everything read is forgotten and every file read again from its start
 * (a file was truncated or replaced: a match started again). */
static void reset_all(void)
{
    for (int i = 0; i < W.n_files; i++) {
        watch_file_t *f = W.files[i];
        f->offset = 0;
        f->seen = false;
        f->partial_len = 0;
        f->skipping = false;
        f->header = f->over = false;
        f->decision[0] = 0;
        f->format_error[0] = 0;
        f->game = NULL;
        f->finished = f->bad_lines = 0;
        f->last_bad[0] = 0;
        for (int k = 0; k < WATCH_LIVE_MAX; k++)
            f->live[k].used = false;
    }
    while (W.done_count)
        forget_done();
    W.done_total = 0;
    games_tally_clear(&W.tally);
    W.tally_error[0] = 0;
    W.refused = 0;
    W.ffa_game = NULL;
    W.ffa_games = W.ffa_draws = 0;
    memset(W.ffa_wins, 0, sizeof W.ffa_wins);
    W.version++;
}

static void header_line(watch_file_t *f, char **fld, int n)
{
    if (f->header) /* two runners writing one file, or files put together */
        return bad_line(f, "a second match line: one match per live file");
    long long games, shard_games;
    const game_t *g = n >= 9 ? variants_find(fld[2]) : NULL;
    if (n < 9 || strcmp(fld[1], WATCH_FORMAT) != 0 || !g || !number_parse(fld[3], 1, GAMES_TALLY_MAX, &games) ||
        !number_parse(fld[4], 0, GAMES_TALLY_MAX, &shard_games)) {
        snprintf(f->format_error, sizeof f->format_error,
                 "not a live file of this denham-match (its first line must be 'match', '" WATCH_FORMAT
                 "', a variant, ...)");
        return;
    }
    f->header = true;
    f->game = g;
    f->games = (int)games;
    f->shard_games = (int)shard_games;
    snprintf(f->shard, sizeof f->shard, "%.20s", fld[5]);
    long long shard_k, shard_n;
    f->shard_k = f->shard_n = 1;
    if (number_parse_shard(fld[5], GAMES_TALLY_MAX, &shard_k, &shard_n))
        f->shard_k = (int)shard_k, f->shard_n = (int)shard_n;
    /* One run's games are counted as the runner counted them, in the order
     * they finished (games_tally.h): its SPRT decides at the same pair. */
    W.tally.sequential = W.n_files == 1 && f->shard_n == 1;
    f->n_engines = 0;
    for (int k = 7; k < n && f->n_engines < MATCH_MAX_ENGINES; k++)
        snprintf(f->engines[f->n_engines++], WATCH_NAME, "%s", fld[k]);
    sprt_t s;
    char end;
    if (!W.tally.cfg.sprt_on && sscanf(fld[6], "%lf %lf %lf %lf %c", &s.elo0, &s.elo1, &s.alpha, &s.beta, &end) == 4 &&
        isfinite(s.elo0) && isfinite(s.elo1) && fabs(s.elo0) < 2000 && fabs(s.elo1) < 2000 && s.alpha > 0 &&
        s.alpha < 1 && s.beta > 0 && s.beta < 1 && s.elo0 != s.elo1) {
        W.tally.cfg.sprt = s;
        W.tally.cfg.sprt_on = true;
    }
    if (game_teams(g) > 2 && !W.ffa_game)
        W.ffa_game = g;
}

static live_game_t *find_live(watch_file_t *f, int index)
{
    for (int k = 0; k < WATCH_LIVE_MAX; k++)
        if (f->live[k].used && f->live[k].index == index)
            return &f->live[k];
    return NULL;
}

static void start_line(watch_file_t *f, char **fld, int n)
{
    long long index;
    if (n < 5 || !number_parse(fld[1], 1, GAMES_TALLY_MAX, &index))
        return bad_line(f, "a start line is: start, game, p1, p2, opening");
    live_game_t *s = find_live(f, (int)index);
    for (int k = 0; !s && k < WATCH_LIVE_MAX; k++)
        if (!f->live[k].used)
            s = &f->live[k];
    if (!s) { /* every slot taken: the oldest game gives way */
        s = &f->live[0];
        for (int k = 1; k < WATCH_LIVE_MAX; k++)
            if (f->live[k].seq < s->seq)
                s = &f->live[k];
    }
    char err[GAME_FEN_MAX + 200];
    if (!record_setup(&s->rec, f->game, fld[4], err, sizeof err)) {
        s->used = false;
        return bad_line(f, "a start line's opening is not a position of its variant");
    }
    s->used = true;
    s->index = (int)index;
    s->seq = ++W.seq;
    s->stuck = false;
    s->has_before = false;
    s->last[0] = 0;
    memset(s->eval, 0, sizeof s->eval);
    snprintf(s->p1, sizeof s->p1, "%s", fld[2]);
    snprintf(s->p2, sizeof s->p2, "%s", fld[3]);
}

/* "cp N" or "mate N", else "". */
static void copy_score(char *out, size_t len, const char *score)
{
    long long v;
    char kind[8], end;
    out[0] = 0;
    if (sscanf(score, "%7s %lld %c", kind, &v, &end) == 2 && (strcmp(kind, "cp") == 0 || strcmp(kind, "mate") == 0) &&
        v > -1000000000 && v < 1000000000)
        snprintf(out, len, "%s %lld", kind, v);
}

static void move_line(watch_file_t *f, char **fld, int n)
{
    long long index, ply;
    if (n < 7 || !number_parse(fld[1], 1, GAMES_TALLY_MAX, &index) || !number_parse(fld[2], 1, RECORD_MAX_PLIES, &ply))
        return bad_line(f, "a move line is: move, game, ply, seat, move, score, depth");
    live_game_t *s = find_live(f, (int)index);
    if (!s || s->stuck)
        return;
    const game_t *g = f->game;
    move_t m = ply == s->rec.plies + 1 && record_outcome(&s->rec).kind == OUTCOME_NONE ? g->parse_move(&s->rec.pos, fld[4])
                                                                                        : MOVE_NONE;
    position_t before = s->rec.pos;
    if (m == MOVE_NONE || !record_play(&s->rec, m)) {
        s->stuck = true;
        return bad_line(f, "a move that does not follow its game");
    }
    s->before = before;
    s->has_before = true;
    snprintf(s->last, sizeof s->last, "%s", fld[4]);
    long long seat;
    if (fld[3][0] == 'p' && number_parse(fld[3] + 1, 1, g->players, &seat)) {
        eval_t *e = &s->eval[seat - 1];
        copy_score(e->score, sizeof e->score, fld[5]);
        long long depth;
        snprintf(e->depth, sizeof e->depth, "%s", number_parse(fld[6], 0, 100000, &depth) ? fld[6] : "");
        snprintf(e->move, sizeof e->move, "%s", fld[4]);
        e->ply = (int)ply;
    }
}

/* The plies of a games-file line's position command: its words after
 * "moves". */
static int count_plies(const char *game)
{
    const char *m = strstr(game, " moves ");
    int n = 0;
    for (const char *c = m ? m + 6 : ""; *c;) {
        c += strspn(c, " ");
        size_t len = strcspn(c, " ");
        n += len > 0 && !(len == 5 && strncmp(c, "moves", 5) == 0);
        c += len;
    }
    return n;
}

static void tally_ffa(const watch_file_t *f, char **fld)
{
    W.ffa_games++;
    long long seat;
    if (strncmp(fld[4], "p", 1) != 0 || !number_parse(fld[4] + 1, 1, MAX_PLAYERS, &seat)) {
        W.ffa_draws += strcmp(fld[4], "draw") == 0;
        return;
    }
    const char *c = fld[2]; /* every seat's engine, comma-separated */
    for (int k = 1; k < seat && c; k++)
        c = strchr(c, ',') ? strchr(c, ',') + 1 : NULL;
    for (int e = 0; c && e < f->n_engines; e++) {
        size_t len = strcspn(c, ",");
        if (strlen(f->engines[e]) == len && strncmp(f->engines[e], c, len) == 0) {
            W.ffa_wins[e]++;
            break;
        }
    }
}

static void end_line(watch_file_t *f, int fi, const char *games_line)
{
    size_t len = strlen(games_line);
    char *copy = malloc(len + 1), *fields = malloc(len + 1);
    if (!copy || !fields) {
        free(copy);
        free(fields);
        return bad_line(f, "out of memory");
    }
    memcpy(copy, games_line, len + 1);
    memcpy(fields, games_line, len + 1);
    char *fld[8];
    long long index;
    const game_t *g = games_tally_split(fields, fld, 8) == 8 ? variants_find(fld[1]) : NULL;
    if (!g || !number_parse(fld[0], 1, GAMES_TALLY_MAX, &index)) {
        free(copy);
        free(fields);
        return bad_line(f, "an end line is: end, then the game's games-file line");
    }
    /* A game that is not this file's match's, or not its shard's. */
    int group = game_teams(g) > 2 ? 1 : 2;
    if (g != f->game || !games_tally_in_match((int)index - 1, f->games, group, group == 2 ? f->shard_k : 1,
                                              group == 2 ? f->shard_n : 1)) {
        free(copy);
        free(fields);
        return bad_line(f, "an end line for a game outside the match (its variant, games or shard)");
    }
    live_game_t *s = find_live(f, (int)index);
    if (s)
        s->used = false;
    f->finished++;
    if (game_teams(g) > 2) {
        tally_ffa(f, fld);
    } else {
        char *line = malloc(len + 1);
        const char *why = line ? games_tally_add(&W.tally, memcpy(line, games_line, len + 1)) : "out of memory";
        free(line);
        if (why) {
            W.refused++;
            if (!W.tally_error[0])
                snprintf(W.tally_error, sizeof W.tally_error, "%.80s: game %lld: %.100s", f->path, index, why);
        }
    }
    while (W.done_count && (W.done_count == WATCH_DONE_MAX || W.done_bytes + len > WATCH_DONE_BYTES))
        forget_done();
    done_game_t *d = &W.done[(W.done_first + W.done_count) % WATCH_DONE_MAX];
    *d = (done_game_t){.file = fi, .index = (int)index, .plies = count_plies(fld[7]), .line = copy, .len = len};
    snprintf(d->p1, sizeof d->p1, "%s", fld[2]);
    snprintf(d->p2, sizeof d->p2, "%s", fld[3]);
    snprintf(d->result, sizeof d->result, "%s", fld[4]);
    snprintf(d->reason, sizeof d->reason, "%s", fld[5]);
    W.done_count++;
    W.done_total++;
    W.done_bytes += len;
    free(fields);
}

static void handle_line(watch_file_t *f, int fi, char *line)
{
    size_t len = strlen(line);
    if (len && line[len - 1] == '\r')
        line[--len] = 0;
    if (!len)
        return;
    if (strncmp(line, "end\t", 4) == 0 && f->header)
        return end_line(f, fi, line + 4);
    char *fld[WATCH_FIELDS];
    int n = games_tally_split(line, fld, WATCH_FIELDS);
    if (strcmp(fld[0], "match") == 0)
        return header_line(f, fld, n);
    if (!f->header)
        return bad_line(f, "a line before the match line");
    if (strcmp(fld[0], "start") == 0)
        start_line(f, fld, n);
    else if (strcmp(fld[0], "move") == 0)
        move_line(f, fld, n);
    else if (strcmp(fld[0], "over") == 0) {
        f->over = true;
        if (n >= 3 && (strcmp(fld[2], "H1 accepted") == 0 || strcmp(fld[2], "H0 accepted") == 0))
            snprintf(f->decision, sizeof f->decision, "%s", fld[2]);
    }
    /* Other kinds of line are for later versions: passed over. */
}

/* The bytes read, line by line; a line not yet ended waits for the rest. */
static void feed(watch_file_t *f, int fi, const char *buf, size_t len)
{
    while (len > 0 && !f->format_error[0]) {
        const char *nl = memchr(buf, '\n', len);
        size_t piece = nl ? (size_t)(nl - buf) : len;
        if (!f->skipping && f->partial_len + piece > WATCH_LINE_MAX) {
            f->skipping = true;
            f->partial_len = 0;
        }
        if (!f->skipping) {
            if (f->partial_len + piece + 1 > f->partial_cap) {
                size_t cap = f->partial_cap ? f->partial_cap : 4096;
                while (cap < f->partial_len + piece + 1)
                    cap *= 2;
                char *grown = realloc(f->partial, cap);
                if (!grown) {
                    f->skipping = true;
                    f->partial_len = 0;
                } else {
                    f->partial = grown;
                    f->partial_cap = cap;
                }
            }
            if (!f->skipping) {
                memcpy(f->partial + f->partial_len, buf, piece);
                f->partial_len += piece;
            }
        }
        if (nl) {
            if (f->skipping)
                bad_line(f, "a line longer than 1 MiB (skipped)");
            else {
                f->partial[f->partial_len] = 0;
                handle_line(f, fi, f->partial);
            }
            f->skipping = false;
            f->partial_len = 0;
            piece++;
        }
        buf += piece;
        len -= piece;
    }
}

static void set_status(watch_file_t *f, const char *status, const char *error)
{
    if (strcmp(f->status, status) != 0 || strcmp(f->error, error) != 0)
        W.version++;
    f->status = status;
    snprintf(f->error, sizeof f->error, "%s", error);
}

static void poll_file(int fi, char *buf)
{
    watch_file_t *f = W.files[fi];
    int fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY), err = fd < 0 ? errno : 0;
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        char why[200];
        snprintf(why, sizeof why, "%s", err == ENOENT ? "" : fd < 0 ? strerror(err) : "not a regular file");
        pthread_mutex_lock(&W.lock);
        set_status(f, err == ENOENT ? "waiting" : "error", why);
        pthread_mutex_unlock(&W.lock);
        if (fd >= 0)
            close(fd);
        return;
    }
    pthread_mutex_lock(&W.lock);
    if (f->seen && (st.st_dev != f->dev || st.st_ino != f->ino || st.st_size < f->offset))
        reset_all();
    set_status(f, "reading", "");
    bool unreadable = f->format_error[0] != 0;
    pthread_mutex_unlock(&W.lock);
    f->seen = true;
    f->dev = st.st_dev;
    f->ino = st.st_ino;
    if (st.st_size <= f->offset || unreadable) {
        close(fd);
        return;
    }
    size_t want = st.st_size - f->offset > WATCH_READ_MAX ? WATCH_READ_MAX : (size_t)(st.st_size - f->offset);
    ssize_t got = pread(fd, buf, want, f->offset);
    close(fd);
    if (got <= 0)
        return;
    pthread_mutex_lock(&W.lock);
    feed(f, fi, buf, (size_t)got);
    f->offset += got;
    W.version++;
    pthread_mutex_unlock(&W.lock);
}

static void *poller(void *arg)
{
    char *buf = arg;
    while (!atomic_load(W.stopping)) {
        for (int i = 0; i < W.n_files && !atomic_load(W.stopping); i++)
            poll_file(i, buf);
        struct timespec nap = {0, WATCH_POLL_MS * 1000000L};
        nanosleep(&nap, NULL);
    }
    free(buf);
    return NULL;
}

bool watch_start(const atomic_bool *stopping)
{
    W.stopping = stopping;
    if (W.n_files == 0)
        return true;
    char *buf = malloc(WATCH_READ_MAX);
    if (!buf || !games_tally_init(&W.tally)) {
        free(buf);
        return false;
    }
    if (pthread_create(&W.poller, NULL, poller, buf) != 0) {
        free(buf);
        games_tally_free(&W.tally);
        return false;
    }
    W.running = true;
    return true;
}

void watch_stop(void)
{
    if (!W.running)
        return;
    pthread_join(W.poller, NULL);
    W.running = false;
    /* Event streams end within a poll of `stopping`; serve.c waits for its
     * connections before it returns, so nothing reads what is freed here
     * once they have gone. */
    for (int waited = 0; atomic_load(&W.streams) > 0 && waited < 100; waited++) {
        struct timespec nap = {0, 50 * 1000000L};
        nanosleep(&nap, NULL);
    }
    pthread_mutex_lock(&W.lock);
    while (W.done_count)
        forget_done();
    for (int i = 0; i < W.n_files; i++) {
        for (int k = 0; k < WATCH_LIVE_MAX; k++)
            record_free(&W.files[i]->live[k].rec);
        free(W.files[i]->partial);
        free(W.files[i]);
        W.files[i] = NULL;
    }
    W.n_files = 0;
    games_tally_free(&W.tally);
    pthread_mutex_unlock(&W.lock);
}

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

/* ---- answering ---- */

static bool send_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        buf += n;
        len -= (size_t)n;
    }
    return true;
}

/* As serve.c answers: the same security headers. */
static void reply(int fd, int status, const char *type, const char *body, size_t len, bool head_only)
{
    static const char *const reasons[][2] = {{"200", "OK"},           {"404", "Not Found"},
                                             {"405", "Method Not Allowed"}, {"500", "Internal Server Error"},
                                             {"503", "Service Unavailable"}};
    const char *reason = "Error";
    char code[8];
    snprintf(code, sizeof code, "%d", status);
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
        if (strcmp(reasons[i][0], code) == 0)
            reason = reasons[i][1];
    char head[1024];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nConnection: close\r\n"
                     "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\n"
                     "Referrer-Policy: no-referrer\r\nContent-Security-Policy: default-src 'self'; style-src "
                     "'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors "
                     "'none'\r\n\r\n",
                     status, reason, type, len);
    if (n > 0 && (size_t)n < sizeof head && send_all(fd, head, (size_t)n) && !head_only)
        send_all(fd, body, len);
}

static void reply_error(int fd, int status, const char *message)
{
    char body[512];
    int n = snprintf(body, sizeof body, "{\"error\":\"%s\",\"status\":%d}", message, status);
    reply(fd, status, "application/json", body, (size_t)(n > 0 ? n : 0), false);
}

static void reply_json(int fd, json_t *j)
{
    if (j->failed || !j->buf)
        reply_error(fd, 500, "out of memory");
    else
        reply(fd, 200, "application/json", j->buf, j->len, false);
}

static void stream(int fd)
{
    if (atomic_fetch_add(&W.streams, 1) >= WATCH_STREAMS_MAX) {
        atomic_fetch_sub(&W.streams, 1);
        return reply_error(fd, 503, "too many watch pages open (8): close one");
    }
    static const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n"
                               "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\r\nretry: 2000\n\n";
    unsigned long long sent = 0;
    int64_t last_send = timeman_now_ms();
    bool ok = send_all(fd, head, sizeof head - 1);
    json_t j;
    json_init(&j);
    while (ok && !atomic_load(W.stopping)) {
        pthread_mutex_lock(&W.lock);
        unsigned long long v = W.version + 1; /* never 0: the first round always sends */
        if (v != sent) {
            json_free(&j);
            json_init(&j);
            snapshot_json(&j);
        }
        pthread_mutex_unlock(&W.lock);
        if (v != sent) {
            ok = !j.failed && send_all(fd, "data: ", 6) && send_all(fd, j.buf, j.len) && send_all(fd, "\n\n", 2);
            sent = v;
            last_send = timeman_now_ms();
        } else if (timeman_now_ms() - last_send >= WATCH_HEARTBEAT_MS) {
            ok = send_all(fd, ": keep-alive\n\n", 14);
            last_send = timeman_now_ms();
        }
        struct timespec nap = {0, WATCH_POLL_MS * 1000000L};
        nanosleep(&nap, NULL);
    }
    json_free(&j);
    atomic_fetch_sub(&W.streams, 1);
}

/* /api/watch/game/<file>/<index>: a finished game still kept. */
static void replay(int fd, const char *rest)
{
    long long fi, index;
    char a[16] = "", b[16] = "";
    size_t n = strcspn(rest, "/");
    if (n == 0 || n >= sizeof a || !rest[n])
        return reply_error(fd, 404, "no such game");
    memcpy(a, rest, n);
    snprintf(b, sizeof b, "%.15s", rest + n + 1);
    if (strlen(rest + n + 1) >= sizeof b || !number_parse(a, 0, WATCH_FILES_MAX - 1, &fi) ||
        !number_parse(b, 1, GAMES_TALLY_MAX, &index))
        return reply_error(fd, 404, "no such game");
    char *line = NULL;
    json_t j;
    json_init(&j);
    bool ok = false;
    pthread_mutex_lock(&W.lock); /* the games' text and view functions are not all reentrant */
    for (int k = W.done_count - 1; k >= 0 && !line; k--) {
        const done_game_t *d = &W.done[(W.done_first + k) % WATCH_DONE_MAX];
        if (d->file == fi && d->index == index)
            line = strdup(d->line);
    }
    if (line)
        ok = replay_json(&j, (int)fi, line);
    pthread_mutex_unlock(&W.lock);
    if (!line)
        reply_error(fd, 404, "no such game: not finished, or no longer kept");
    else if (ok)
        reply_json(fd, &j);
    else
        reply_error(fd, 404, "this game's line cannot be replayed");
    json_free(&j);
    free(line);
}

static void layout(int fd, const char *name)
{
    const game_t *g = strlen(name) < 40 && strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(name)
                          ? variants_find(name)
                          : NULL;
    if (!g)
        return reply_error(fd, 404, "no such variant");
    json_t j;
    json_init(&j);
    pthread_mutex_lock(&W.lock);
    bool ok = describe_layout(g, &j);
    pthread_mutex_unlock(&W.lock);
    if (ok)
        reply_json(fd, &j);
    else
        reply_error(fd, 404, "this variant has no board to draw");
    json_free(&j);
}

bool watch_route(int fd, const char *method, const char *path)
{
    static const char api[] = "/api/watch";
    bool page = strcmp(path, "/watch") == 0,
         file = strcmp(path, "/watch.html") == 0 || strcmp(path, "/watch.js") == 0 || strcmp(path, "/watch.css") == 0,
         in_api = strncmp(path, api, sizeof api - 1) == 0 && (path[sizeof api - 1] == 0 || path[sizeof api - 1] == '/');
    if (!page && !file && !in_api)
        return false;
    if (W.n_files == 0) {
        reply_error(fd, 404, "not watching a match: start the server with --watch FILE");
        return true;
    }
    if (file)
        return false; /* serve.c serves the embedded file */
    bool head = strcmp(method, "HEAD") == 0;
    if (strcmp(method, "GET") != 0 && !(head && page)) {
        reply_error(fd, 405, "use GET");
        return true;
    }
    if (page) {
        const web_asset_t *a = web_asset("/watch.html");
        if (a)
            reply(fd, 200, a->type, (const char *)a->data, a->size, head);
        else
            reply_error(fd, 404, "no such file");
        return true;
    }
    const char *rest = path + sizeof api - 1;
    if (strcmp(rest, "/state") == 0) {
        json_t j;
        json_init(&j);
        pthread_mutex_lock(&W.lock);
        snapshot_json(&j);
        pthread_mutex_unlock(&W.lock);
        reply_json(fd, &j);
        json_free(&j);
    } else if (strcmp(rest, "/events") == 0) {
        stream(fd);
    } else if (strncmp(rest, "/layout/", 8) == 0) {
        layout(fd, rest + 8);
    } else if (strncmp(rest, "/game/", 6) == 0) {
        replay(fd, rest + 6);
    } else {
        reply_error(fd, 404, "no such page");
    }
    return true;
}

/* ---- for the fuzz target (tests/fuzz/targets.c, live_file) ---- */

char *watch_fuzz_read(const char *data, size_t size, size_t cut)
{
    /* A small tally: a game past it is refused as the page refuses one past
     * its match (the fuzzer's inputs are small; clearing a big one each
     * time would be most of the work). */
    if (W.n_files == 0 && (!games_tally_init_for(&W.tally, 4096) || !watch_add("fuzz.live")))
        return NULL;
    pthread_mutex_lock(&W.lock);
    watch_file_t *f = W.files[0];
    cut = cut < size ? cut : size;
    feed(f, 0, data, cut);
    feed(f, 0, data + cut, size - cut);
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
    reset_all();
    pthread_mutex_unlock(&W.lock);
    return out;
}
