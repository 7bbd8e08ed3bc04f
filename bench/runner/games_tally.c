/*
 * games_tally.c: games added up (games_tally.h). Reads text only: no file,
 * no engine, no printing (match.c and match_merge.c print, and
 * protocol/serve/watch.c shows the same numbers in a page).
 */
#include "games_tally.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/core/number.h"
#include "../../engine/games/variants.h"

enum { ABSENT = 2, APART = 3 };

bool games_tally_init_for(games_tally_t *t, int games)
{
    memset(t, 0, sizeof *t);
    assert(games > 0 && games <= GAMES_TALLY_SLOTS);
    t->slots = games + 1; /* the last game's pair mate, index ^ 1, too */
    t->score = malloc((size_t)t->slots);
    if (!t->score)
        return false;
    games_tally_clear(t);
    return true;
}

bool games_tally_init(games_tally_t *t) { return games_tally_init_for(t, GAMES_TALLY_SLOTS); }

void games_tally_clear(games_tally_t *t)
{
    memset(t->score, ABSENT, (size_t)t->slots);
    t->max_index = 0;
    t->unpaired = 0;
    memset(&t->sum, 0, sizeof t->sum);
    t->cfg.game = NULL;
    t->cfg.sprt_on = false;
    for (int e = 0; e < MATCH_MAX_ENGINES; e++)
        t->cfg.engines[e].name[0] = 0;
    t->cfg.n_engines = 2;
    t->cfg.shard_k = t->cfg.shard_n = 1;
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

bool games_tally_in_match(int index, int games, int group, int shard_k, int shard_n)
{
    return index >= 0 && index < games && (shard_n <= 1 || (index / group) % shard_n == shard_k - 1);
}

int games_tally_forfeit_kind(const char *reason)
{
    return strncmp(reason, "time forfeit", 12) == 0   ? 1
           : strncmp(reason, "illegal move", 12) == 0 ? 2
           : strncmp(reason, "crash", 5) == 0         ? 3
                                                      : 0;
}

void games_tally_ending(match_summary_t *sum, const char *reason)
{
    int k = 0;
    while (k < sum->n_endings && strcmp(sum->ending[k], reason) != 0)
        k++;
    if (k == sum->n_endings && k < MATCH_MAX_ENDINGS)
        snprintf(sum->ending[sum->n_endings++], sizeof sum->ending[0], "%s", reason);
    if (k < MATCH_MAX_ENDINGS)
        sum->ending_count[k]++;
}

void games_tally_passes(match_summary_t *sum, const record_t *rec, int from_ply)
{
    const game_t *g = rec->game;
    position_t pos = rec->start;
    bool skipped = false;
    for (int i = 0; i < rec->plies; i++) {
        undo_t u;
        if (i >= from_ply) {
            char text[GAME_MOVE_TEXT_MAX];
            g->move_text(&pos, rec->moves[i], text, sizeof text);
            sum->passes += strncmp(text, "pass", 4) == 0;
        }
        g->make(&pos, rec->moves[i], &u);
        skipped |= i >= from_ply && game_players_in(g, &pos) != game_players_in(g, &rec->start);
    }
    sum->games_with_players_out += skipped;
}

static void add_result(wdl_t *r, int s)
{
    if (s > 0) r->wins++;
    else if (s < 0) r->losses++;
    else r->draws++;
}

bool games_tally_count(games_tally_t *t, int index, int s)
{
    match_summary_t *sum = &t->sum;
    assert(index >= 0 && index < t->slots);
    t->max_index = index > t->max_index ? index : t->max_index;
    if (t->sequential && sum->sprt_decision) { /* the decision stands: this game is recorded apart */
        t->score[index] = APART;
        sum->after_games++;
        add_result(&sum->after, s);
        return false;
    }
    t->score[index] = (signed char)s;
    sum->games_played++;
    add_result(&sum->wdl, s);
    if (!t->cfg.game || game_teams(t->cfg.game) > 2)
        return true; /* free-for-all: no pairs */
    signed char mate = t->score[index ^ 1];
    if (mate == ABSENT || mate == APART) {
        t->unpaired++;
        return true;
    }
    t->unpaired--;
    sum->penta.n[s + mate + 2]++;
    if (t->sequential && t->cfg.sprt_on) {
        sum->llr = stats_sprt_llr(&sum->penta, &t->cfg.sprt);
        sum->sprt_decision = stats_sprt_decide(sum->llr, &t->cfg.sprt);
    }
    return true;
}

void games_tally_pairs(games_tally_t *t)
{
    match_summary_t *sum = &t->sum;
    sum->llr_of_games = false;
    if (!t->cfg.sprt_on) {
        sum->llr = 0.0;
        sum->sprt_decision = 0;
        return;
    }
    if (t->sequential && sum->sprt_decision)
        return; /* the decision stands, with the LLR that made it */
    if (t->final && t->unpaired > 0) {
        sum->llr = stats_sprt_llr_wdl(sum->wdl, &t->cfg.sprt);
        sum->llr_of_games = true;
    } else if (!t->sequential) {
        sum->llr = stats_sprt_llr(&sum->penta, &t->cfg.sprt);
    }
    /* A sequential count was checked at every pair: it decides nowhere else. */
    if (!t->sequential)
        sum->sprt_decision = stats_sprt_decide(sum->llr, &t->cfg.sprt);
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

/* The forfeits and the seats of a counted game, from its line: the winner
 * sits in the first seat of its team, unless it won by a forfeit (as the
 * runner counts them, match.c). */
static void count_seats(games_tally_t *t, int index, int s, const char *reason)
{
    const game_t *g = t->cfg.game;
    match_summary_t *sum = &t->sum;
    int winner = s > 0 ? 0 : s < 0 ? 1 : -1, kind = games_tally_forfeit_kind(reason);
    if (winner >= 0)
        sum->engine_wins[winner]++;
    if (kind && winner >= 0) {
        int *counter = kind == 1 ? sum->time_losses : kind == 2 ? sum->illegal_losses : sum->crash_losses;
        counter[1 - winner]++;
    }
    int winner_seat = -1;
    for (int seat = 0; seat < g->players; seat++) {
        int e = (index + g->team_of[seat]) % 2;
        sum->seat_games[e][seat]++;
        if (winner_seat < 0 && !kind && e == winner) {
            winner_seat = seat;
            sum->seat_wins[e][seat]++;
        }
    }
}

/* Passes and players out, from the game replayed (t->replay). */
static void count_passes(games_tally_t *t, const char *opening, const char *game)
{
    static record_t rec; /* one thread: the merge */
    char err[GAME_FEN_MAX + 200];
    if (!record_setup(&rec, t->cfg.game, opening, err, sizeof err) && rec.forfeit_by < 0)
        return;
    int from = rec.plies;
    if (record_setup(&rec, t->cfg.game, game, err, sizeof err) || rec.forfeit_by >= 0)
        games_tally_passes(&t->sum, &rec, from);
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
    if (i + 1 >= t->slots)
        return "a game beyond the match's games";
    if (!check_names(t, i, f[2], f[3]))
        return "other engines than the lines before: shards of another match";
    if (t->score[i] != ABSENT)
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
    int s = i % 2 == 0 ? p1 : -p1;
    if (!games_tally_count(t, i, s))
        return NULL;
    games_tally_ending(&t->sum, f[5]);
    count_seats(t, i, s, f[5]);
    if (t->replay && g->players > 2)
        count_passes(t, f[6], f[7]);
    return NULL;
}
