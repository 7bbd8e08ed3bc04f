/*
 * live_file.c: writes denham-match's live file (live_file.h). Knows the
 * line format only: no game, no engine, no reading.
 */
#define _POSIX_C_SOURCE 200809L
#include "live_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool live_open(live_file_t *l, const char *path)
{
    l->fd = -1;
    l->path = path;
    l->opened = true;
    pthread_mutex_init(&l->lock, NULL);
    if (!path)
        return true;
    l->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (l->fd < 0)
        fprintf(stderr, "denham-match: cannot write %s\n", path);
    l->on = l->fd >= 0;
    return l->on;
}

void live_close(live_file_t *l)
{
    if (!l->opened)
        return;
    if (l->fd >= 0)
        close(l->fd);
    l->fd = -1;
    l->on = l->opened = false;
    pthread_mutex_destroy(&l->lock);
}

static bool add_field(textbuf_t *t, const char *field)
{
    size_t from = t->len;
    if ((from > 0 && !textbuf_add(t, "\t")) || !textbuf_add(t, field))
        return false;
    for (size_t i = from + (from > 0); i < t->len; i++)
        if (t->s[i] == '\t' || t->s[i] == '\n' || t->s[i] == '\r')
            t->s[i] = ' ';
    return true;
}

void live_write(live_file_t *l, textbuf_t *t, const char *const *fields, int n)
{
    if (!l->on)
        return;
    textbuf_clear(t);
    bool ok = true;
    for (int i = 0; ok && i < n; i++)
        ok = add_field(t, fields[i]);
    ok = ok && textbuf_add(t, "\n");
    pthread_mutex_lock(&l->lock);
    for (size_t done = 0; ok && l->fd >= 0 && done < t->len;) {
        ssize_t w = write(l->fd, t->s + done, t->len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            fprintf(stderr, "denham-match: cannot write %s (%s): no longer written\n", l->path, strerror(errno));
            close(l->fd);
            l->fd = -1;
        }
        done += w > 0 ? (size_t)w : 0;
    }
    pthread_mutex_unlock(&l->lock);
}

void live_header(live_file_t *l, const match_cfg_t *cfg, int total_games, int shard_games)
{
    char games[16], shard_count[16], shard[32], sprt[128] = "-";
    snprintf(games, sizeof games, "%d", total_games);
    snprintf(shard_count, sizeof shard_count, "%d", shard_games);
    snprintf(shard, sizeof shard, "%d/%d", cfg->shard_k, cfg->shard_n);
    if (cfg->sprt_on)
        snprintf(sprt, sizeof sprt, "%g %g %g %g", cfg->sprt.elo0, cfg->sprt.elo1, cfg->sprt.alpha, cfg->sprt.beta);
    const char *f[7 + MATCH_MAX_ENGINES] = {"match", LIVE_FORMAT, cfg->game->name, games, shard_count, shard, sprt};
    int n = 7;
    for (int e = 0; e < cfg->n_engines && e < MATCH_MAX_ENGINES; e++)
        f[n++] = cfg->engines[e].name;
    textbuf_t t = {0};
    live_write(l, &t, f, n);
    textbuf_free(&t);
}

void live_note_score(const char *info, char *score, size_t score_len, char *depth, size_t depth_len)
{
    const char *sc = strstr(info, " score "), *d = strstr(info, " depth "), *mpv = strstr(info, " multipv ");
    char kind[8], after[16] = "";
    long long v, dp = -1;
    if (!sc || (mpv && atoi(mpv + 9) != 1) || sscanf(sc + 7, "%7s %lld %15s", kind, &v, after) < 2 ||
        (strcmp(kind, "cp") != 0 && strcmp(kind, "mate") != 0) || strstr(after, "bound"))
        return;
    if (d && sscanf(d + 7, "%lld", &dp) != 1)
        dp = -1;
    snprintf(score, score_len, "%s %lld", kind, v);
    if (dp >= 0)
        snprintf(depth, depth_len, "%lld", dp);
    else
        snprintf(depth, depth_len, "-");
}
