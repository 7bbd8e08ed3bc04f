/*
 * protocol.c: the UGI/UCI command loop and its command table (see
 * PROTOCOL.md for the language itself). The searches, perft and bench it
 * starts run on the search thread (search_thread.c); `denham perft` and
 * `denham bench` on the command line are cli.c's. Knows games only through
 * game_t and the variant registry.
 */
#define _POSIX_C_SOURCE 200809L
#include "protocol.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../engine/games/variants.h"
#include "../common/input.h"
#include "describe.h"
#include "net_option.h"
#include "engine_state.h"

static const char *const multiplayer_names[] = {[MULTI_PARANOID] = "paranoid", [MULTI_BRS] = "brs"};
static const char *const chance_names[] = {
    [CHANCE_EXPECTIMAX] = "expectimax", [CHANCE_STAR1] = "star1", [CHANCE_STAR2] = "star2"};

/* Splits line into words; false when it has more than MAX_TOKENS (the
 * first MAX_TOKENS are kept). */
bool tokens_split(char *line, tokens_t *tk)
{
    tk->n = 0;
    char *s = strtok(line, " \t\r\n");
    for (; s && tk->n < MAX_TOKENS; s = strtok(NULL, " \t\r\n"))
        tk->t[tk->n++] = s;
    return s == NULL;
}

/* Joins tokens [from, to) with single spaces into buf; false when they do
 * not fit (the caller refuses them: nothing is cut short). */
bool tokens_join(const tokens_t *tk, int from, int to, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = from; i < to; i++)
        n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", i > from ? " " : "", tk->t[i]);
    return n < len;
}

static void cmd_hello(engine_t *e, bool ugi)
{
    engine_say(e, "id name Denham %s", DENHAM_VERSION);
    engine_say(e, "id author the Denham developers");
    engine_say(e, "option name Hash type spin default %d min 1 max %d", HASH_DEFAULT_MB, HASH_MAX_MB);
    engine_say(e, "option name Clear Hash type button");
    engine_say(e, "option name Threads type spin default 1 min 1 max %d", SEARCH_THREADS_MAX);
    engine_say(e, "option name MultiPV type spin default 1 min 1 max %d", SEARCH_MULTIPV_MAX);
    engine_say(e, "option name Move Overhead type spin default %d min 0 max %d", OVERHEAD_DEFAULT_MS, OVERHEAD_MAX_MS);
    engine_say(e, "option name MultiplayerSearch type combo default %s var paranoid var brs",
        multiplayer_names[SEARCH_MULTIPLAYER_DEFAULT]);
    engine_say(e, "option name ChancePruning type combo default %s var star2 var star1 var expectimax",
        chance_names[SEARCH_CHANCE_DEFAULT]);
    engine_say(e, "option name Strength type combo default full var full var random");
    engine_say(e, "option name Skill Level type spin default %d min 0 max %d", SKILL_MAX, SKILL_MAX);
    engine_say(e, "option name Ponder type check default false");
    engine_say(e, "option name UseNetwork type combo default auto " NET_OPTION_USE_VALUES);
    engine_say(e, "option name EvalFile type string default %s", NET_OPTION_EMBEDDED);
    char combo[1024];
    size_t n = (size_t)snprintf(combo, sizeof combo, "option name UCI_Variant type combo default %s",
                                variants_default()->name);
    for (int i = 0; variants_at(i); i++)
        n += (size_t)snprintf(combo + n, n < sizeof combo ? sizeof combo - n : 0, " var %s", variants_at(i)->name);
    engine_say(e, "%s", combo);
    e->uci = !ugi;
    engine_say(e, ugi ? "ugiok" : "uciok");
}

static void reset_game(engine_t *e)
{
    position_t start;
    e->game->set_start(&start);
    /* Cannot fail: the buffers exist since engine_init and are kept. */
    bool ok = record_init(e->rec, e->game, &start);
    assert(ok);
    (void)ok;
    if (e->last_position)
        e->last_position[0] = 0;
}

/* The index of value among a combo option's n names; -1, with one error
 * line listing them, when it is none of them. */
static int combo_value(engine_t *e, const char *option, const char *const *names, int n, const char *value)
{
    for (int i = 0; i < n; i++)
        if (strcasecmp(names[i], value) == 0)
            return i;
    char list[128];
    size_t len = 0;
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", names[i]);
    ERROR(e, "%s must be one of %s", option, list);
    return -1;
}

/* A check option's value, true or false in any case; false, with one
 * error line, when it is neither. */
static bool check_value(engine_t *e, const char *option, const char *value, bool *on)
{
    *on = strcasecmp(value, "true") == 0;
    if (*on || strcasecmp(value, "false") == 0)
        return true;
    ERROR(e, "%s must be true or false", option);
    return false;
}

/* Every option `uci` lists, for the error of a setoption without `value`. */
static const char *const option_names[] = {"Hash",          "Clear Hash",        "Threads",       "MultiPV",
                                           "Move Overhead", "MultiplayerSearch", "ChancePruning", "Strength",
                                           "Skill Level",   "Ponder",            "UCI_Variant",   "UseNetwork",
                                           "EvalFile"};

/* `setoption name UCI_Variant brandubh`: the name runs on into what was
 * meant as the value. True (with an error line saying so) when the name
 * starts with an option's name and more follows. */
static bool missing_value(engine_t *e, const char *name)
{
    for (size_t i = 0; i < sizeof option_names / sizeof option_names[0]; i++) {
        size_t n = strlen(option_names[i]);
        if (strncasecmp(name, option_names[i], n) == 0 && name[n] == ' ') {
            ERROR(e, "setoption: 'value' is missing: setoption name %s value %s", option_names[i], name + n + 1);
            return true;
        }
    }
    return false;
}

/* setoption name <name...> [value <value...>] */
static void cmd_setoption(engine_t *e, const tokens_t *tk)
{
    if (tk->n < 3 || strcmp(tk->t[1], "name") != 0) {
        ERROR(e, "usage: setoption name <name> [value <value>]");
        return;
    }
    int v = 2;
    while (v < tk->n && strcmp(tk->t[v], "value") != 0)
        v++;
    char name[256], value[256];
    if (!tokens_join(tk, 2, v, name, sizeof name) ||
        !tokens_join(tk, v + 1 < tk->n ? v + 1 : tk->n, tk->n, value, sizeof value)) {
        ERROR(e, "setoption: the name or value is longer than %zu characters", sizeof name - 1);
        return;
    }
    if (e->searching) {
        ERROR(e, "cannot set options during a search");
        return;
    }
    if (v == tk->n && missing_value(e, name))
        return;
    long long x;
    if (strcasecmp(name, "UCI_Variant") == 0) {
        const game_t *g = variants_find(value);
        if (!g) {
            char names[512];
            size_t len = 0;
            for (int i = 0; variants_at(i) && len < sizeof names; i++)
                len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "", variants_at(i)->name);
            ERROR(e, "unknown variant '%s' (the variants: %s)", value, names);
            return;
        }
        e->game = g;
        searcher_clear(e->searcher);
        reset_game(e);
    } else if (strcasecmp(name, "Hash") == 0) {
        if (!parse_int(value, 1, HASH_MAX_MB, &x)) {
            ERROR(e, "Hash must be a whole number from 1 to %d", HASH_MAX_MB);
            return;
        }
        /* Before the first isready or go only the size is noted. */
        if (e->hash_allocated && !searcher_set_hash(e->searcher, (size_t)x)) {
            ERROR(e, "cannot allocate %lld MB for the hash table; kept %d MB", x, e->hash_mb);
            return;
        }
        e->hash_mb = (int)x;
    } else if (strcasecmp(name, "Threads") == 0) {
        if (!parse_int(value, 1, SEARCH_THREADS_MAX, &x)) {
            ERROR(e, "Threads must be a whole number from 1 to %d", SEARCH_THREADS_MAX);
            return;
        }
        if (!searcher_set_threads(e->searcher, (int)x))
            ERROR(e, "cannot allocate %lld search threads; kept %d", x, searcher_threads(e->searcher));
    } else if (strcasecmp(name, "MultiPV") == 0) {
        if (!parse_int(value, 1, SEARCH_MULTIPV_MAX, &x)) {
            ERROR(e, "MultiPV must be a whole number from 1 to %d", SEARCH_MULTIPV_MAX);
            return;
        }
        e->multipv = (int)x;
    } else if (strcasecmp(name, "Clear Hash") == 0) {
        searcher_clear(e->searcher);
    } else if (strcasecmp(name, "MultiplayerSearch") == 0) {
        int i = combo_value(e, name, multiplayer_names, 2, value);
        if (i >= 0)
            e->multiplayer = (multiplayer_t)i;
    } else if (strcasecmp(name, "ChancePruning") == 0) {
        int i = combo_value(e, name, chance_names, 3, value);
        if (i >= 0)
            e->chance_pruning = (chance_pruning_t)i;
    } else if (strcasecmp(name, "Strength") == 0) {
        if (strcasecmp(value, "full") != 0 && strcasecmp(value, "random") != 0) {
            ERROR(e, "Strength must be full or random");
            return;
        }
        e->random_mover = strcasecmp(value, "random") == 0;
    } else if (strcasecmp(name, "Skill Level") == 0) {
        if (!parse_int(value, 0, SKILL_MAX, &x)) {
            ERROR(e, "Skill Level must be a whole number from 0 to %d", SKILL_MAX);
            return;
        }
        e->skill = (int)x;
    } else if (strcasecmp(name, "Ponder") == 0) {
        bool on;
        if (check_value(e, "Ponder", value, &on))
            e->ponder_option = on;
    } else if (strcasecmp(name, "UseNetwork") == 0) {
        net_use_t how;
        if (net_option_parse_use(value, &how))
            net_option_use(how);
        else
            ERROR(e, "UseNetwork must be auto, true or false");
    } else if (strcasecmp(name, "EvalFile") == 0) {
        char why[300];
        if (!net_option_load(value, why, sizeof why))
            ERROR(e, "EvalFile: %s; the nets in use stay", why);
    } else if (strcasecmp(name, "Move Overhead") == 0) {
        if (!parse_int(value, 0, OVERHEAD_MAX_MS, &x)) {
            ERROR(e, "Move Overhead must be a whole number from 0 to %d", OVERHEAD_MAX_MS);
            return;
        }
        e->overhead_ms = (int)x;
    } else {
        ERROR(e, "unknown option '%s'", name);
    }
}

/* Keeps the text of the position command rec now holds ("" for none). */
static void remember_position(engine_t *e, const char *args)
{
    size_t n = strlen(args) + 1;
    if (n > e->last_position_cap) {
        char *grown = realloc(e->last_position, n);
        if (!grown) {
            if (e->last_position)
                e->last_position[0] = 0;
            return;
        }
        e->last_position = grown;
        e->last_position_cap = n;
    }
    memcpy(e->last_position, args, n);
}

/* position startpos|fen <fen> [moves m1 m2 ...]. The old state stays on
 * error, except after an illegal move, which ends the game with the
 * offender's loss (PROTOCOL.md, "Illegal moves"). */
static void cmd_position(engine_t *e, const char *args)
{
    char err[GAME_FEN_MAX + 200];
    const char *last = e->last_position;
    size_t n = last ? strlen(last) : 0;
    /* The same words, then more (or none: the same command again). */
    bool extends = n > 0 && strncmp(args, last, n) == 0 && (args[n] == ' ' || args[n] == '\t' || args[n] == 0);
    bool ok;
    if (!extends) {
        ok = record_setup(e->scratch, e->game, args, err, sizeof err);
    } else if (record_copy(e->scratch, e->rec)) {
        ok = record_append(e->scratch, args + n, err, sizeof err);
    } else { /* scratch is unusable: the old state stays */
        ERROR(e, "out of memory");
        return;
    }
    if (!ok)
        ERROR(e, "%s", err);
    if (!ok && (e->scratch->forfeit_by < 0 || e->scratch->game != e->game))
        return;
    record_swap(e->rec, e->scratch);
    remember_position(e, ok && e->rec->plies > 0 ? args : "");
}

/* The player index named by a UGI/UCI clock word, or -1. */
static int clock_player(const char *w, bool *is_inc)
{
    static const char *const names[][2] = {{"wtime", "winc"}, {"btime", "binc"}, {"p1time", "p1inc"},
                                           {"p2time", "p2inc"}, {"p3time", "p3inc"}, {"p4time", "p4inc"}};
    static const int player[] = {0, 1, 0, 1, 2, 3};
    for (int i = 0; i < 6; i++)
        for (int k = 0; k < 2; k++)
            if (strcmp(w, names[i][k]) == 0) {
                *is_inc = k == 1;
                return player[i];
            }
    return -1;
}

/* go searchmoves m1 m2 ...: the legal moves after tk->t[*i]; false (with
 * an error line) for none or for a move that is not legal. */
static bool parse_searchmoves(engine_t *e, const tokens_t *tk, int *i)
{
    e->n_searchmoves = 0;
    while (*i + 1 < tk->n) {
        const char *w = tk->t[*i + 1];
        bool is_inc = false;
        if (clock_player(w, &is_inc) >= 0 || strcmp(w, "infinite") == 0 || strcmp(w, "movestogo") == 0 ||
            strcmp(w, "movetime") == 0 || strcmp(w, "depth") == 0 || strcmp(w, "nodes") == 0 ||
            strcmp(w, "mate") == 0 || strcmp(w, "ponder") == 0)
            break;
        move_t m = e->game->parse_move(&e->rec->pos, w);
        if (m == MOVE_NONE) {
            char why[GAME_ILLEGAL_MAX + 80];
            game_illegal_message(e->game, &e->rec->pos, w, why, sizeof why);
            ERROR(e, "go searchmoves: %s", why);
            return false;
        }
        if (e->n_searchmoves < MAX_MOVES)
            e->searchmoves[e->n_searchmoves++] = m;
        (*i)++;
    }
    if (e->n_searchmoves == 0) {
        ERROR(e, "go searchmoves: no moves given");
        return false;
    }
    return true;
}

/* The go parameters that take a number, clocks aside. */
static bool go_takes_number(const char *w)
{
    return strcmp(w, "movestogo") == 0 || strcmp(w, "movetime") == 0 || strcmp(w, "depth") == 0 ||
           strcmp(w, "nodes") == 0 || strcmp(w, "mate") == 0;
}

static bool parse_go(engine_t *e, const tokens_t *tk, search_limits_t *l)
{
    limits_init(l);
    e->n_searchmoves = 0;
    e->go_ponder = false;
    for (int i = 1; i < tk->n; i++) {
        const char *w = tk->t[i];
        long long v;
        bool is_inc = false;
        int p = clock_player(w, &is_inc);
        if (strcmp(w, "infinite") == 0) {
            l->infinite = true;
            continue;
        }
        if (strcmp(w, "searchmoves") == 0) {
            if (!parse_searchmoves(e, tk, &i))
                return false;
            continue;
        }
        if (strcmp(w, "ponder") == 0) {
            e->go_ponder = true;
            continue;
        }
        if (p < 0 && !go_takes_number(w)) {
            ERROR(e, "go: unknown parameter '%s' (help lists them)", w);
            return false;
        }
        /* A clock may be negative (some GUIs send a flag fallen), taken as
         * 0; every other number is checked against its range below. */
        if (i + 1 >= tk->n || !parse_int(tk->t[i + 1], -(1LL << 40), 1LL << 40, &v)) {
            ERROR(e, "go: '%s' needs a whole number", w);
            return false;
        }
        i++;
        if (p >= 0) {
            if (is_inc) l->inc[p] = v > 0 ? v : 0;
            else l->time[p] = v > 0 ? v : 0;
        } else if (strcmp(w, "movestogo") == 0 && v > 0 && v < 10000) {
            l->movestogo = (int)v;
        } else if (strcmp(w, "movetime") == 0 && v > 0) {
            l->movetime = v;
        } else if (strcmp(w, "depth") == 0 && v > 0 && v < MAX_PLY) {
            l->depth = (int)v;
        } else if (strcmp(w, "nodes") == 0 && v > 0) {
            l->nodes = (uint64_t)v;
        } else if (strcmp(w, "mate") == 0 && v > 0 && v <= GO_MATE_MAX) {
            l->mate = (int)v;
        } else {
            ERROR(e, "go: bad or unknown parameter '%s %s'", w, tk->t[i]);
            return false;
        }
    }
    return true;
}

/* Strength random: a uniformly random legal move, at once; the baseline
 * that strength is measured against. */
static void play_random(engine_t *e)
{
    move_t moves[MAX_MOVES];
    int n = record_legal_moves(e->rec, moves);
    if (e->n_searchmoves > 0) {
        n = e->n_searchmoves;
        memcpy(moves, e->searchmoves, (size_t)n * sizeof *moves);
    }
    e->random_state = e->random_state * 6364136223846793005ull + 1442695040888963407ull;
    char text[GAME_MOVE_TEXT_MAX];
    e->game->move_text(&e->rec->pos, moves[(e->random_state >> 33) % (uint64_t)n], text, sizeof text);
    engine_say(e, "bestmove %s", text);
}

static void cmd_go(engine_t *e, const tokens_t *tk)
{
    if (e->searching) {
        ERROR(e, "a search is already running");
        return;
    }
    if (tk->n >= 2 && strcmp(tk->t[1], "perft") == 0) {
        long long d;
        if (tk->n != 3 || !parse_int(tk->t[2], 1, 64, &d)) {
            ERROR(e, "usage: go perft <depth 1-64>");
            return;
        }
        e->req = (search_request_t){.game = e->game, .root = e->rec->pos};
        e->job = JOB_PERFT;
        e->job_depth = (int)d;
        engine_start_job(e);
        return;
    }
    search_limits_t limits;
    if (!parse_go(e, tk, &limits))
        return;
    if (limits.mate && e->game->chance_outcomes) {
        ERROR(e, "go mate: a game with dice has no forced mates (scores are expected values)");
        engine_say(e, "bestmove (none)"); /* a well-formed go: one bestmove, as a runner expects */
        return;
    }
    record_t *r = e->rec;
    e->req = (search_request_t){0};
    e->req.game = e->game;
    e->req.root = r->pos;
    e->req.limits = limits;
    e->req.overhead_ms = e->overhead_ms;
    e->req.report = engine_print_info;
    e->req.report_ctx = e;
    e->req.report_root_move = engine_print_currmove;
    e->req.progress_after_ms = PROGRESS_AFTER_MS;
    /* The search keeps its own copy of the history: `position` may change
     * the record while it runs. */
    e->req.history_len = record_recent_keys(r, e->req_history, SEARCH_HISTORY_MAX);
    e->req.history = e->req_history;
    if (record_outcome(r).kind != OUTCOME_NONE) {
        engine_say(e, "info string the game is over");
        engine_say(e, "bestmove (none)");
        return;
    }
    if (game_at_chance(e->game, &r->pos)) {
        ERROR(e, "the die is still to be rolled: add the face (S, M, L, SM, SL or ML) to the moves");
        /* One bestmove per go, always: a runner waits for it. */
        engine_say(e, "bestmove (none)");
        return;
    }
    e->req.multiplayer = e->multiplayer;
    e->req.chance_pruning = e->chance_pruning;
    e->req.root_moves = e->searchmoves;
    e->req.n_root_moves = e->n_searchmoves;
    e->req.multipv = e->multipv;
    if (e->random_mover) {
        play_random(e);
        return;
    }
    search_set_pondering(e->searcher, e->go_ponder);
    e->job = JOB_SEARCH;
    engine_start_job(e);
}

static void cmd_board(engine_t *e)
{
    char text[GAME_BOARD_TEXT_MAX + GAME_FEN_MAX + 32], fen[GAME_FEN_MAX];
    /* Colours only for a person at a terminal, never into a pipe or file. */
    e->game->print_board(&e->rec->pos, text, GAME_BOARD_TEXT_MAX, out_is_terminal(&e->out));
    e->game->write_fen(&e->rec->pos, fen, sizeof fen);
    size_t n = strlen(text);
    snprintf(text + n, sizeof text - n, "Fen: %s\nKey: %016llx\n", fen,
             (unsigned long long)e->game->hash(&e->rec->pos));
    out_text(&e->out, text); /* the whole board at once: no info line inside it */
}

static void cmd_moves(engine_t *e)
{
    move_t moves[MAX_MOVES];
    int n = record_legal_moves(e->rec, moves);
    char line[MAX_MOVES * GAME_MOVE_TEXT_MAX + 8] = "moves";
    size_t len = 5;
    for (int i = 0; i < n; i++) {
        char text[GAME_MOVE_TEXT_MAX];
        e->game->move_text(&e->rec->pos, moves[i], text, sizeof text);
        len += (size_t)snprintf(line + len, sizeof line - len, " %s", text);
    }
    engine_say(e, "%s", line);
}

/* `eval`'s second table: each weight, its value, the feature it scales per
 * team, and (two sides) its contribution from the first side's view. */
static void say_weights(engine_t *e, const eval_trace_t *t)
{
    const game_t *g = e->game;
    if (!g->weights)
        return;
    if (game_net_in_use(g->net) && !g->net->base) {
        engine_say(e, "The network evaluates (UseNetwork): the weights are not used.");
        return;
    }
    int teams = game_teams(g);
    char line[256];
    size_t n = (size_t)snprintf(line, sizeof line, "%-20s %6s", "weight", "value");
    for (int k = 0; k < teams; k++)
        n += (size_t)snprintf(line + n, sizeof line - n, " %10s", game_team_name(g, k));
    if (teams == 2)
        snprintf(line + n, sizeof line - n, " %10s", "total");
    engine_say(e, "%s", line);
    for (int i = 0; i < g->weights->count; i++) {
        const eval_weight_t *w = &g->weights->w[i];
        n = (size_t)snprintf(line, sizeof line, "%-20s %6d", w->name, w->value);
        for (int k = 0; k < teams; k++)
            n += (size_t)snprintf(line + n, sizeof line - n, " %10d", t->coef[i][k]);
        if (teams == 2)
            snprintf(line + n, sizeof line - n, " %10d", w->value * (t->coef[i][0] - t->coef[i][1]));
        engine_say(e, "%s", line);
    }
}

static void cmd_eval(engine_t *e)
{
    const game_t *g = e->game;
    if (!e->searching)
        game_prepare(g); /* the evaluation uses the solved endings only once built */
    outcome_t o;
    if (g->decided(&e->rec->pos, &o)) {
        engine_say(e, "info string the game is over (%s): no evaluation", o.reason);
        return;
    }
    eval_trace_t t = {0};
    score_t s = g->evaluate(&e->rec->pos, &t);
    int teams = game_teams(g);
    char line[256];
    size_t n = (size_t)snprintf(line, sizeof line, "%-16s", "term");
    for (int k = 0; k < teams; k++)
        n += (size_t)snprintf(line + n, sizeof line - n, " %10s", game_team_name(g, k));
    if (teams == 2)
        snprintf(line + n, sizeof line - n, " %10s", "total");
    engine_say(e, "%s", line);
    int sum = 0;
    for (int i = 0; i < t.count; i++) {
        n = (size_t)snprintf(line, sizeof line, "%-16s", t.term[i].name);
        for (int k = 0; k < teams; k++)
            n += (size_t)snprintf(line + n, sizeof line - n, " %10d", t.term[i].value[k]);
        /* Two sides: the difference, from the first side's view. */
        if (teams == 2) {
            int total = t.term[i].value[0] - t.term[i].value[1];
            sum += total;
            snprintf(line + n, sizeof line - n, " %10d", total);
        }
        engine_say(e, "%s", line);
    }
    if (teams == 2)
        engine_say(e, "Total (for %s): %d", game_team_name(g, 0), sum);
    say_weights(e, &t);
    engine_say(e, "Evaluation (side to move, %s): %d", g->player_names[g->to_move(&e->rec->pos)], (int)s);
}

static void cmd_bench(engine_t *e, const tokens_t *tk)
{
    if (e->searching) {
        ERROR(e, "a search is already running");
        return;
    }
    long long d = 0;
    if (tk->n > 2 || (tk->n == 2 && !parse_int(tk->t[1], 1, MAX_PLY - 1, &d))) {
        ERROR(e, "usage: bench [depth]");
        return;
    }
    e->job = JOB_BENCH;
    e->job_depth = (int)d;
    engine_start_job(e);
}

/* "p1".."p4" for each player in mask, separated by spaces. */
static void player_list(player_mask_t mask, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (int p = 0; p < MAX_PLAYERS; p++)
        if (mask & player_bit(p))
            n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%sp%d", n ? " " : "", p + 1);
}

static void cmd_query(engine_t *e, const tokens_t *tk)
{
    if (tk->n != 2) {
        ERROR(e, "usage: query gameover|p1turn|turn|players|chance|result");
        return;
    }
    const game_t *g = e->game;
    const position_t *pos = &e->rec->pos;
    outcome_t o = record_outcome(e->rec);
    const char *q = tk->t[1];
    char list[32];
    if (strcmp(q, "gameover") == 0) {
        engine_say(e, "response %s", o.kind != OUTCOME_NONE ? "true" : "false");
    } else if (strcmp(q, "p1turn") == 0) {
        engine_say(e, "response %s", g->to_move(pos) == 0 ? "true" : "false");
    } else if (strcmp(q, "turn") == 0) {
        engine_say(e, "response p%d", g->to_move(pos) + 1);
    } else if (strcmp(q, "players") == 0) {
        /* Seats, then who is still in. */
        player_list(game_players_in(g, pos), list, sizeof list);
        engine_say(e, "response %d %s", g->players, list);
    } else if (strcmp(q, "chance") == 0) {
        engine_say(e, "response %s", o.kind == OUTCOME_NONE && game_at_chance(g, pos) ? "true" : "false");
    } else if (strcmp(q, "result") == 0) {
        /* One token, as UGI runners expect: a team's win is named by its
         * first seat (PROTOCOL.md). */
        if (o.kind == OUTCOME_WIN)
            engine_say(e, "response p%dwin", player_first(o.players) + 1);
        else
            engine_say(e, "response %s", o.kind == OUTCOME_DRAW ? "draw" : "none");
    } else {
        ERROR(e, "unknown query '%s'", q);
    }
}

/* Runs one command line; false for quit. `rest` is the untokenised text
 * after the command word. */
/* layout, state, legalmoves: one line each, the word and a JSON object
 * (PROTOCOL.md, "Describing the game"). */
static void cmd_describe(engine_t *e, const char *what)
{
    json_t j;
    json_init(&j);
    bool ok = strcmp(what, "layout") == 0  ? describe_layout(e->game, &j)
              : strcmp(what, "state") == 0 ? describe_state(e->rec, &j)
                                           : describe_moves(e->rec, &j);
    if (ok)
        engine_say(e, "%s %s", what, j.buf);
    else
        ERROR(e, "%s: %s", what, j.failed ? "out of memory" : "this game has no description");
    json_free(&j);
}

/* `help`: the commands, one line each, and where to read more. As info
 * strings, so that a GUI that sends it by mistake reads nothing else. */
static void cmd_help(engine_t *e)
{
    static const char *const lines[] = {
        "Denham speaks UGI and UCI. Commands:",
        "  uci | ugi                       identify, list the options",
        "  isready                         answer readyok",
        "  setoption name <N> [value <V>]  Hash, Threads, MultiPV, UCI_Variant, Skill Level, ... (see uci)",
        "  ucinewgame | uginewgame         a new game",
        "  position startpos|fen <F> [moves <m>...]",
        "  go [depth N | nodes N | movetime MS | wtime/btime/p1time.. MS | infinite | mate N | searchmoves ..]",
        "  go perft N                      count the move sequences of N plies",
        "  stop | ponderhit | quit",
        "  d | moves | eval                the board, the legal moves, the evaluation's terms",
        "  bench [depth]                   the search benchmark",
        "  query gameover|p1turn|turn|players|chance|result",
        "  layout | state | legalmoves     the board, the position and the legal moves as JSON, for GUIs",
        "  help                            this text",
        "The whole language: PROTOCOL.md; the rules of every game: docs/rules/.",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        engine_say(e, "info string %s", lines[i]);
}

static bool dispatch(engine_t *e, tokens_t *tk, const char *rest)
{
    /* A search that has answered is over: it no longer blocks `go`. */
    if (e->searching && atomic_load(&e->search_finished))
        engine_join_search(e, false);
    if (tk->n == 0)
        return true;
    const char *c = tk->t[0];
    if (strcmp(c, "quit") == 0) {
        engine_join_search(e, true);
        return false;
    }
    if (strcmp(c, "uci") == 0 || strcmp(c, "ugi") == 0) cmd_hello(e, c[1] == 'g');
    else if (strcmp(c, "isready") == 0) {
        engine_ensure_hash(e);
        if (!e->searching) /* never delays readyok during a search */
            game_prepare(e->game);
        engine_say(e, "readyok");
    }
    else if (strcmp(c, "stop") == 0) engine_join_search(e, true);
    else if (strcmp(c, "ucinewgame") == 0 || strcmp(c, "uginewgame") == 0) {
        engine_join_search(e, true);
        searcher_clear(e->searcher);
        reset_game(e);
        game_prepare(e->game); /* a game begins: no timed search should wait for this */
    } else if (strcmp(c, "setoption") == 0) cmd_setoption(e, tk);
    else if (strcmp(c, "position") == 0) cmd_position(e, rest);
    else if (strcmp(c, "go") == 0) cmd_go(e, tk);
    else if (strcmp(c, "d") == 0) cmd_board(e);
    else if (strcmp(c, "moves") == 0) cmd_moves(e);
    else if (strcmp(c, "eval") == 0) cmd_eval(e);
    else if (strcmp(c, "bench") == 0) cmd_bench(e, tk);
    else if (strcmp(c, "query") == 0) cmd_query(e, tk);
    else if (strcmp(c, "help") == 0) cmd_help(e);
    else if (strcmp(c, "layout") == 0 || strcmp(c, "state") == 0 || strcmp(c, "legalmoves") == 0)
        cmd_describe(e, c);
    else if (strcmp(c, "ponderhit") == 0) {
        if (e->searching && search_pondering(e->searcher))
            search_ponderhit(e->searcher);
        else
            ERROR(e, "ponderhit: no search is pondering");
    }
    else ERROR(e, "unknown command '%s' (help lists the commands)", c);
    return true;
}

bool engine_init(engine_t *e, FILE *out)
{
    memset(e, 0, sizeof *e);
    out_init(&e->out, out);
    e->game = variants_default();
    e->hash_mb = HASH_DEFAULT_MB;
    e->multipv = 1;
    e->skill = SKILL_MAX;
    e->skill_rng = skill_rng_new();
    e->overhead_ms = OVERHEAD_DEFAULT_MS;
    e->multiplayer = SEARCH_MULTIPLAYER_DEFAULT;
    e->chance_pruning = SEARCH_CHANCE_DEFAULT;
    e->random_state = 0x9E3779B97F4A7C15ull;
    e->rec = calloc(1, sizeof *e->rec);
    e->scratch = calloc(1, sizeof *e->scratch);
    e->searcher = searcher_new(1); /* resized at the first isready or go */
    position_t start;
    e->game->set_start(&start);
    return e->rec && e->scratch && e->searcher && record_init(e->rec, e->game, &start) &&
           record_init(e->scratch, e->game, &start);
}

void engine_free(engine_t *e)
{
    searcher_free(e->searcher);
    if (e->rec)
        record_free(e->rec);
    if (e->scratch)
        record_free(e->scratch);
    free(e->rec);
    free(e->scratch);
    free(e->last_position);
    out_destroy(&e->out);
}

/* Does the running job end by itself: perft and bench do; a search with a
 * depth, node, time or mate limit, or a clock for the player to move? */
static bool has_limit(const engine_t *e)
{
    if (e->job != JOB_SEARCH)
        return true;
    const search_request_t *req = &e->req;
    const search_limits_t *l = &req->limits;
    if (l->infinite || search_pondering(e->searcher))
        return false;
    return l->depth > 0 || l->nodes > 0 || l->movetime > 0 || l->mate > 0 || l->time[req->game->to_move(&req->root)] >= 0;
}

/* A command line's buffers: the line as read, a copy for the commands
 * that parse it whole, its words. The command loop has one; in the
 * single-threaded build its turns during a job have another (the job's
 * own command, `go`, is still on the stack below them). */
typedef struct line_buf {
    char *line, *copy;
    size_t cap, copy_cap;
    tokens_t tk;
} line_buf_t;

/* Runs one line as read (got bytes); false for quit or when memory is
 * short. */
static bool run_line(engine_t *e, line_buf_t *b, ssize_t got)
{
    char *line = b->line;
    /* A NUL byte would end the line early and turn its rest into
     * something else: such a line is refused whole. */
    if (strlen(line) != (size_t)got) {
        ERROR(e, "the line contains a NUL byte");
        return true;
    }
    /* Lines may end with CR LF (Windows GUIs and runners). */
    line[strcspn(line, "\r\n")] = 0;
    size_t n = strlen(line) + 1;
    if (n > b->copy_cap) {
        char *grown = realloc(b->copy, n);
        if (!grown)
            return false;
        b->copy = grown;
        b->copy_cap = n;
    }
    memcpy(b->copy, line, n);
    /* Only `position` reads its words from the whole line: any other
     * command cut short would be misread, so it is refused. */
    if (!tokens_split(line, &b->tk) && strcmp(b->tk.t[0], "position") != 0) {
        ERROR(e, "the command has more than %d words", MAX_TOKENS);
        return true;
    }
    /* The text after the command word, for commands that parse it whole. */
    const char *rest = "";
    if (b->tk.n > 0)
        rest = b->copy + (b->tk.t[0] - line) + strlen(b->tk.t[0]);
    return dispatch(e, &b->tk, rest);
}

static void line_buf_free(line_buf_t *b)
{
    free(b->line);
    free(b->copy);
}

typedef struct loop {
    engine_t *e;
    input_t in;
    line_buf_t main;
#if !THR_THREADS
    line_buf_t turn;
#endif
} loop_t;

#if !THR_THREADS
/* Commands that wait for the running job to end: `stop` and `quit`, and
 * a new game, which clears the tables the job searches with. */
static bool waits_for_the_job(const char *line, size_t len)
{
    static const char *const words[] = {"stop", "quit", "ucinewgame", "uginewgame"};
    while (len > 0 && (*line == ' ' || *line == '\t'))
        line++, len--;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t n = strlen(words[i]);
        if (len >= n && strncmp(line, words[i], n) == 0 && (len == n || strchr(" \t\r", line[n])))
            return true;
    }
    return false;
}

/* The command loop's turn between slices of a job (thread.h): the lines
 * that have come are run as the loop would run them beside a search
 * thread (`isready` answered, `ponderhit`, `position`, `d`, a second
 * `go` refused, ...), until one that waits for the job: that one stops
 * the job and is left for the loop, which reads it once the job has
 * answered. At the end of input a job with no limit of its own is
 * stopped, as the loop would at its end. Never waits for input. */
static bool take_turn(void *ctx)
{
    loop_t *l = ctx;
    engine_t *e = l->e;
    for (;;) {
        size_t len;
        const char *next = input_peek(&l->in, false, &len);
        if (!next) {
            if (input_done(&l->in) && !has_limit(e))
                engine_stop_job(e);
            return true;
        }
        if (waits_for_the_job(next, len)) {
            engine_stop_job(e);
            return false;
        }
        ssize_t got = input_line(&l->in, &l->turn.line, &l->turn.cap);
        if (got < 0 || !run_line(e, &l->turn, got))
            return true;
    }
}
#endif

int protocol_run(FILE *in, FILE *out)
{
    loop_t *l = calloc(1, sizeof *l);
    engine_t *e = malloc(sizeof *e);
    if (!l || !e || !engine_init(e, out)) {
        fprintf(stderr, "denham: out of memory\n");
        free(l);
        free(e);
        return 1;
    }
    l->e = e;
    input_init(&l->in, in);
#if !THR_THREADS
    thr_set_slice(take_turn, l, l->in.fd);
#endif
    bool running = true;
    ssize_t got;
    while (running && (got = input_line(&l->in, &l->main.line, &l->main.cap)) >= 0)
        running = run_line(e, &l->main, got);
    /* End of input: let a search with a limit answer, stop any other. */
    if (e->searching)
        engine_join_search(e, !running || !has_limit(e));
#if !THR_THREADS
    thr_set_slice(NULL, NULL, -1);
    line_buf_free(&l->turn);
#endif
    line_buf_free(&l->main);
    input_free(&l->in);
    free(l);
    engine_free(e);
    free(e);
    return 0;
}
