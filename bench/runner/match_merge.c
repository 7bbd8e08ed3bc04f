/*
 * match_merge.c: `denham-match --merge`: the games files of a match's
 * shards (--shard K/N) read back and added up as one match: W/D/L from the
 * first engine's view, pentanomial pairs (games 2k and 2k+1, the same
 * opening with the teams swapped), Elo, the SPRT's state, the endings.
 * Reads files only; plays nothing. Two-team games: the pairs and the Elo
 * are theirs.
 */
#define _POSIX_C_SOURCE 200809L
#include "match_merge.h"

#include <stdlib.h>
#include <string.h>

#include "../../engine/core/number.h"
#include "../../engine/games/variants.h"
#include "match.h"

#define MERGE_MAX_GAMES 1000000
#define MERGE_LINE_MAX (64 << 20)

typedef struct merge {
    match_cfg_t cfg;
    signed char *score; /* by game index: +1 the first engine won, 0 draw, -1 lost, 2 absent */
    int max_index;      /* the highest index seen, from 0 */
    match_summary_t sum;
    FILE *err;
} merge_t;

static bool fail(merge_t *m, const char *path, long line, const char *why)
{
    fprintf(m->err, "denham-match: %s:%ld: %s\n", path, line, why);
    return false;
}

/* Splits a games-file line at its tabs; the number of fields. */
static int split_tabs(char *line, char **field, int max)
{
    int n = 0;
    for (char *c = line; n < max;) {
        field[n++] = c;
        c = strchr(c, '\t');
        if (!c)
            break;
        *c++ = 0;
    }
    return n;
}

/* The engines of game `index` (from 0): p1 is the first engine's in even
 * games, the second's in odd ones (the teams swap within a pair). */
static bool check_names(merge_t *m, int index, const char *p1, const char *p2)
{
    engine_cfg_t *e = m->cfg.engines;
    const char *first = index % 2 == 0 ? p1 : p2, *second = index % 2 == 0 ? p2 : p1;
    if (!e[0].name[0]) {
        snprintf(e[0].name, sizeof e[0].name, "%s", first);
        snprintf(e[1].name, sizeof e[1].name, "%s", second);
    }
    return strcmp(e[0].name, first) == 0 && strcmp(e[1].name, second) == 0;
}

static void count_ending(match_summary_t *sum, const char *reason)
{
    int k = 0;
    while (k < sum->n_endings && strcmp(sum->ending[k], reason) != 0)
        k++;
    if (k == sum->n_endings && k < MATCH_MAX_ENDINGS)
        snprintf(sum->ending[sum->n_endings++], sizeof sum->ending[0], "%s", reason);
    if (k < MATCH_MAX_ENDINGS)
        sum->ending_count[k]++;
}

/* One game line into m. */
static bool add_game(merge_t *m, char *line, const char *path, long no)
{
    char *f[8];
    long long index;
    if (split_tabs(line, f, 8) != 8 || !number_parse(f[0], 1, MERGE_MAX_GAMES, &index))
        return fail(m, path, no, "not a games-file line (index, variant, p1, p2, result, reason, opening, game)");
    const game_t *g = variants_find(f[1]);
    if (!g)
        return fail(m, path, no, "unknown variant");
    if (m->cfg.game && g != m->cfg.game)
        return fail(m, path, no, "another variant than the lines before: shards of another match");
    if (game_teams(g) > 2)
        return fail(m, path, no, "free-for-all games have no pairs or Elo to merge");
    m->cfg.game = g;
    int i = (int)index - 1;
    if (!check_names(m, i, f[2], f[3]))
        return fail(m, path, no, "other engines than the lines before: shards of another match");
    if (m->score[i] != 2)
        return fail(m, path, no, "this game is in the shards twice");
    int p1 = strcmp(f[4], "1-0") == 0 ? 1 : strcmp(f[4], "0-1") == 0 ? -1 : strcmp(f[4], "1/2-1/2") == 0 ? 0 : 2;
    if (p1 == 2)
        return fail(m, path, no, "the result must be 1-0, 0-1 or 1/2-1/2");
    signed char s = (signed char)(i % 2 == 0 ? p1 : -p1);
    m->score[i] = s;
    m->max_index = i > m->max_index ? i : m->max_index;
    match_summary_t *sum = &m->sum;
    sum->games_played++;
    if (s > 0) sum->wdl.wins++;
    else if (s < 0) sum->wdl.losses++;
    else sum->wdl.draws++;
    sum->engine_wins[s > 0 ? 0 : 1] += s != 0;
    count_ending(sum, f[5]);
    return true;
}

static bool read_games(merge_t *m, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(m->err, "denham-match: cannot open %s\n", path);
        return false;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    bool ok = true;
    for (long no = 1; ok && (len = getline(&line, &cap, f)) >= 0; no++) {
        if (len > MERGE_LINE_MAX) {
            ok = fail(m, path, no, "line too long");
            break;
        }
        line[strcspn(line, "\r\n")] = 0;
        if (line[0])
            ok = add_game(m, line, path, no);
    }
    free(line);
    fclose(f);
    return ok;
}

/* The pairs both of whose games are in, and the SPRT on them. */
static void pairs_and_sprt(merge_t *m)
{
    match_summary_t *sum = &m->sum;
    for (int i = 0; i + 1 <= m->max_index; i += 2)
        if (m->score[i] != 2 && m->score[i + 1] != 2)
            sum->penta.n[m->score[i] + m->score[i + 1] + 2]++;
    if (!m->cfg.sprt_on)
        return;
    double lo, hi;
    sum->llr = stats_sprt_llr(&sum->penta, &m->cfg.sprt);
    stats_sprt_bounds(&m->cfg.sprt, &lo, &hi);
    sum->sprt_decision = sum->llr >= hi ? 1 : sum->llr <= lo ? -1 : 0;
}

int match_merge_main(int argc, char **argv, FILE *out, FILE *err)
{
    merge_t *m = calloc(1, sizeof *m);
    signed char *score = malloc(MERGE_MAX_GAMES);
    if (!m || !score) {
        free(m);
        free(score);
        fprintf(err, "denham-match: out of memory\n");
        return 1;
    }
    memset(score, 2, MERGE_MAX_GAMES);
    m->score = score;
    m->err = err;
    m->cfg.n_engines = 2;
    m->cfg.shard_k = m->cfg.shard_n = 1;
    int status = 0, files = 0;
    for (int i = 0; i < argc && status == 0; i++) {
        if (strcmp(argv[i], "--sprt") == 0 && i + 4 < argc) {
            char *end[4];
            m->cfg.sprt = (sprt_t){strtod(argv[i + 1], &end[0]), strtod(argv[i + 2], &end[1]),
                                   strtod(argv[i + 3], &end[2]), strtod(argv[i + 4], &end[3])};
            bool ok = !*end[0] && !*end[1] && !*end[2] && !*end[3] && m->cfg.sprt.alpha > 0 &&
                      m->cfg.sprt.alpha < 1 && m->cfg.sprt.beta > 0 && m->cfg.sprt.beta < 1 &&
                      m->cfg.sprt.elo1 != m->cfg.sprt.elo0;
            if (!ok) {
                fprintf(err, "denham-match: bad --sprt values\n");
                status = 2;
            }
            m->cfg.sprt_on = true;
            i += 4;
        } else if (strncmp(argv[i], "--", 2) == 0) {
            fprintf(err, "denham-match: --merge takes games files and --sprt ELO0 ELO1 ALPHA BETA, not %s\n", argv[i]);
            status = 2;
        } else {
            files++;
            status = read_games(m, argv[i]) ? 0 : 2;
        }
    }
    if (status == 0 && (files == 0 || m->sum.games_played == 0)) {
        fprintf(err, "denham-match: --merge needs games files with at least one game\n");
        status = 2;
    }
    if (status == 0) {
        pairs_and_sprt(m);
        match_print_results(&m->cfg, &m->sum, out);
    }
    free(score);
    free(m);
    return status;
}
