/*
 * watch_live.c: the live-file reader of `denham serve --watch FILE`
 * (PROTOCOL.md, "Watching a match"). A thread polls the live files named
 * on the command line, and only those (no request names a path), reading
 * whole lines from where it left off, every size and count bounded. Each
 * game in progress is kept as a record of the engine library, with both
 * engines' last scores; finished games are added up by the runner's own
 * games_tally.c (W/D/L, pairs, SPRT; shards' files as one match, as
 * `denham-match --merge` does) and kept for replay. After each look that
 * changed something it tells watch.c, which makes the page's JSON.
 *
 * Reaches the games only through game_t and the record (always under the
 * lock), the statistics only through games_tally.h; starts no engine,
 * sees no connection or session.
 */
#define _POSIX_C_SOURCE 200809L
#include "watch_live.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../engine/core/number.h"
#include "../../engine/games/variants.h"

watch_state_t watch_state = {.lock = PTHREAD_MUTEX_INITIALIZER};

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
    unsigned long long told = W.version + 1; /* told at the start */
    while (!atomic_load(&W.stopping)) {
        for (int i = 0; i < W.n_files && !atomic_load(&W.stopping); i++)
            poll_file(i, buf);
        pthread_mutex_lock(&W.lock);
        if (W.version != told) {
            told = W.version;
            W.changed();
        }
        pthread_mutex_unlock(&W.lock);
        /* A look every WATCH_POLL_MS, the stop seen within a fifth of it. */
        for (int k = 0; k < 5 && !atomic_load(&W.stopping); k++) {
            struct timespec nap = {0, WATCH_POLL_MS / 5 * 1000000L};
            nanosleep(&nap, NULL);
        }
    }
    free(buf);
    return NULL;
}

bool watch_live_start(void (*changed)(void))
{
    W.changed = changed;
    if (W.n_files == 0)
        return true;
    char *buf = malloc(WATCH_READ_MAX);
    if (!buf || !games_tally_init(&W.tally)) {
        free(buf);
        return false;
    }
    pthread_mutex_lock(&W.lock);
    W.changed();
    pthread_mutex_unlock(&W.lock);
    if (pthread_create(&W.poller, NULL, poller, buf) != 0) {
        free(buf);
        games_tally_free(&W.tally);
        return false;
    }
    W.running = true;
    return true;
}

void watch_live_stop(void)
{
    if (!W.running)
        return;
    atomic_store(&W.stopping, true);
    pthread_join(W.poller, NULL);
    W.running = false;
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

/* ---- for the fuzz target, through watch.c (W.lock held) ---- */

void watch_live_feed(int fi, const char *buf, size_t len)
{
    feed(W.files[fi], fi, buf, len);
}

void watch_live_reset(void)
{
    reset_all();
}
