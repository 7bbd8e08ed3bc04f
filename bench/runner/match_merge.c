/*
 * match_merge.c: `denham-match --merge`: the games files of a match's
 * shards (--shard K/N), or of one run, read back and added up as one
 * match, summed up as one run sums it up. Every file must say which match
 * it is part of (games_file.h) and hold every game of its shard; what
 * cannot be counted exactly is refused, each missing game named. Reads
 * files only; plays nothing; the adding up is games_tally.c's, the
 * header's format games_file.c's. Two-team games: the pairs and the Elo
 * are theirs.
 */
#define _POSIX_C_SOURCE 200809L
#include "match_merge.h"

#include <stdlib.h>
#include <string.h>

#include "../../engine/core/number.h"
#include "games_file.h"
#include "games_tally.h"

#define MERGE_LINE_MAX (64 << 20)
#define MERGE_RANGES_SHOWN 20

typedef struct merge_file {
    char name[256];
    games_header_t header;
    int lines;          /* game lines read */
    int over_games;     /* -1: no #over line */
    char how[32];       /* #over's: complete, H1 accepted, H0 accepted, interrupted */
} merge_file_t;

struct merge {
    games_tally_t tally;
    FILE *err;
    bool partial;
    bool sprt_given; /* --sprt */
    sprt_t sprt;
    int n_files;
    merge_file_t *files;
};

static bool refuse(merge_t *m, const char *path, long line, const char *why)
{
    if (line > 0)
        fprintf(m->err, "denham-match: %s:%ld: %s\n", path, line, why);
    else
        fprintf(m->err, "denham-match: %s: %s\n", path, why);
    return false;
}

merge_t *merge_new(FILE *err, bool partial, const sprt_t *sprt)
{
    merge_t *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->err = err; /* the tally comes with the first header: as many games as it says */
    m->partial = partial;
    if (sprt) {
        m->sprt_given = true;
        m->sprt = *sprt;
    }
    return m;
}

void merge_free(merge_t *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->n_files; i++)
        games_header_free(&m->files[i].header);
    free(m->files);
    games_tally_free(&m->tally);
    free(m);
}

/* The first file sets the match: its variant, engines, SPRT and whether
 * its games are one run's, checked in order (games_tally.h); the others
 * must be of the same match, each shard once. */
static bool take_header(merge_t *m, merge_file_t *f)
{
    const games_header_t *h = &f->header;
    const char *why = games_header_check(h);
    if (why)
        return refuse(m, f->name, 0, why);
    if (game_teams(h->game) > 2)
        return refuse(m, f->name, 0, "free-for-all games have no pairs or Elo to merge");
    if (h->n_engines != 2)
        return refuse(m, f->name, 0, "a match of two engines is merged, not of more");
    if (m->n_files > 1) {
        const merge_file_t *first = &m->files[0];
        char diff[512], msg[1024];
        if (games_header_compare(&first->header, h, diff, sizeof diff)) {
            snprintf(msg, sizeof msg, "another match than %s: %s", first->name, diff);
            return refuse(m, f->name, 0, msg);
        }
        for (int i = 0; i + 1 < m->n_files; i++)
            if (m->files[i].header.shard_k == h->shard_k) {
                snprintf(msg, sizeof msg, "shard %d/%d again (%s is that shard)", h->shard_k, h->shard_n,
                         m->files[i].name);
                return refuse(m, f->name, 0, msg);
            }
        if (!m->sprt_given && (first->header.has_sprt != h->has_sprt ||
                               (h->has_sprt && memcmp(&first->header.sprt, &h->sprt, sizeof h->sprt) != 0)))
            return refuse(m, f->name, 0, "another #sprt than the first file's: say which with --sprt");
        return true;
    }
    games_tally_t *t = &m->tally;
    if (!games_tally_init_for(t, h->games))
        return refuse(m, f->name, 0, "out of memory");
    t->replay = true;
    t->final = true;
    t->cfg.game = h->game;
    for (int e = 0; e < 2; e++)
        snprintf(t->cfg.engines[e].name, sizeof t->cfg.engines[e].name, "%s", h->engines[e]);
    t->cfg.n_engines = 2;
    t->cfg.sprt_on = m->sprt_given || h->has_sprt;
    t->cfg.sprt = m->sprt_given ? m->sprt : h->sprt;
    t->sequential = h->shard_n == 1;
    return true;
}

/* One game line of file f (line `no`). */
static bool take_game(merge_t *m, merge_file_t *f, char *line, long no)
{
    const games_header_t *h = &f->header;
    const char *c = line;
    long long index;
    char msg[200];
    if (!number_read(&c, 1, GAMES_TALLY_MAX, &index) || *c != '\t')
        return refuse(m, f->name, no, "not a games-file line (index, variant, p1, p2, result, reason, opening, game)");
    if (!games_tally_in_match((int)index - 1, h->games, 2, h->shard_k, h->shard_n)) {
        snprintf(msg, sizeof msg, "game %lld is not one of shard %d/%d's games of a match of %d", index, h->shard_k,
                 h->shard_n, h->games);
        return refuse(m, f->name, no, msg);
    }
    const char *why = games_tally_add(&m->tally, line);
    if (why)
        return refuse(m, f->name, no, why);
    f->lines++;
    return true;
}

/* #over or #failed, the file's last line. */
static bool take_end(merge_t *m, merge_file_t *f, char *line, long no)
{
    char *fld[4];
    int n = games_tally_split(line, fld, 4);
    long long played;
    if (strcmp(fld[0], "#failed") == 0) {
        char msg[400];
        snprintf(msg, sizeof msg, "the run stopped on an error: %.300s", n > 1 ? fld[1] : "");
        return refuse(m, f->name, no, msg);
    }
    if (strcmp(fld[0], "#over") != 0)
        return refuse(m, f->name, no, "a header line among the games (only #over or #failed may follow them)");
    if (n != 3 || !number_parse(fld[1], 0, GAMES_TALLY_MAX, &played) ||
        !(strcmp(fld[2], "complete") == 0 || strcmp(fld[2], "H1 accepted") == 0 ||
          strcmp(fld[2], "H0 accepted") == 0 || strcmp(fld[2], "interrupted") == 0))
        return refuse(m, f->name, no,
                      "#over is: the games written, then complete, H1 accepted, H0 accepted or interrupted");
    f->over_games = (int)played;
    snprintf(f->how, sizeof f->how, "%s", fld[2]);
    if (played != f->lines) {
        char msg[160];
        snprintf(msg, sizeof msg, "its last line says %lld games, it holds %d (a line lost?)", played, f->lines);
        return refuse(m, f->name, no, msg);
    }
    return true;
}

bool merge_read(merge_t *m, FILE *in, const char *name)
{
    merge_file_t *grown = realloc(m->files, (size_t)(m->n_files + 1) * sizeof *grown);
    if (!grown)
        return refuse(m, name, 0, "out of memory");
    m->files = grown;
    merge_file_t *f = &m->files[m->n_files++];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    f->over_games = -1;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    bool ok = true, in_header = true, ended = false;
    long no = 0;
    while (ok && (len = getline(&line, &cap, in)) >= 0) {
        no++;
        if (len > MERGE_LINE_MAX) {
            ok = refuse(m, name, no, "a line longer than 64 MiB");
            break;
        }
        if (strlen(line) != (size_t)len) {
            ok = refuse(m, name, no, "a NUL byte: the file is damaged (a block of zeros?)");
            break;
        }
        /* The runner ends every line it writes: a last line without its end
         * was cut (a copy stopped, a disk full), whatever its fields say. */
        if (line[len - 1] != '\n') {
            ok = refuse(m, name, no, "the file ends inside this line (cut: a copy stopped, a disk full?)");
            break;
        }
        line[strcspn(line, "\r\n")] = 0;
        if (ended) {
            ok = refuse(m, name, no, "a line after the run's last line (#over)");
        } else if (in_header && line[0] == '#' && strncmp(line, "#over\t", 6) != 0 &&
                   strncmp(line, "#failed\t", 8) != 0) {
            const char *why = games_header_add(&f->header, line);
            ok = why ? refuse(m, name, no, why) : true;
        } else {
            if (in_header) {
                in_header = false;
                ok = (f->header.n_lines ||
                      refuse(m, name, no,
                             "no header: a games file of a denham-match older than format 1, or not a games file; "
                             "--merge cannot tell which match it is part of")) &&
                     take_header(m, f);
            }
            if (!ok || !line[0])
                continue;
            if (line[0] == '#') {
                ok = take_end(m, f, line, no);
                ended = true;
            } else {
                ok = take_game(m, f, line, no);
            }
        }
    }
    if (ok && in_header)
        ok = (no > 0 ? (f->header.n_lines > 0 || refuse(m, name, 0, "no header")) : refuse(m, name, 0, "empty")) &&
             take_header(m, f);
    free(line);
    return ok;
}

/* Writes "5-6, 11-12, ..." for the games (from 0) that `missing` picks
 * among [from, to), at most MERGE_RANGES_SHOWN ranges; their count. */
typedef bool (*pick_fn)(const merge_t *m, const merge_file_t *f, int index);

static int name_games(const merge_t *m, const merge_file_t *f, pick_fn missing, int from, int to, char *out,
                      size_t len)
{
    size_t n = 0;
    int count = 0, ranges = 0;
    out[0] = 0;
    for (int i = from; i < to; i++) {
        if (!missing(m, f, i))
            continue;
        int j = i;
        while (j + 1 < to && missing(m, f, j + 1))
            j++;
        count += j - i + 1;
        if (ranges++ < MERGE_RANGES_SHOWN) {
            if (j > i)
                n += (size_t)snprintf(out + n, n < len ? len - n : 0, "%s%d-%d", n ? ", " : "", i + 1, j + 1);
            else
                n += (size_t)snprintf(out + n, n < len ? len - n : 0, "%s%d", n ? ", " : "", i + 1);
        }
        i = j;
    }
    if (ranges > MERGE_RANGES_SHOWN)
        snprintf(out + n, n < len ? len - n : 0, ", ... (%d games in all)", count);
    return count;
}

/* A game of f's shard that is not in. */
static bool missing_in_file(const merge_t *m, const merge_file_t *f, int i)
{
    const games_header_t *h = &f->header;
    return games_tally_in_match(i, h->games, 2, h->shard_k, h->shard_n) && m->tally.score[i] == 2;
}

/* A game of a shard no file gave. */
static bool missing_shard(const merge_t *m, const merge_file_t *f, int i)
{
    const games_header_t *h = &f->header;
    if (i >= h->games)
        return false;
    int k = (i / 2) % h->shard_n + 1;
    for (int j = 0; j < m->n_files; j++)
        if (m->files[j].header.shard_k == k)
            return false;
    return true;
}

/* Every game of each file's shard is in, or the run stopped early and
 * said so (#over: a decision or Ctrl-C; the games missing then are those
 * never started, after the last one in). */
static bool check_file(merge_t *m, const merge_file_t *f)
{
    const games_header_t *h = &f->header;
    char games[600], msg[900];
    bool stopped = f->over_games >= 0 && strcmp(f->how, "complete") != 0;
    int missing = name_games(m, f, missing_in_file, 0, h->games, games, sizeof games);
    if (stopped && h->shard_n > 1) {
        snprintf(msg, sizeof msg, "shard %d/%d was stopped (%s) before its end: games %s missing", h->shard_k,
                 h->shard_n, f->how, games);
        return refuse(m, f->name, 0, msg);
    }
    if (stopped) {
        int last = m->tally.max_index;
        if (name_games(m, f, missing_in_file, 0, last, games, sizeof games) > 0) {
            snprintf(msg, sizeof msg, "games %s missing before game %d", games, last + 1);
            return refuse(m, f->name, 0, msg);
        }
        int decision = strcmp(f->how, "H1 accepted") == 0 ? 1 : strcmp(f->how, "H0 accepted") == 0 ? -1 : 0;
        if (decision && m->tally.sum.sprt_decision != decision) {
            snprintf(msg, sizeof msg,
                     "the run was stopped when its SPRT %s; with this SPRT it %s: the games it would have played "
                     "next are not there",
                     f->how, m->tally.sum.sprt_decision ? "decides otherwise" : "does not decide");
            return refuse(m, f->name, 0, msg);
        }
        return true;
    }
    if (missing > 0) {
        snprintf(msg, sizeof msg, "%s: games %s missing",
                 f->over_games < 0 ? "the run did not finish (no #over line: killed, or still playing)"
                                   : "the file was cut short",
                 games);
        return refuse(m, f->name, 0, msg);
    }
    return true;
}

int merge_finish(merge_t *m, FILE *out)
{
    if (m->n_files == 0) {
        fprintf(m->err, "denham-match: --merge needs games files\n");
        return MATCH_EXIT_BAD_INPUT;
    }
    for (int i = 0; i < m->n_files; i++)
        if (!check_file(m, &m->files[i]))
            return MATCH_EXIT_BAD_INPUT;
    const games_header_t *h = &m->files[0].header;
    char games[600];
    int absent = name_games(m, &m->files[0], missing_shard, 0, h->games, games, sizeof games);
    match_summary_t *sum = &m->tally.sum;
    if (absent > 0 && !m->partial) {
        fprintf(m->err, "denham-match: %d of %d shards given: games %s missing (--partial merges the shards given)\n",
                m->n_files, h->shard_n, games);
        return MATCH_EXIT_BAD_INPUT;
    }
    if (absent > 0) {
        sum->shards_merged = m->n_files;
        sum->shards_total = h->shard_n;
    }
    if (sum->games_played + sum->after_games == 0) {
        fprintf(m->err, "denham-match: --merge found no game in the files\n");
        return MATCH_EXIT_BAD_INPUT;
    }
    sum->interrupted = m->n_files == 1 && strcmp(m->files[0].how, "interrupted") == 0;
    games_tally_pairs(&m->tally);
    match_print_summary(&m->tally.cfg, sum, out);
    return m->tally.cfg.sprt_on && !sum->sprt_decision ? MATCH_EXIT_NO_DECISION : MATCH_EXIT_OK;
}

int match_merge_main(int argc, char **argv, FILE *out, FILE *err)
{
    bool partial = false, sprt_given = false;
    sprt_t sprt;
    int files = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--sprt") == 0) {
            const char *words[4] = {NULL, NULL, NULL, NULL};
            for (int k = 0; k < 4 && i + 1 + k < argc; k++)
                words[k] = argv[i + 1 + k];
            const char *why = stats_sprt_parse(words, &sprt);
            if (why) {
                fprintf(err, "denham-match: %s\n", why);
                return MATCH_EXIT_BAD_INPUT;
            }
            sprt_given = true;
            i += 4;
        } else if (strcmp(argv[i], "--partial") == 0) {
            partial = true;
        } else if (strncmp(argv[i], "--", 2) == 0) {
            fprintf(err, "denham-match: --merge takes games files, --partial and --sprt ELO0 ELO1 ALPHA BETA, not %s\n",
                    argv[i]);
            return MATCH_EXIT_BAD_INPUT;
        } else {
            files++;
        }
    }
    merge_t *m = merge_new(err, partial, sprt_given ? &sprt : NULL);
    if (!m) {
        fprintf(err, "denham-match: out of memory\n");
        return MATCH_EXIT_FAILED;
    }
    bool ok = files > 0;
    for (int i = 0; ok && i < argc; i++) {
        if (strcmp(argv[i], "--sprt") == 0) {
            i += 4;
            continue;
        }
        if (strcmp(argv[i], "--partial") == 0)
            continue;
        FILE *f = fopen(argv[i], "r");
        ok = f ? merge_read(m, f, argv[i]) : refuse(m, argv[i], 0, "cannot be opened");
        if (f)
            fclose(f);
    }
    int status = ok || files == 0 ? merge_finish(m, out) : MATCH_EXIT_BAD_INPUT;
    merge_free(m);
    return status;
}
