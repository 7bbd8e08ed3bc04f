/* protocol.c: the command loop. See PROTOCOL.md for the language itself. */
#define _POSIX_C_SOURCE 200809L
#include "protocol.h"

#include <assert.h>
#include <errno.h>
#include <stdatomic.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "../engine/core/number.h"
#include "../engine/core/perft.h"
#include "../engine/core/record.h"
#include "../engine/games/variants.h"
#include "../engine/search/bench.h"
#include "describe.h"
#include "../engine/search/search.h"
#include "../engine/search/skill.h"
#include "out.h"

#define HASH_DEFAULT_MB 16
#define HASH_MAX_MB 16384
#define OVERHEAD_DEFAULT_MS 30
#define OVERHEAD_MAX_MS 5000
/* Searches longer than this also report the root move being searched
 * and failed aspiration windows (as Stockfish does, after 3 s). */
#define PROGRESS_AFTER_MS 3000
/* go mate n: at most this many moves (its search goes 4n plies deep). */
#define GO_MATE_MAX ((MAX_PLY - 1) / SEARCH_PLIES_PER_MOVE)
/* Words per command; `position` is parsed from the untokenised line, so
 * its move list is not bounded by this. */
#define MAX_TOKENS 1024

static const char *const multiplayer_names[] = {[MULTI_PARANOID] = "paranoid", [MULTI_BRS] = "brs"};
static const char *const chance_names[] = {
    [CHANCE_EXPECTIMAX] = "expectimax", [CHANCE_STAR1] = "star1", [CHANCE_STAR2] = "star2"};



typedef struct engine {
    out_t out;
    const game_t *game;
    record_t *rec;
    record_t *scratch; /* where `position` is set up before it replaces rec */
    /* The arguments of the `position` command rec was set up from, when it
     * had a move list: a runner sends the whole game before every move, and
     * a command that extends this one only has its new moves played. */
    char *last_position;
    size_t last_position_cap;
    searcher_t *searcher;
    int hash_mb;
    int multipv; /* the MultiPV option */
    bool hash_allocated; /* the table is sized at the first isready or go */
    int overhead_ms;
    multiplayer_t multiplayer;
    chance_pruning_t chance_pruning;
    bool random_mover; /* Strength random: a uniformly random legal move */
    int skill;         /* the Skill Level option; SKILL_MAX: full strength */
    rng_t skill_rng;   /* a weakened search's choices */
    pv_line_t skill_lines[SEARCH_MULTIPV_MAX];
    bool ponder_option; /* the Ponder option */
    bool uci;           /* the last hello was `uci` (not `ugi`): ponder moves may be named */
    bool go_ponder;     /* the running search is a `go ponder` */
    uint64_t random_state;
    /* The running job (a search, go perft or bench), if any: they all run
     * on one thread so that the command loop keeps answering. */
    enum { JOB_SEARCH, JOB_PERFT, JOB_BENCH } job;
    int job_depth;
    atomic_bool job_stop;
    bool searching;
    atomic_bool search_finished; /* set by the search thread after its bestmove */
    pthread_t thread;
    search_request_t req;
    uint64_t req_history[SEARCH_HISTORY_MAX];
    move_t searchmoves[MAX_MOVES]; /* go searchmoves: the root moves allowed */
    int n_searchmoves;
} engine_t;

/* ---- output ---- */

static void say(engine_t *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    out_vline(&e->out, fmt, ap);
    va_end(ap);
}

#define ERROR(e, ...) say((e), "info string error: " __VA_ARGS__)

/* ---- tokens ---- */

typedef struct tokens {
    int n;
    char *t[MAX_TOKENS];
} tokens_t;

/* Splits line into words; false when it has more than MAX_TOKENS (the
 * first MAX_TOKENS are kept). */
static bool tokenize(char *line, tokens_t *tk)
{
    tk->n = 0;
    char *s = strtok(line, " \t\r\n");
    for (; s && tk->n < MAX_TOKENS; s = strtok(NULL, " \t\r\n"))
        tk->t[tk->n++] = s;
    return s == NULL;
}

/* Parses a whole decimal integer in [lo, hi]. */
static bool parse_int(const char *s, long long lo, long long hi, long long *out)
{
    return number_parse(s, lo, hi, out);
}

/* Joins tokens [from, to) with single spaces into buf; false when they do
 * not fit (the caller refuses them: nothing is cut short). */
static bool join_tokens(const tokens_t *tk, int from, int to, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = from; i < to; i++)
        n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", i > from ? " " : "", tk->t[i]);
    return n < len;
}

/* ---- search thread ---- */

static void print_info(void *ctx, const position_t *root, const search_info_t *info)
{
    engine_t *e = ctx;
    const game_t *g = e->req.game;
    char line[8192];
    size_t n = 0;
    n += (size_t)snprintf(line + n, sizeof line - n, "info depth %d seldepth %d ", info->depth, info->seldepth);
    if (info->multipv > 0)
        n += (size_t)snprintf(line + n, sizeof line - n, "multipv %d ", info->multipv);
    if (info->mate)
        n += (size_t)snprintf(line + n, sizeof line - n, "score mate %d", info->mate);
    else
        n += (size_t)snprintf(line + n, sizeof line - n, "score cp %d", (int)info->score);
    if (info->bound != SEARCH_EXACT)
        n += (size_t)snprintf(line + n, sizeof line - n, " %s", info->bound == SEARCH_LOWER ? "lowerbound" : "upperbound");
    n += (size_t)snprintf(line + n, sizeof line - n, " nodes %llu nps %llu hashfull %d",
                          (unsigned long long)info->nodes, (unsigned long long)info->nps, info->hashfull);
    if (info->tables)
        n += (size_t)snprintf(line + n, sizeof line - n, " tbhits %llu", (unsigned long long)info->tbhits);
    n += (size_t)snprintf(line + n, sizeof line - n, " time %lld pv", (long long)info->time_ms);
    position_t pos = *root;
    for (int i = 0; i < info->pv_len && n < sizeof line - GAME_MOVE_TEXT_MAX - 2; i++) {
        char mv[GAME_MOVE_TEXT_MAX];
        undo_t u;
        g->move_text(&pos, info->pv[i], mv, sizeof mv);
        n += (size_t)snprintf(line + n, sizeof line - n, " %s", mv);
        g->make(&pos, info->pv[i], &u);
    }
    say(e, "%s", line);
}

static void print_currmove(void *ctx, const position_t *root, int depth, move_t move, int number)
{
    engine_t *e = ctx;
    char mv[GAME_MOVE_TEXT_MAX];
    e->req.game->move_text(root, move, mv, sizeof mv);
    say(e, "info depth %d currmove %s currmovenumber %d", depth, mv, number);
}

static void run_perft(engine_t *e, int depth);
static void run_bench(engine_t *e, int depth);

static void *search_thread(void *arg)
{
    engine_t *e = arg;
    if (e->job != JOB_SEARCH) {
        if (e->job == JOB_PERFT)
            run_perft(e, e->job_depth);
        else
            run_bench(e, e->job_depth);
        atomic_store(&e->search_finished, true);
        return NULL;
    }
    search_result_t r = skill_search(e->searcher, &e->req, e->skill, e->skill_lines, &e->skill_rng);
    /* UCI: after `go infinite` the answer waits for `stop`, after `go
     * ponder` for `stop` or `ponderhit`. */
    while ((e->req.limits.infinite || search_pondering(e->searcher)) && !search_stopped(e->searcher)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    const game_t *g = e->req.game;
    if (r.best == MOVE_NONE) {
        atomic_store(&e->search_finished, true);
        say(e, "bestmove (none)");
        return NULL;
    }
    char best[GAME_MOVE_TEXT_MAX], ponder[GAME_MOVE_TEXT_MAX + 8] = "";
    g->move_text(&e->req.root, r.best, best, sizeof best);
    /* A `ponder` token only for UCI with the Ponder option on: strict UGI
     * runners read exactly two tokens. */
    if (e->uci && e->ponder_option && r.ponder != MOVE_NONE) {
        position_t after = e->req.root;
        undo_t u;
        g->make(&after, r.best, &u);
        strcpy(ponder, " ponder ");
        g->move_text(&after, r.ponder, ponder + 8, sizeof ponder - 8);
    }
    search_set_pondering(e->searcher, false);
    /* Finished before the answer goes out: a GUI may send the next `go`
     * the moment it reads bestmove, and that `go` must find us done. */
    atomic_store(&e->search_finished, true);
    say(e, "bestmove %s%s", best, ponder);
    return NULL;
}

/* Waits for the running search, if any, to print its bestmove. */
static void join_search(engine_t *e, bool stop)
{
    if (!e->searching)
        return;
    if (stop) {
        search_stop(e->searcher);
        atomic_store(&e->job_stop, true);
    }
    pthread_join(e->thread, NULL);
    e->searching = false;
}

/* Sizes the table as the Hash option says, once: at the first isready or
 * go, not at start-up, as the UGI text advises (a GUI sets Hash first). */
static void ensure_hash(engine_t *e)
{
    if (e->hash_allocated)
        return;
    e->hash_allocated = true;
    if (!searcher_set_hash(e->searcher, (size_t)e->hash_mb)) {
        ERROR(e, "cannot allocate %d MB for the hash table; using 1 MB", e->hash_mb);
        e->hash_mb = 1;
    }
}

/* Starts e->job on the search thread; false (with an error line) when the
 * thread cannot be had. */
static bool start_job(engine_t *e)
{
    ensure_hash(e);
    search_reset_stop(e->searcher);
    atomic_store(&e->job_stop, false);
    atomic_store(&e->search_finished, false);
    if (pthread_create(&e->thread, NULL, search_thread, e) != 0) {
        ERROR(e, "cannot start the search thread");
        return false;
    }
    e->searching = true;
    return true;
}

/* ---- commands ---- */

static void cmd_hello(engine_t *e, bool ugi)
{
    say(e, "id name Denham %s", DENHAM_VERSION);
    say(e, "id author the Denham developers");
    say(e, "option name Hash type spin default %d min 1 max %d", HASH_DEFAULT_MB, HASH_MAX_MB);
    say(e, "option name Clear Hash type button");
    say(e, "option name Threads type spin default 1 min 1 max %d", SEARCH_THREADS_MAX);
    say(e, "option name MultiPV type spin default 1 min 1 max %d", SEARCH_MULTIPV_MAX);
    say(e, "option name Move Overhead type spin default %d min 0 max %d", OVERHEAD_DEFAULT_MS, OVERHEAD_MAX_MS);
    say(e, "option name MultiplayerSearch type combo default %s var paranoid var brs",
        multiplayer_names[SEARCH_MULTIPLAYER_DEFAULT]);
    say(e, "option name ChancePruning type combo default %s var star2 var star1 var expectimax",
        chance_names[SEARCH_CHANCE_DEFAULT]);
    say(e, "option name Strength type combo default full var full var random");
    say(e, "option name Skill Level type spin default %d min 0 max %d", SKILL_MAX, SKILL_MAX);
    say(e, "option name Ponder type check default false");
    char combo[1024];
    size_t n = (size_t)snprintf(combo, sizeof combo, "option name UCI_Variant type combo default %s",
                                variants_default()->name);
    for (int i = 0; variants_at(i); i++)
        n += (size_t)snprintf(combo + n, n < sizeof combo ? sizeof combo - n : 0, " var %s", variants_at(i)->name);
    say(e, "%s", combo);
    e->uci = !ugi;
    say(e, ugi ? "ugiok" : "uciok");
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

/* Every option `uci` lists, for the error of a setoption without `value`. */
static const char *const option_names[] = {"Hash",          "Clear Hash",        "Threads",       "MultiPV",
                                           "Move Overhead", "MultiplayerSearch", "ChancePruning", "Strength",
                                           "Skill Level",   "Ponder",            "UCI_Variant"};

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
    if (!join_tokens(tk, 2, v, name, sizeof name) ||
        !join_tokens(tk, v + 1 < tk->n ? v + 1 : tk->n, tk->n, value, sizeof value)) {
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
        if (strcasecmp(value, "true") != 0 && strcasecmp(value, "false") != 0) {
            ERROR(e, "Ponder must be true or false");
            return;
        }
        e->ponder_option = strcasecmp(value, "true") == 0;
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

static void say_divide(void *ctx, const char *move, uint64_t count)
{
    say(ctx, "%s: %llu", move, (unsigned long long)count);
}

/* Repetition is ignored, as docs/rules/README.md defines perft. Runs on
 * the search thread: `stop` ends it, with one line saying so. */
static void run_perft(engine_t *e, int depth)
{
    position_t pos = e->req.root;
    bool stopped;
    uint64_t total = perft_divide_stoppable(e->req.game, &pos, depth, say_divide, e, &e->job_stop, &stopped);
    if (stopped) {
        say(e, "info string perft stopped");
        return;
    }
    say(e, "");
    say(e, "Nodes searched: %llu", (unsigned long long)total);
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
        bool is_inc;
        if (clock_player(w, &is_inc) >= 0 || strcmp(w, "infinite") == 0 || strcmp(w, "movestogo") == 0 ||
            strcmp(w, "movetime") == 0 || strcmp(w, "depth") == 0 || strcmp(w, "nodes") == 0 ||
            strcmp(w, "mate") == 0 || strcmp(w, "ponder") == 0)
            break;
        move_t m = e->game->parse_move(&e->rec->pos, w);
        if (m == MOVE_NONE) {
            ERROR(e, "go searchmoves: illegal move '%s'", w);
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

static bool parse_go(engine_t *e, const tokens_t *tk, search_limits_t *l)
{
    limits_init(l);
    e->n_searchmoves = 0;
    e->go_ponder = false;
    for (int i = 1; i < tk->n; i++) {
        const char *w = tk->t[i];
        long long v;
        bool is_inc;
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
    say(e, "bestmove %s", text);
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
        start_job(e);
        return;
    }
    search_limits_t limits;
    if (!parse_go(e, tk, &limits))
        return;
    if (limits.mate && e->game->chance_outcomes) {
        ERROR(e, "go mate: a game with dice has no forced mates (scores are expected values)");
        return;
    }
    record_t *r = e->rec;
    e->req = (search_request_t){0};
    e->req.game = e->game;
    e->req.root = r->pos;
    e->req.limits = limits;
    e->req.overhead_ms = e->overhead_ms;
    e->req.report = print_info;
    e->req.report_ctx = e;
    e->req.report_root_move = print_currmove;
    e->req.progress_after_ms = PROGRESS_AFTER_MS;
    /* The search keeps its own copy of the history: `position` may change
     * the record while it runs. */
    e->req.history_len = record_recent_keys(r, e->req_history, SEARCH_HISTORY_MAX);
    e->req.history = e->req_history;
    if (record_outcome(r).kind != OUTCOME_NONE) {
        say(e, "info string the game is over");
        say(e, "bestmove (none)");
        return;
    }
    if (game_at_chance(e->game, &r->pos)) {
        ERROR(e, "the die is still to be rolled: add the face (S, M, L, SM, SL or ML) to the moves");
        /* One bestmove per go, always: a runner waits for it. */
        say(e, "bestmove (none)");
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
    start_job(e);
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
    say(e, "%s", line);
}

static void cmd_eval(engine_t *e)
{
    const game_t *g = e->game;
    outcome_t o;
    if (g->decided(&e->rec->pos, &o)) {
        say(e, "info string the game is over (%s): no evaluation", o.reason);
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
    say(e, "%s", line);
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
        say(e, "%s", line);
    }
    if (teams == 2)
        say(e, "Total (for %s): %d", game_team_name(g, 0), sum);
    say(e, "Evaluation (side to move, %s): %d", g->player_names[g->to_move(&e->rec->pos)], (int)s);
}

static void bench_progress(void *ctx, int index, const position_t *pos, const search_result_t *r)
{
    engine_t *e = ctx;
    char mv[GAME_MOVE_TEXT_MAX] = "(none)";
    if (r->best != MOVE_NONE)
        e->game->move_text(pos, r->best, mv, sizeof mv);
    say(e, "info string bench position %d: nodes %llu bestmove %s", index + 1, (unsigned long long)r->nodes, mv);
}

static void run_bench(engine_t *e, int depth)
{
    bench_result_t b;
    /* As `go` would search: every option that shapes the search. */
    bench_options_t o = {e->multiplayer, e->chance_pruning, e->multipv, e->skill};
    if (!bench_run(e->game, e->searcher, depth, &o, bench_progress, e, &b)) {
        ERROR(e, "a bench position of %s does not parse, or memory is short", e->game->name);
        return;
    }
    if (search_stopped(e->searcher)) {
        say(e, "info string bench stopped");
        searcher_clear(e->searcher);
        return;
    }
    int64_t t = b.time_us > 0 ? b.time_us : 1;
    say(e, "Total time (ms) : %lld", (long long)(b.time_us / 1000));
    say(e, "Nodes searched  : %llu", (unsigned long long)b.nodes);
    say(e, "Nodes/second    : %llu", (unsigned long long)(b.nodes * 1000000 / (uint64_t)t));
    searcher_clear(e->searcher);
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
    start_job(e);
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
        say(e, "response %s", o.kind != OUTCOME_NONE ? "true" : "false");
    } else if (strcmp(q, "p1turn") == 0) {
        say(e, "response %s", g->to_move(pos) == 0 ? "true" : "false");
    } else if (strcmp(q, "turn") == 0) {
        say(e, "response p%d", g->to_move(pos) + 1);
    } else if (strcmp(q, "players") == 0) {
        /* Seats, then who is still in. */
        player_list(game_players_in(g, pos), list, sizeof list);
        say(e, "response %d %s", g->players, list);
    } else if (strcmp(q, "chance") == 0) {
        say(e, "response %s", o.kind == OUTCOME_NONE && game_at_chance(g, pos) ? "true" : "false");
    } else if (strcmp(q, "result") == 0) {
        /* One token, as UGI runners expect: a team's win is named by its
         * first seat (PROTOCOL.md). */
        if (o.kind == OUTCOME_WIN)
            say(e, "response p%dwin", player_first(o.players) + 1);
        else
            say(e, "response %s", o.kind == OUTCOME_DRAW ? "draw" : "none");
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
        say(e, "%s %s", what, j.buf);
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
        say(e, "info string %s", lines[i]);
}

static bool dispatch(engine_t *e, tokens_t *tk, const char *rest)
{
    /* A search that has answered is over: it no longer blocks `go`. */
    if (e->searching && atomic_load(&e->search_finished))
        join_search(e, false);
    if (tk->n == 0)
        return true;
    const char *c = tk->t[0];
    if (strcmp(c, "quit") == 0) {
        join_search(e, true);
        return false;
    }
    if (strcmp(c, "uci") == 0 || strcmp(c, "ugi") == 0) cmd_hello(e, c[1] == 'g');
    else if (strcmp(c, "isready") == 0) {
        ensure_hash(e);
        if (!e->searching) /* never delays readyok during a search */
            game_prepare(e->game);
        say(e, "readyok");
    }
    else if (strcmp(c, "stop") == 0) join_search(e, true);
    else if (strcmp(c, "ucinewgame") == 0 || strcmp(c, "uginewgame") == 0) {
        join_search(e, true);
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

static bool engine_init(engine_t *e, FILE *out)
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

static void engine_free(engine_t *e)
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

int protocol_run(FILE *in, FILE *out)
{
    engine_t *e = malloc(sizeof *e);
    if (!e || !engine_init(e, out)) {
        fprintf(stderr, "denham: out of memory\n");
        return 1;
    }
    static tokens_t tk; /* the main thread's only */
    char *line = NULL;
    size_t cap = 0;
    bool running = true;
    char *copy = NULL;
    size_t copy_cap = 0;
    ssize_t got;
    while (running && (got = getline(&line, &cap, in)) >= 0) {
        /* A NUL byte would end the line early and turn its rest into
         * something else: such a line is refused whole. */
        if (strlen(line) != (size_t)got) {
            ERROR(e, "the line contains a NUL byte");
            continue;
        }
        /* Lines may end with CR LF (Windows GUIs and runners). */
        line[strcspn(line, "\r\n")] = 0;
        size_t n = strlen(line) + 1;
        if (n > copy_cap) {
            char *grown = realloc(copy, n);
            if (!grown)
                break;
            copy = grown;
            copy_cap = n;
        }
        memcpy(copy, line, n);
        /* Only `position` reads its words from the whole line: any other
         * command cut short would be misread, so it is refused. */
        if (!tokenize(line, &tk) && strcmp(tk.t[0], "position") != 0) {
            ERROR(e, "the command has more than %d words", MAX_TOKENS);
            continue;
        }
        /* The text after the command word, for commands that parse it whole. */
        const char *rest = "";
        if (tk.n > 0)
            rest = copy + (tk.t[0] - line) + strlen(tk.t[0]);
        running = dispatch(e, &tk, rest);
    }
    free(copy);
    /* End of input: let a search with a limit answer, stop any other. */
    if (running && e->searching)
        join_search(e, !has_limit(e));
    free(line);
    engine_free(e);
    free(e);
    return 0;
}

/* ---- command-line subcommands ---- */

static void print_divide(void *ctx, const char *move, uint64_t count)
{
    fprintf(ctx, "%s: %llu\n", move, (unsigned long long)count);
}

int protocol_cli_perft(int argc, char **argv, FILE *out)
{
    long long depth;
    const game_t *g = argc >= 2 ? variants_find(argv[0]) : NULL;
    if (!g || !parse_int(argv[1], 1, 64, &depth)) {
        fprintf(stderr, "usage: denham perft <variant> <depth> [fen]\n");
        return 2;
    }
    position_t pos;
    char err[160];
    if (argc >= 3) {
        char fen[GAME_FEN_MAX * 2];
        tokens_t *tk = malloc(sizeof *tk);
        if (!tk)
            return 1;
        tk->n = 0;
        for (int i = 2; i < argc && tk->n < MAX_TOKENS; i++)
            tk->t[tk->n++] = argv[i];
        bool fits = join_tokens(tk, 0, tk->n, fen, sizeof fen);
        free(tk);
        if (!fits) {
            fprintf(stderr, "denham: the FEN is longer than %zu characters\n", sizeof fen - 1);
            return 2;
        }
        if (!g->parse_fen(&pos, fen, err, sizeof err)) {
            fprintf(stderr, "denham: bad FEN '%s': %s\n", fen, err);
            return 2;
        }
    } else {
        g->set_start(&pos);
    }
    int64_t start = timeman_now_ms();
    uint64_t total = perft_divide(g, &pos, (int)depth, print_divide, out);
    int64_t ms = timeman_now_ms() - start;
    fprintf(out, "\nNodes searched: %llu\n", (unsigned long long)total);
    fprintf(out, "Time (ms): %lld\nNodes/second: %llu\n", (long long)ms,
            (unsigned long long)(total * 1000 / (uint64_t)(ms > 0 ? ms : 1)));
    return 0;
}

int protocol_cli_bench(int argc, char **argv, FILE *out)
{
    const game_t *g = variants_default();
    long long depth = 0;
    int i = 0;
    if (i < argc && variants_find(argv[i]))
        g = variants_find(argv[i++]);
    if (i < argc && !parse_int(argv[i++], 1, MAX_PLY - 1, &depth)) {
        fprintf(stderr, "usage: denham bench [variant] [depth]\n");
        return 2;
    }
    if (i < argc) {
        fprintf(stderr, "usage: denham bench [variant] [depth]\n");
        return 2;
    }
    engine_t *e = malloc(sizeof *e);
    if (!e || !engine_init(e, out)) {
        fprintf(stderr, "denham: out of memory\n");
        return 1;
    }
    e->game = g;
    ensure_hash(e);
    run_bench(e, (int)depth);
    engine_free(e);
    free(e);
    return 0;
}
