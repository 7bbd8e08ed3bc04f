/*
 * games_tally.c: games-file lines added up (games_tally.h). Reads text
 * only: no file, no engine, no printing (match_merge.c prints, and
 * protocol/serve/watch.c shows the same numbers in a page).
 */
#include "games_tally.h"

#include <stdlib.h>
#include <string.h>

#include "../../engine/core/number.h"
#include "../../engine/games/variants.h"

bool games_tally_init(games_tally_t *t)
{
    memset(t, 0, sizeof *t);
    t->score = malloc(GAMES_TALLY_MAX);
    if (!t->score)
        return false;
    memset(t->score, 2, GAMES_TALLY_MAX);
    t->cfg.n_engines = 2;
    t->cfg.shard_k = t->cfg.shard_n = 1;
    return true;
}

void games_tally_free(games_tally_t *t)
{
    free(t->score);
    t->score = NULL;
}

int games_tally_split(char *line, char **field, int max)
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
static bool check_names(games_tally_t *t, int index, const char *p1, const char *p2)
{
    engine_cfg_t *e = t->cfg.engines;
    const char *first = index % 2 == 0 ? p1 : p2, *second = index % 2 == 0 ? p2 : p1;
    if (!e[0].name[0])
        return true;
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

const char *games_tally_add(games_tally_t *t, char *line)
{
    char *f[8];
    long long index;
    if (games_tally_split(line, f, 8) != 8 || !number_parse(f[0], 1, GAMES_TALLY_MAX, &index))
        return "not a games-file line (index, variant, p1, p2, result, reason, opening, game)";
    const game_t *g = variants_find(f[1]);
    if (!g)
        return "unknown variant";
    if (t->cfg.game && g != t->cfg.game)
        return "another variant than the lines before: shards of another match";
    if (game_teams(g) > 2)
        return "free-for-all games have no pairs or Elo to merge";
    int i = (int)index - 1;
    if (!check_names(t, i, f[2], f[3]))
        return "other engines than the lines before: shards of another match";
    if (t->score[i] != 2)
        return "this game is in the shards twice";
    int p1 = strcmp(f[4], "1-0") == 0 ? 1 : strcmp(f[4], "0-1") == 0 ? -1 : strcmp(f[4], "1/2-1/2") == 0 ? 0 : 2;
    if (p1 == 2)
        return "the result must be 1-0, 0-1 or 1/2-1/2";
    t->cfg.game = g;
    engine_cfg_t *e = t->cfg.engines;
    if (!e[0].name[0]) {
        snprintf(e[0].name, sizeof e[0].name, "%s", i % 2 == 0 ? f[2] : f[3]);
        snprintf(e[1].name, sizeof e[1].name, "%s", i % 2 == 0 ? f[3] : f[2]);
    }
    signed char s = (signed char)(i % 2 == 0 ? p1 : -p1);
    t->score[i] = s;
    t->max_index = i > t->max_index ? i : t->max_index;
    match_summary_t *sum = &t->sum;
    sum->games_played++;
    if (s > 0) sum->wdl.wins++;
    else if (s < 0) sum->wdl.losses++;
    else sum->wdl.draws++;
    sum->engine_wins[s > 0 ? 0 : 1] += s != 0;
    count_ending(sum, f[5]);
    return NULL;
}

void games_tally_pairs(games_tally_t *t)
{
    match_summary_t *sum = &t->sum;
    memset(&sum->penta, 0, sizeof sum->penta);
    for (int i = 0; i + 1 <= t->max_index; i += 2)
        if (t->score[i] != 2 && t->score[i + 1] != 2)
            sum->penta.n[t->score[i] + t->score[i + 1] + 2]++;
    sum->llr = 0;
    sum->sprt_decision = 0;
    if (!t->cfg.sprt_on)
        return;
    double lo, hi;
    sum->llr = stats_sprt_llr(&sum->penta, &t->cfg.sprt);
    stats_sprt_bounds(&t->cfg.sprt, &lo, &hi);
    sum->sprt_decision = sum->llr >= hi ? 1 : sum->llr <= lo ? -1 : 0;
}
