/*
 * match.c: the tournament loop, the referee and the bookkeeping of
 * `denham-match`. Referees with the engine library's rules through game_t
 * and the registry; speaks to engines only through engine_proc.h, and
 * reads no command line (match_args.c does).
 */
#define _POSIX_C_SOURCE 200809L
#include "match.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/core/record.h"
#include "../../engine/core/rng.h"
#include "../../engine/core/timeman.h"
#include "../../protocol/common/engine_proc.h"
#include "../../engine/core/textbuf.h"
#include "games_file.h"
#include "games_tally.h"
#include "live_file.h"
#include "match_engine.h"

#define OPENING_TEXT MATCH_OPENING_TEXT

/* Set by match_interrupt (Ctrl-C, a signal handler: a lock-free atomic is
 * safe there), read by the workers: no game starts after it. */
static atomic_int interrupted;

void match_interrupt(void) { atomic_store(&interrupted, 1); }

/* Games come in groups that share an opening and, in games with dice, the
 * rolls. Two teams: a group is two games, engine 0 playing team 0 in the
 * first and team 1 in the second. More than two teams (free-for-all): a
 * group plays every seating pattern rotated through every seat. */
static bool free_for_all(const match_cfg_t *cfg) { return game_teams(cfg->game) > 2; }

static int group_size(const match_cfg_t *cfg)
{
    return free_for_all(cfg) ? cfg->n_seatings * cfg->game->players : 2;
}

static int team_engine(int index, int team) { return (index + team) % 2; }

/* The engine in each seat of game `index`. */
static void seat_engines(const match_cfg_t *cfg, int index, int *seat_engine)
{
    const game_t *g = cfg->game;
    int k = index % group_size(cfg), n = g->players;
    for (int s = 0; s < n; s++) {
        if (free_for_all(cfg)) {
            const char *pattern = cfg->seating[k / n];
            seat_engine[s] = pattern[(s - k % n + n) % n] - 'A';
        } else {
            seat_engine[s] = team_engine(index, g->team_of[s]);
        }
    }
}

/* Which of its engine's processes a seat uses: its rank among the seats
 * of the same engine, so that every seat has a process of its own. */
static int seat_slot(const int *seat_engine, int seat)
{
    int k = 0;
    for (int s = 0; s < seat; s++)
        k += seat_engine[s] == seat_engine[seat];
    return k;
}

typedef struct game_result {
    int winner_engine; /* -1: draw */
    int winner_seat;   /* a seat of the winner, or -1 */
    char reason[96];
    int loser_engine; /* for forfeits: the engine that lost, else -1 */
    int forfeit;      /* 0 none, 1 time, 2 illegal, 3 crash (games_tally_forfeit_kind reads them back) */
    bool void_game;   /* not played: the setting failed (match.c stops) */
} game_result_t;

typedef struct shared {
    const match_cfg_t *cfg;
    FILE *out;
    FILE *games_file;
    live_file_t live;
    char (*openings)[OPENING_TEXT];
    int n_openings;
    pthread_mutex_t lock;
    int next_game;
    int total_games;
    int shard_games; /* the games of this shard: total_games without shards */
    int written;     /* games finished and written, counted or apart */
    bool stop;
    /* The setting failed (an engine's handshake): the match is void, the
     * reason here; no game is counted after it. */
    bool failed;
    char failure[MATCH_ENGINE_WHY + 200];
    /* The games as they finish, and the SPRT's state: games_tally.c, which
     * the merge and the watch page use too. */
    games_tally_t tally;
} shared_t;

typedef struct worker {
    shared_t *sh;
    eproc_t eng[MATCH_MAX_ENGINES][MAX_PLAYERS]; /* [engine][slot] */
    record_t rec;
    int opening_plies; /* -1 until the opening is set up */
    char line[EPROC_LINE_MAX];
    /* "position <opening> moves ...": grown a move at a time, since a game
     * may be long (no rule ends Brax's two against one). */
    textbuf_t text;
    int text_plies;     /* record plies the text holds */
    position_t text_pos; /* the position after them */
    char score[40], depth[24]; /* the live file's score and depth of the last move: "cp 35" and "7", or "-" */
    textbuf_t live;     /* a line of the live file */
} worker_t;

/* ---- openings ---- */

static bool random_opening(const game_t *g, int plies, uint64_t seed, char *out, size_t len)
{
    static record_t r; /* openings are made before the workers start */
    rng_t rng = {seed};
    for (int attempt = 0; attempt < 1000; attempt++) {
        position_t start;
        g->set_start(&start);
        record_init(&r, g, &start);
        bool ok = true;
        for (int i = 0; i < plies && ok; i++) {
            move_t moves[MAX_MOVES];
            int n = record_legal_moves(&r, moves);
            ok = n > 0 && record_play(&r, moves[rng_below(&rng, (uint32_t)n)]);
        }
        if (ok && record_outcome(&r).kind == OUTCOME_NONE) {
            snprintf(out, len, "startpos");
            if (plies > 0)
                record_moves_text(&r, out, len);
            return true;
        }
    }
    return false;
}

bool match_read_openings(FILE *f, const game_t *g, const char *name, char (**openings)[MATCH_OPENING_TEXT],
                         int *n_openings)
{
    static record_t check; /* openings are read before the workers start */
    char *line = NULL;
    size_t len = 0;
    int cap = 0, lineno = 0;
    bool ok = true;
    *openings = NULL;
    *n_openings = 0;
    while (ok && getline(&line, &len, f) >= 0) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0] || line[0] == '#')
            continue;
        char err[GAME_FEN_MAX + 200];
        if (strlen(line) >= MATCH_OPENING_TEXT) {
            fprintf(stderr, "denham-match: %s line %d: longer than %d characters\n", name, lineno,
                    MATCH_OPENING_TEXT - 1);
            ok = false;
        } else if (!record_setup(&check, g, line, err, sizeof err)) {
            fprintf(stderr, "denham-match: %s line %d: %s\n", name, lineno, err);
            ok = false;
        } else if (*n_openings == cap) {
            cap = cap ? cap * 2 : 64;
            void *grown = realloc(*openings, (size_t)cap * sizeof **openings);
            if (grown)
                *openings = grown;
            ok = grown != NULL;
        }
        if (ok)
            snprintf((*openings)[(*n_openings)++], MATCH_OPENING_TEXT, "%s", line);
    }
    free(line);
    if (ok && *n_openings == 0) {
        fprintf(stderr, "denham-match: no openings in %s\n", name);
        ok = false;
    }
    if (!ok) {
        free(*openings);
        *openings = NULL;
        *n_openings = 0;
    }
    return ok;
}

/* A book is played in an order drawn from the seed (each line once before
 * any twice), so that a match of a few hundred games samples all of it;
 * every shard of a match draws the same order. */
static void shuffle_openings(shared_t *sh)
{
    rng_t rng = {sh->cfg->seed * 0x9E3779B97F4A7C15ull + 0xB00Cu};
    char tmp[OPENING_TEXT];
    for (int i = sh->n_openings - 1; i > 0; i--) {
        int j = (int)rng_below(&rng, (uint32_t)i + 1);
        memcpy(tmp, sh->openings[i], OPENING_TEXT);
        memcpy(sh->openings[i], sh->openings[j], OPENING_TEXT);
        memcpy(sh->openings[j], tmp, OPENING_TEXT);
    }
}

/* MATCH_EXIT_OK, or MATCH_EXIT_BAD_INPUT (a bad openings file or
 * --openings), with one line on stderr. */
static int load_openings(shared_t *sh)
{
    const match_cfg_t *cfg = sh->cfg;
    int pairs = sh->total_games / group_size(cfg);
    if (!cfg->openings_file) {
        sh->openings = calloc((size_t)pairs, sizeof *sh->openings);
        if (!sh->openings) {
            fprintf(stderr, "denham-match: out of memory\n");
            return MATCH_EXIT_FAILED;
        }
        for (int i = 0; i < pairs; i++) {
            rng_t mix = {cfg->seed * 1000003u + (uint64_t)i};
            if (!random_opening(cfg->game, cfg->random_plies, rng_next(&mix), sh->openings[i], OPENING_TEXT)) {
                fprintf(stderr, "denham-match: cannot find a random opening of %d plies\n", cfg->random_plies);
                return MATCH_EXIT_BAD_INPUT;
            }
        }
        sh->n_openings = pairs;
        return MATCH_EXIT_OK;
    }
    FILE *f = fopen(cfg->openings_file, "r");
    if (!f) {
        fprintf(stderr, "denham-match: cannot open openings file %s\n", cfg->openings_file);
        return MATCH_EXIT_BAD_INPUT;
    }
    bool ok = match_read_openings(f, cfg->game, cfg->openings_file, &sh->openings, &sh->n_openings);
    fclose(f);
    if (ok && cfg->openings_shuffled)
        shuffle_openings(sh);
    return ok ? MATCH_EXIT_OK : MATCH_EXIT_BAD_INPUT;
}

/* ---- engines ---- */

static bool engine_ready(worker_t *w, int e, int slot)
{
    eproc_t *p = &w->eng[e][slot];
    return eproc_send(p, "isready") &&
           eproc_wait_for(p, "readyok", w->line, sizeof w->line, timeman_now_ms() + MATCH_HANDSHAKE_MS) == EPROC_LINE;
}

/* The setting failed: the match stops, and is void (reported once). */
static void setting_failed(shared_t *sh, const char *why)
{
    pthread_mutex_lock(&sh->lock);
    if (!sh->failed)
        snprintf(sh->failure, sizeof sh->failure, "%s", why);
    sh->failed = sh->stop = true;
    pthread_mutex_unlock(&sh->lock);
}

/* Starts process `slot` of engine e if it is not running: its handshake,
 * variant and options (match_engine.c). False, with the match stopped,
 * when the engine fails it. */
static bool engine_up(worker_t *w, int e, int slot)
{
    const match_cfg_t *cfg = w->sh->cfg;
    const engine_cfg_t *ec = &cfg->engines[e];
    eproc_t *p = &w->eng[e][slot];
    if (p->pid)
        return true;
    char why[MATCH_ENGINE_WHY], msg[MATCH_ENGINE_WHY + 200];
    if (match_engine_start(p, ec, cfg->game->name, cfg->log_path, w->line, why, sizeof why))
        return true;
    snprintf(msg, sizeof msg, "engine '%s' (cmd=%.100s) failed its handshake: %s", ec->name, ec->cmd, why);
    setting_failed(w->sh, msg);
    return false;
}

/* ---- the live file (PROTOCOL.md, "Watching a match") ---- */

/* Reads an engine's lines until its bestmove (in w->line), noting its
 * last score on the way. */
static int wait_bestmove(worker_t *w, eproc_t *p, int64_t deadline)
{
    snprintf(w->score, sizeof w->score, "-");
    snprintf(w->depth, sizeof w->depth, "-");
    for (;;) {
        int r = eproc_read_line(p, w->line, sizeof w->line, deadline);
        if (r != EPROC_LINE || (strncmp(w->line, "bestmove", 8) == 0 && (w->line[8] == 0 || w->line[8] == ' ')))
            return r;
        if (strncmp(w->line, "info ", 5) == 0)
            live_note_score(w->line, w->score, sizeof w->score, w->depth, sizeof w->depth);
    }
}

/* A game begins: its engines and opening. */
static void live_start(worker_t *w, int index, const char *p1, const char *p2, const char *opening)
{
    char number[16];
    snprintf(number, sizeof number, "%d", index + 1);
    const char *f[] = {"start", number, p1, p2, opening};
    live_write(&w->sh->live, &w->live, f, 5);
}

/* A ply of game `index` was played (the record's last): by seat, or a roll
 * of the die (seat < 0), with the engine's score and depth. */
static void live_move(worker_t *w, int index, int seat, const char *move)
{
    char number[16], ply[16], who[16] = "-";
    snprintf(number, sizeof number, "%d", index + 1);
    snprintf(ply, sizeof ply, "%d", w->rec.plies);
    if (seat >= 0)
        snprintf(who, sizeof who, "p%d", seat + 1);
    const char *f[] = {"move", number, ply, who, move, seat >= 0 ? w->score : "-", seat >= 0 ? w->depth : "-"};
    live_write(&w->sh->live, &w->live, f, 7);
}

/* ---- one game ---- */

/* The offender loses: with two engines the other one wins; among more,
 * nobody does. */
static void forfeit(game_result_t *r, const match_cfg_t *cfg, int engine, int kind, const char *why)
{
    r->winner_engine = cfg->n_engines == 2 ? 1 - engine : -1;
    r->winner_seat = -1;
    r->loser_engine = engine;
    r->forfeit = kind;
    snprintf(r->reason, sizeof r->reason, "%s", why);
}

static void go_command(const match_cfg_t *cfg, const int *seat_engine, const long long *clock, int seat, char *buf,
                       size_t len)
{
    const limit_t *l = &cfg->engines[seat_engine[seat]].limit;
    switch (l->kind) {
    case LIMIT_DEPTH: snprintf(buf, len, "go depth %lld", l->value); break;
    case LIMIT_NODES: snprintf(buf, len, "go nodes %lld", l->value); break;
    case LIMIT_MOVETIME: snprintf(buf, len, "go movetime %lld", l->value); break;
    case LIMIT_CLOCK: {
        size_t n = (size_t)snprintf(buf, len, "go");
        for (int s = 0; s < cfg->game->players; s++) {
            const limit_t *ls = &cfg->engines[seat_engine[s]].limit;
            n += (size_t)snprintf(buf + n, len - n, " p%dtime %lld p%dinc %lld", s + 1, clock[s] > 0 ? clock[s] : 0,
                                  s + 1, ls->inc_ms);
        }
        break;
    }
    }
}

/* Starts the text of a game: "position <opening>". */
static bool text_start(worker_t *w, const char *opening)
{
    textbuf_clear(&w->text);
    w->text_plies = w->opening_plies;
    if (w->opening_plies >= 0)
        w->text_pos = w->rec.pos;
    return textbuf_add(&w->text, "position ") && textbuf_add(&w->text, opening);
}

/* Appends the moves played since the text was last brought up to date. */
static bool text_catch_up(worker_t *w, const char *opening)
{
    bool ok = true;
    if (w->text_plies == w->opening_plies && w->rec.plies > w->text_plies && !strstr(opening, " moves"))
        ok = textbuf_add(&w->text, " moves");
    for (; ok && w->text_plies < w->rec.plies; w->text_plies++) {
        char mv[GAME_MOVE_TEXT_MAX + 1] = " ";
        undo_t u;
        move_t m = w->rec.moves[w->text_plies];
        w->rec.game->move_text(&w->text_pos, m, mv + 1, sizeof mv - 1);
        w->rec.game->make(&w->text_pos, m, &u);
        ok = textbuf_add(&w->text, mv);
    }
    return ok;
}

/* Asks the engine in `seat` for a move; fills r and returns false when the
 * game ends by forfeit. */
static bool ask_move(worker_t *w, const int *seat_engine, long long *clock, int seat, const char *opening,
                     game_result_t *r, move_t *move)
{
    const match_cfg_t *cfg = w->sh->cfg;
    int e = seat_engine[seat];
    eproc_t *p = &w->eng[e][seat_slot(seat_engine, seat)];
    const limit_t *l = &cfg->engines[e].limit;
    char cmd[512];
    if (!text_catch_up(w, opening)) {
        snprintf(r->reason, sizeof r->reason, "runner out of memory");
        return false;
    }
    go_command(cfg, seat_engine, clock, seat, cmd, sizeof cmd);
    bool ok = eproc_send(p, w->text.s) && eproc_send(p, cmd);
    int64_t start = timeman_now_ms();
    long long allowed = l->kind == LIMIT_CLOCK      ? clock[seat] + cfg->time_margin_ms
                        : l->kind == LIMIT_MOVETIME ? l->value + cfg->time_margin_ms
                                                    : -1;
    int64_t deadline = start + (allowed >= 0 ? allowed : 0) + cfg->hang_ms;
    int got = ok ? wait_bestmove(w, p, deadline) : EPROC_EOF;
    long long used = timeman_now_ms() - start;
    if (got == EPROC_EOF) {
        eproc_kill(p);
        forfeit(r, cfg, e, 3, "crash (engine died)");
        return false;
    }
    if (got == EPROC_TIMEOUT) {
        eproc_kill(p);
        forfeit(r, cfg, e, 1, "time forfeit (no answer, engine killed)");
        return false;
    }
    if (allowed >= 0 && used > allowed) {
        forfeit(r, cfg, e, 1, "time forfeit");
        return false;
    }
    if (l->kind == LIMIT_CLOCK)
        clock[seat] += l->inc_ms - used;
    char text[64] = "";
    sscanf(w->line + 8, "%63s", text);
    *move = cfg->game->parse_move(&w->rec.pos, text);
    if (*move == MOVE_NONE) {
        char why[96];
        snprintf(why, sizeof why, "illegal move '%.60s'", text);
        forfeit(r, cfg, e, 2, why);
        return false;
    }
    return true;
}

static void play_moves(worker_t *w, int index, game_result_t *r);
static void seat_names(const match_cfg_t *cfg, int index, char *p1, char *p2, size_t len);

static const char *opening_of(const shared_t *sh, int index)
{
    return sh->openings[(index / group_size(sh->cfg)) % sh->n_openings];
}

/* Plays game `index`; afterwards w->text holds its whole position command
 * (w->text.s is NULL when the runner ran out of memory). */
static void play_game(worker_t *w, int index, game_result_t *r)
{
    const char *opening = opening_of(w->sh, index);
    w->opening_plies = -1;
    play_moves(w, index, r);
    if (!(w->opening_plies >= 0 ? text_catch_up(w, opening) : text_start(w, opening)))
        textbuf_free(&w->text);
}

static void play_moves(worker_t *w, int index, game_result_t *r)
{
    shared_t *sh = w->sh;
    const match_cfg_t *cfg = sh->cfg;
    const game_t *g = cfg->game;
    int seat_engine[MAX_PLAYERS];
    seat_engines(cfg, index, seat_engine);
    const char *opening = opening_of(sh, index);
    *r = (game_result_t){-1, -1, "", -1, 0, false};
    for (int s = 0; s < g->players; s++) {
        int e = seat_engine[s], slot = seat_slot(seat_engine, s);
        if (!engine_up(w, e, slot)) {
            r->void_game = true; /* the setting failed: no game */
            return;
        }
        /* A running engine that dies before the game loses it. */
        if (!eproc_send(&w->eng[e][slot], "uginewgame") || !engine_ready(w, e, slot)) {
            eproc_kill(&w->eng[e][slot]);
            forfeit(r, cfg, e, 3, "crash (engine dead or silent before the game)");
            return;
        }
    }
    char err[GAME_FEN_MAX + 200];
    if (!record_setup(&w->rec, g, opening, err, sizeof err)) {
        snprintf(r->reason, sizeof r->reason, "bad opening: %.80s", err);
        return;
    }
    int opening_plies = w->opening_plies = w->rec.plies;
    if (!text_start(w, opening)) {
        snprintf(r->reason, sizeof r->reason, "runner out of memory");
        return;
    }
    if (sh->live.on) {
        char p1[200], p2[200];
        seat_names(cfg, index, p1, p2, sizeof p1);
        live_start(w, index, p1, p2, opening);
    }
    long long clock[MAX_PLAYERS];
    for (int s = 0; s < g->players; s++)
        clock[s] = cfg->engines[seat_engine[s]].limit.value;
    /* The die, seeded by the group: every game of a group sees the same
     * rolls in the same order. */
    rng_t dice = {cfg->seed * 0x9E3779B97F4A7C15ull + (uint64_t)(index / group_size(cfg)) + 1};
    for (;;) {
        outcome_t o = record_outcome(&w->rec);
        if (o.kind != OUTCOME_NONE) {
            if (o.kind == OUTCOME_WIN) {
                r->winner_seat = player_first(o.players);
                r->winner_engine = seat_engine[r->winner_seat];
            }
            snprintf(r->reason, sizeof r->reason, "%s", o.reason);
            return;
        }
        char text[GAME_MOVE_TEXT_MAX];
        if (game_at_chance(g, &w->rec.pos)) { /* the runner rolls, never an engine */
            move_t roll = game_roll(g, &w->rec.pos, &dice);
            g->move_text(&w->rec.pos, roll, text, sizeof text);
            if (!record_play(&w->rec, roll)) {
                snprintf(r->reason, sizeof r->reason, "game too long (adjudicated draw)");
                return;
            }
            live_move(w, index, -1, text);
            continue;
        }
        if (cfg->max_plies && w->rec.plies - opening_plies >= cfg->max_plies) {
            snprintf(r->reason, sizeof r->reason, "ply limit (adjudicated draw)");
            return;
        }
        int seat = g->to_move(&w->rec.pos);
        move_t m;
        if (!ask_move(w, seat_engine, clock, seat, opening, r, &m))
            return;
        g->move_text(&w->rec.pos, m, text, sizeof text);
        if (!record_play(&w->rec, m)) {
            snprintf(r->reason, sizeof r->reason, "game too long (adjudicated draw)");
            return;
        }
        live_move(w, index, seat, text);
    }
}

/* ---- bookkeeping ---- */

/* The games file's result: 1-0, 0-1 or 1/2-1/2 for player 1's side in
 * two-team games; p<k>win or draw in free-for-all games (forfeit when an
 * engine forfeited: the reason says which). */
static void result_text(const match_cfg_t *cfg, int index, const game_result_t *r, char *buf, size_t len)
{
    if (!free_for_all(cfg)) {
        int team0 = team_engine(index, 0);
        snprintf(buf, len, "%s", r->winner_engine < 0 ? "1/2-1/2" : r->winner_engine == team0 ? "1-0" : "0-1");
    } else if (r->winner_seat >= 0) {
        snprintf(buf, len, "p%dwin", r->winner_seat + 1);
    } else {
        snprintf(buf, len, "%s", r->forfeit ? "forfeit" : "draw");
    }
}

/* Player 1's and player 2's engines; in free-for-all games the engine of
 * every seat, comma-separated, and "-". */
static void seat_names(const match_cfg_t *cfg, int index, char *p1, char *p2, size_t len)
{
    if (!free_for_all(cfg)) {
        snprintf(p1, len, "%s", cfg->engines[team_engine(index, 0)].name);
        snprintf(p2, len, "%s", cfg->engines[team_engine(index, 1)].name);
        return;
    }
    int seat_engine[MAX_PLAYERS];
    seat_engines(cfg, index, seat_engine);
    size_t n = 0;
    for (int s = 0; s < cfg->game->players; s++)
        n += (size_t)snprintf(p1 + n, n < len ? len - n : 0, "%s%s", s ? "," : "", cfg->engines[seat_engine[s]].name);
    snprintf(p2, len, "-");
}

static void print_progress(shared_t *sh, int index, const game_result_t *r, bool counted)
{
    const match_cfg_t *cfg = sh->cfg;
    const match_summary_t *sum = &sh->tally.sum;
    elo_estimate_t e = stats_elo(sum->wdl);
    char p1[200], p2[200], res[16], tail[200];
    seat_names(cfg, index, p1, p2, sizeof p1);
    result_text(cfg, index, r, res, sizeof res);
    /* Elo only where an equal engine scores 0.5: two teams, seats swapped. */
    if (!counted)
        snprintf(tail, sizeof tail, "after the SPRT's decision: recorded apart, counted in no result (%d so far)",
                 sum->after_games);
    else if (free_for_all(cfg))
        snprintf(tail, sizeof tail, "won %d of %d", sum->engine_wins[0], sum->games_played);
    else
        snprintf(tail, sizeof tail, "score %.3f, Elo %+.1f [%+.1f, %+.1f]", e.score, e.elo, e.elo_low, e.elo_high);
    fprintf(sh->out, "game %d/%d %s vs %s: %s (%s) | %s: W %d D %d L %d, %s\n", sh->written, sh->shard_games, p1, p2,
            res, r->reason, cfg->engines[0].name, sum->wdl.wins, sum->wdl.draws, sum->wdl.losses, tail);
    fflush(sh->out);
}

static void write_game(shared_t *sh, worker_t *w, int index, const game_result_t *r)
{
    if (!sh->games_file && !sh->live.on)
        return;
    char number[16], p1[200], p2[200], res[16];
    snprintf(number, sizeof number, "%d", index + 1);
    seat_names(sh->cfg, index, p1, p2, sizeof p1);
    result_text(sh->cfg, index, r, res, sizeof res);
    const char *f[] = {"end", number, sh->cfg->game->name, p1, p2, res, r->reason, opening_of(sh, index),
                       w->text.s ? w->text.s + strlen("position ") : ""};
    if (sh->games_file) {
        for (int i = 1; i < 9; i++)
            fprintf(sh->games_file, "%s%s", f[i], i < 8 ? "\t" : "\n");
        fflush(sh->games_file);
    }
    live_write(&sh->live, &w->live, f, 9);
}

/* Wins per engine and seat, and engine 0's results per seating pattern. */
static void tally_seats(match_summary_t *sum, const match_cfg_t *cfg, int index, const game_result_t *r)
{
    int seat_engine[MAX_PLAYERS];
    seat_engines(cfg, index, seat_engine);
    for (int s = 0; s < cfg->game->players; s++) {
        sum->seat_games[seat_engine[s]][s]++;
        if (r->winner_seat == s)
            sum->seat_wins[seat_engine[s]][s]++;
    }
    if (r->winner_engine >= 0)
        sum->engine_wins[r->winner_engine]++;
    if (free_for_all(cfg)) {
        wdl_t *p = &sum->pattern_wdl[index % group_size(cfg) / cfg->game->players];
        if (r->winner_engine == 0) p->wins++;
        else if (r->winner_engine == 1) p->losses++;
        else p->draws++;
    }
}

/* Records game `index`: counted (games_tally.c: W/D/L, its pair, the
 * SPRT), or apart once the SPRT has decided; written to the games and live
 * files in the order games finish, which is the order the merge and the
 * watch page count them in. Called with the lock held. */
static void book(shared_t *sh, worker_t *w, int index, const game_result_t *r)
{
    if (sh->failed)
        return; /* the match is void: nothing more is counted */
    int s = r->winner_engine < 0 ? 0 : r->winner_engine == 0 ? 1 : -1;
    match_summary_t *sum = &sh->tally.sum;
    sh->written++;
    bool counted = games_tally_count(&sh->tally, index, s);
    if (counted) {
        if (r->forfeit && r->loser_engine >= 0) {
            int *counter = r->forfeit == 1   ? sum->time_losses
                           : r->forfeit == 2 ? sum->illegal_losses
                                             : sum->crash_losses;
            counter[r->loser_engine]++;
        }
        games_tally_ending(sum, r->reason);
        if (w->opening_plies >= 0)
            games_tally_passes(sum, &w->rec, w->opening_plies);
        tally_seats(sum, sh->cfg, index, r);
    }
    write_game(sh, w, index, r);
    if (!sh->cfg->quiet)
        print_progress(sh, index, r, counted);
    if (sum->sprt_decision)
        sh->stop = true; /* a shard's count is not sequential: it never decides */
}

bool match_in_shard(const match_cfg_t *cfg, int index)
{
    return cfg->shard_n <= 1 || (index / group_size(cfg)) % cfg->shard_n == cfg->shard_k - 1;
}

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    shared_t *sh = w->sh;
    for (int e = 0; e < MATCH_MAX_ENGINES; e++)
        for (int k = 0; k < MAX_PLAYERS; k++)
            eproc_init(&w->eng[e][k]);
    for (;;) {
        pthread_mutex_lock(&sh->lock);
        while (sh->next_game < sh->total_games && !match_in_shard(sh->cfg, sh->next_game))
            sh->next_game++;
        int index = sh->stop || atomic_load(&interrupted) || sh->next_game >= sh->total_games ? -1 : sh->next_game++;
        pthread_mutex_unlock(&sh->lock);
        if (index < 0)
            break;
        game_result_t r;
        play_game(w, index, &r);
        pthread_mutex_lock(&sh->lock);
        book(sh, w, index, &r);
        pthread_mutex_unlock(&sh->lock);
    }
    for (int e = 0; e < MATCH_MAX_ENGINES; e++)
        for (int k = 0; k < MAX_PLAYERS; k++) {
            eproc_stop(&w->eng[e][k], 1000);
            eproc_destroy(&w->eng[e][k]);
        }
    record_free(&w->rec);
    textbuf_free(&w->text);
    textbuf_free(&w->live);
    return NULL;
}

/* The digest of the openings as played, for the games file's header. */
static uint64_t openings_digest(const shared_t *sh)
{
    uint64_t h = GAMES_FILE_DIGEST_START;
    for (int i = 0; i < sh->n_openings; i++)
        h = games_file_digest(h, sh->openings[i], strlen(sh->openings[i]) + 1);
    return h;
}

/* The live file's last line and the games file's: how the run ended. */
static void write_ending(shared_t *sh)
{
    const match_summary_t *sum = &sh->tally.sum;
    const char *how = sh->failed                ? "failed"
                      : sum->sprt_decision > 0 ? "H1 accepted"
                      : sum->sprt_decision < 0 ? "H0 accepted"
                      : sum->interrupted       ? "interrupted"
                                               : "complete";
    char played[16];
    snprintf(played, sizeof played, "%d", sh->written);
    const char *f[] = {"over", played, sum->sprt_decision ? how : "-"};
    textbuf_t t = {0};
    live_write(&sh->live, &t, f, 3);
    textbuf_free(&t);
    if (!sh->games_file)
        return;
    if (sh->failed)
        games_file_write_failed(sh->games_file, sh->failure);
    else
        games_file_write_over(sh->games_file, sh->written, how);
}

int match_run(const match_cfg_t *cfg, FILE *out, match_summary_t *sum)
{
    static shared_t sh; /* one match a process: its tally is big */
    memset(&sh, 0, sizeof sh);
    sh.cfg = cfg;
    sh.out = out;
    int group = group_size(cfg);
    sh.total_games = (cfg->games + group - 1) / group * group;
    for (int i = 0; i < sh.total_games; i++)
        sh.shard_games += match_in_shard(cfg, i);
    pthread_mutex_init(&sh.lock, NULL);
    int status = MATCH_EXIT_FAILED;
    int n_workers = cfg->concurrency > 0 ? cfg->concurrency : 1;
    worker_t *workers = calloc((size_t)n_workers, sizeof *workers);
    pthread_t *threads = calloc((size_t)n_workers, sizeof *threads);
    if (!workers || !threads || !games_tally_init_for(&sh.tally, sh.total_games)) {
        fprintf(stderr, "denham-match: out of memory\n");
        goto done;
    }
    sh.tally.cfg.game = cfg->game;
    sh.tally.cfg.sprt_on = cfg->sprt_on;
    sh.tally.cfg.sprt = cfg->sprt;
    sh.tally.sequential = cfg->shard_n <= 1; /* a shard plays all its games: the merge decides */
    if ((status = load_openings(&sh)) != MATCH_EXIT_OK)
        goto done;
    status = MATCH_EXIT_FAILED;
    if (cfg->games_path && !(sh.games_file = fopen(cfg->games_path, "w"))) {
        fprintf(stderr, "denham-match: cannot write %s\n", cfg->games_path);
        goto done;
    }
    if (sh.games_file)
        games_file_write_header(sh.games_file, cfg, sh.total_games, openings_digest(&sh));
    if (!live_open(&sh.live, cfg->live_path))
        goto done;
    live_header(&sh.live, cfg, sh.total_games, sh.shard_games);
    int started = 0;
    for (int i = 0; i < n_workers; i++) {
        workers[i].sh = &sh;
        if (pthread_create(&threads[i], NULL, worker_main, &workers[i]) == 0)
            started++;
    }
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    if (started == 0) {
        fprintf(stderr, "denham-match: cannot start a thread\n");
        goto done;
    }
    sh.tally.final = true;
    games_tally_pairs(&sh.tally);
    sh.tally.sum.interrupted = atomic_load(&interrupted) && !sh.tally.sum.sprt_decision && sh.written < sh.shard_games;
    write_ending(&sh);
    *sum = sh.tally.sum;
    if (sh.failed)
        fprintf(stderr, "denham-match: stopped: %s; no result (the %d games finished before are not counted)\n",
                sh.failure, sh.written);
    else
        status = MATCH_EXIT_OK;
done:
    if (sh.games_file)
        fclose(sh.games_file);
    live_close(&sh.live);
    free(sh.openings);
    games_tally_free(&sh.tally);
    free(workers);
    free(threads);
    pthread_mutex_destroy(&sh.lock);
    return status;
}

int match_exit_status(const match_cfg_t *cfg, const match_summary_t *sum)
{
    if (sum->interrupted)
        return MATCH_EXIT_INTERRUPTED;
    return cfg->sprt_on && cfg->shard_n <= 1 && !sum->sprt_decision ? MATCH_EXIT_NO_DECISION : MATCH_EXIT_OK;
}

/* Two engines: W/D/L, Elo and the rest, from the first engine's view. */
static void print_pairwise(const match_cfg_t *cfg, const match_summary_t *sum, FILE *out)
{
    elo_estimate_t e = stats_elo(sum->wdl);
    const char *a = cfg->engines[0].name;
    fprintf(out, "W-D-L (%s): %d-%d-%d, score %.3f\n", a, sum->wdl.wins, sum->wdl.draws, sum->wdl.losses, e.score);
    if (free_for_all(cfg)) {
        /* With three or four seats an equal engine scores its share of the
         * seats, not 0.5: the seatings below compare with that share, and
         * no Elo is given (the logistic model is for two sides). */
        fprintf(out, "Elo: none with more than two sides (see each engine's share and each seating below)\n");
        return;
    }
    fprintf(out, "Elo difference: %+.1f, 95%% interval [%+.1f, %+.1f]\n", e.elo, e.elo_low, e.elo_high);
    fprintf(out, "LOS: %.1f%%\n", 100.0 * e.los);
    fprintf(out, "Draw ratio: %.1f%%\n", 100.0 * e.draw_ratio);
    if (group_size(cfg) == 2)
        fprintf(out, "Pentanomial (pairs scoring 0, 0.5, 1, 1.5, 2): %d %d %d %d %d\n", sum->penta.n[0],
                sum->penta.n[1], sum->penta.n[2], sum->penta.n[3], sum->penta.n[4]);
    if (cfg->sprt_on) {
        double lo, hi;
        stats_sprt_bounds(&cfg->sprt, &lo, &hi);
        fprintf(out, "SPRT elo0 %.1f elo1 %.1f alpha %.3f beta %.3f: LLR %.3f%s, bounds [%.3f, %.3f], %s\n",
                cfg->sprt.elo0, cfg->sprt.elo1, cfg->sprt.alpha, cfg->sprt.beta, sum->llr,
                sum->llr_of_games ? " (of single games: the pairs are not whole)" : "", lo, hi,
                cfg->shard_n > 1      ? "no decision in a shard (merge the shards)"
                : sum->sprt_decision > 0 ? "H1 accepted"
                : sum->sprt_decision < 0 ? "H0 accepted"
                                         : "no decision");
    }
    if (sum->after_games)
        fprintf(out,
                "After the decision: %d game%s in flight then finished, W-D-L (%s) %d-%d-%d: recorded apart, "
                "counted in no result above\n",
                sum->after_games, sum->after_games == 1 ? "" : "s", a, sum->after.wins, sum->after.draws,
                sum->after.losses);
}

/* Each engine's games won against the share of seats it held, which is
 * what it would win were all engines equal. */
static void print_shares(const match_cfg_t *cfg, const match_summary_t *sum, FILE *out)
{
    int seats_total = 0, seats[MATCH_MAX_ENGINES] = {0};
    for (int e = 0; e < cfg->n_engines; e++)
        for (int s = 0; s < cfg->game->players; s++) {
            seats[e] += sum->seat_games[e][s];
            seats_total += sum->seat_games[e][s];
        }
    int n = sum->games_played;
    for (int e = 0; e < cfg->n_engines; e++) {
        double p = n ? (double)sum->engine_wins[e] / n : 0.0, lo, hi;
        stats_wilson(sum->engine_wins[e], n, &lo, &hi);
        fprintf(out, "%s won %d of %d games: %.3f [%.3f, %.3f] (95%%, Wilson), equal strength %.3f\n",
                cfg->engines[e].name, sum->engine_wins[e], n, p, lo, hi,
                seats_total ? (double)seats[e] / seats_total : 0.0);
    }
}

static void print_header(const match_cfg_t *cfg, const match_summary_t *sum, FILE *out)
{
    fprintf(out, "\nMatch");
    for (int e = 0; e < cfg->n_engines; e++)
        fprintf(out, "%s %s", e ? " vs" : "", cfg->engines[e].name);
    fprintf(out, ", %s, %d games", cfg->game->name, sum->games_played);
    if (cfg->shard_n > 1)
        fprintf(out, " (shard %d/%d)", cfg->shard_k, cfg->shard_n);
    if (sum->shards_total)
        fprintf(out, " (%d of %d shards merged)", sum->shards_merged, sum->shards_total);
    if (sum->interrupted)
        fprintf(out, " (interrupted: the games not started were not played)");
    fprintf(out, "\n");
    if (cfg->n_engines == 2)
        print_pairwise(cfg, sum, out);
    if (free_for_all(cfg))
        print_shares(cfg, sum, out);
}

static void print_endings(const match_summary_t *sum, FILE *out)
{
    fprintf(out, "Endings:");
    for (int k = 0; k < sum->n_endings; k++)
        fprintf(out, "%s %s %d", k ? "," : "", sum->ending[k], sum->ending_count[k]);
    fprintf(out, "\n");
}

void match_print_summary(const match_cfg_t *cfg, const match_summary_t *sum, FILE *out)
{
    print_header(cfg, sum, out);
    for (int i = 0; i < cfg->n_engines; i++)
        fprintf(out, "Forfeits by %s: time %d, illegal move %d, crash %d\n", cfg->engines[i].name,
                sum->time_losses[i], sum->illegal_losses[i], sum->crash_losses[i]);
    print_endings(sum, out);
    if (cfg->game->players > 2)
        fprintf(out, "Passes: %d; games in which a player was out: %d\n", sum->passes, sum->games_with_players_out);
    for (int seat = 0; seat < cfg->game->players; seat++) {
        fprintf(out, "Seat p%d:", seat + 1);
        for (int k = 0; k < cfg->n_engines; k++)
            fprintf(out, "%s %s won %d of %d", k ? "," : "", cfg->engines[k].name, sum->seat_wins[k][seat],
                    sum->seat_games[k][seat]);
        fprintf(out, "\n");
    }
    if (free_for_all(cfg) && cfg->n_engines == 2)
        for (int k = 0; k < cfg->n_seatings; k++) {
            wdl_t p = sum->pattern_wdl[k];
            int seats_a = 0;
            for (const char *c = cfg->seating[k]; *c; c++)
                seats_a += *c == 'A';
            int n = p.wins + p.draws + p.losses;
            double lo, hi, share = (double)seats_a / cfg->game->players;
            stats_wilson(p.wins + 0.5 * p.draws, n, &lo, &hi);
            fprintf(out,
                    "Seating %s (%d %s against %d %s, rotated): %s won %d, lost %d, drew %d; score %.3f [%.3f, %.3f] "
                    "(95%%, Wilson), equal strength %.3f\n",
                    cfg->seating[k], seats_a, cfg->engines[0].name, cfg->game->players - seats_a, cfg->engines[1].name,
                    cfg->engines[0].name, p.wins, p.losses, p.draws, n ? (p.wins + 0.5 * p.draws) / n : 0.0, lo, hi,
                    share);
        }
}
