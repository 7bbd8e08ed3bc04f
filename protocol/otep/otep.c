/*
 * otep.c: the OpenTafl Engine Protocol loop. See PROTOCOL.md, "OTEP".
 * Reaches Brandubh through game_t, otn.c and the search through search.h: no
 * game's internals.
 */
#define _POSIX_C_SOURCE 200809L
#include "otep.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/core/number.h"
#include "../../engine/core/record.h"
#include "../../engine/core/thread.h"
#include "../../engine/search/multipv.h"
#include "otn.h"
#include "../common/out.h"

#define OTEP_HASH_MB 64
#define OTEP_OVERHEAD_MS 100 /* OpenTafl's pipes and clock are slower than a runner's */
#define ANALYSIS_MAX 16
#define ANALYSIS_PLIES 8 /* of each line shown */

typedef struct otep {
    out_t out;
    const game_t *game; /* NULL until a rules string Denham plays */
    record_t *rec;      /* the game as Denham follows it */
    record_t *before;   /* the game before Denham's last move (for `error`) */
    bool can_take_back; /* before is that game, and OpenTafl has not yet accepted the move */
    searcher_t *searcher;
    int movetime_ms;
    int64_t cap_ms; /* 0, or the longest any search may take */
    bool simple_moves;
    bool refused_rules; /* the run ended at rules Denham does not play */
    bool position_pending; /* a `position` whose side to move is still to come */
    char position[OTN_POSITION_MAX];
    int64_t clock_ms[2]; /* -1: no clock */
    bool overtime[2];
    /* The running search: `play` (one move) or `analyze` (several). */
    bool searching;
    bool analysing;
    atomic_bool cancelled; /* `finish`, `goodbye`, new rules: no answer */
    thr_t thread;
    search_request_t req;
    uint64_t history[SEARCH_HISTORY_MAX];
    int analysis_wanted;
    int64_t analysis_ms;
    move_t played; /* the move `play` answered, for the record */
    /* Moves OpenTafl refused (`error N`) in the position with this key:
     * never offered there again. */
    uint64_t refused_key;
    int n_refused;
    move_t refused[MAX_MOVES];
    move_t allowed[MAX_MOVES]; /* the root moves of a search that avoids them */
} otep_t;

static void say(otep_t *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    out_vline(&o->out, fmt, ap);
    va_end(ap);
}

/* ---- the search thread ---- */

static void request_init(otep_t *o, search_limits_t limits)
{
    const record_t *r = o->rec;
    o->req = (search_request_t){.game = o->game, .root = r->pos, .limits = limits};
    o->req.overhead_ms = OTEP_OVERHEAD_MS;
    o->req.history_len = record_recent_keys(r, o->history, SEARCH_HISTORY_MAX);
    o->req.history = o->history;
}

/* An evaluation for OpenTafl: pawn units (a man is 1.0) for the side to
 * move; a won or lost game is +-1000. */
static double evaluation(const pv_line_t *l)
{
    if (l->mate)
        return l->mate > 0 ? 1000.0 : -1000.0;
    return (double)l->score / 100.0;
}

static void *play_thread(void *arg)
{
    otep_t *o = arg;
    search_result_t r = search_run(o->searcher, &o->req);
    o->played = r.best;
    if (r.best == MOVE_NONE || atomic_load(&o->cancelled))
        return NULL;
    char text[OTN_MOVE_MAX];
    otn_move_text(o->game, &o->req.root, r.best, o->simple_moves, text, sizeof text);
    say(o, "move %s", text);
    return NULL;
}

/* `analyze`: the best move, then the best of the others, and so on: one
 * MultiPV search of the whole time. */
static void *analyse_thread(void *arg)
{
    otep_t *o = arg;
    static pv_line_t lines[ANALYSIS_MAX]; /* one analysis at a time */
    o->req.limits.movetime = o->analysis_ms > 0 ? o->analysis_ms : 1;
    int found = multipv_search(o->searcher, &o->req, o->analysis_wanted, lines);
    if (atomic_load(&o->cancelled) || found == 0)
        return NULL;
    char out[ANALYSIS_MAX * (ANALYSIS_PLIES * OTN_MOVE_MAX + 16) + 32];
    size_t len = (size_t)snprintf(out, sizeof out, "analysis %d", found);
    for (int k = 0; k < found; k++) {
        position_t pos = o->req.root;
        len += (size_t)snprintf(out + len, sizeof out - len, " ");
        for (int i = 0; i < lines[k].pv_len && i < ANALYSIS_PLIES; i++) {
            char text[OTN_MOVE_MAX];
            otn_move_text(o->game, &pos, lines[k].pv[i], o->simple_moves, text, sizeof text);
            len += (size_t)snprintf(out + len, sizeof out - len, "%s%s", i ? "|" : "", text);
            undo_t u;
            o->game->make(&pos, lines[k].pv[i], &u);
        }
        len += (size_t)snprintf(out + len, sizeof out - len, " %.2f", evaluation(&lines[k]));
    }
    say(o, "%s", out);
    return NULL;
}

/* Waits for the running search (stopping it first, with no answer, when
 * `cancel`); a move `play` answered becomes part of the game. */
static void settle(otep_t *o, bool cancel)
{
    if (!o->searching)
        return;
    if (cancel) {
        atomic_store(&o->cancelled, true);
        search_stop(o->searcher);
    }
    thr_join(o->thread);
    o->searching = false;
    if (!o->analysing && o->played != MOVE_NONE && !atomic_load(&o->cancelled)) {
        bool saved = record_copy(o->before, o->rec);
        o->can_take_back = record_play(o->rec, o->played) && saved;
    }
    o->played = MOVE_NONE;
}

static void start(otep_t *o, void *(*job)(void *), bool analysing)
{
    atomic_store(&o->cancelled, false);
    search_reset_stop(o->searcher);
    o->analysing = analysing;
    o->played = MOVE_NONE;
    o->searching = thr_create(&o->thread, job, o);
    if (!o->searching && !THR_THREADS) {
        /* No threads in this build: the search runs here, to its time
         * limit (no command is read meanwhile: PROTOCOL.md), and is
         * settled as a thread's would be. */
        job(o);
        o->searching = true;
    } else if (!o->searching) {
        say(o, "error 0 cannot start the search thread");
    }
}

/* ---- commands ---- */

static int side_named(const char *word)
{
    return strcmp(word, "attackers") == 0 ? 0 : strcmp(word, "defenders") == 0 ? 1 : -1;
}

static bool have_game(otep_t *o)
{
    if (!o->game)
        say(o, "error 0 no rules yet: send 'rules' with a Brandubh rules string");
    return o->game != NULL;
}

/* Sets the game to the OTN position with `side` to move (history lost). */
static bool set_position(otep_t *o, const char *record, int side)
{
    o->can_take_back = false;
    position_t pos;
    char why[200];
    if (!otn_load_position(o->game, record, side, &pos, why, sizeof why)) {
        say(o, "error 0 %s", why);
        return false;
    }
    return record_init(o->rec, o->game, &pos);
}

/* Rules Denham does not play end its part: `error -1` makes OpenTafl show
 * the reason and stop the engine's game, where `error 0` would leave it
 * waiting for moves that never come. False then. */
static bool cmd_rules(otep_t *o, const char *args)
{
    settle(o, true);
    char why[300];
    const game_t *g = otn_rules_variant(args, why, sizeof why);
    if (!g) {
        say(o, "error -1 %s", why);
        o->refused_rules = true;
        return false;
    }
    o->game = g;
    o->can_take_back = false;
    position_t start_pos;
    g->set_start(&start_pos);
    record_init(o->rec, g, &start_pos);
    searcher_clear(o->searcher);
    o->position_pending = false;
    o->n_refused = 0;
    return true;
}

static void cmd_position(otep_t *o, const char *args)
{
    settle(o, true);
    if (!have_game(o))
        return;
    /* The side to move comes with `side` or `play`; attackers until then. */
    if (strlen(args) >= sizeof o->position || !set_position(o, args, 0))
        return;
    snprintf(o->position, sizeof o->position, "%s", args);
    o->position_pending = true;
}

static void cmd_side(otep_t *o, const char *args)
{
    int side = side_named(args);
    if (side < 0) {
        say(o, "error 0 side: expected attackers or defenders");
        return;
    }
    if (o->position_pending && !o->searching) /* OpenTafl's analysis: position, side, analyze */
        set_position(o, o->position, side);
}

/* clock <attacker> <defender> <overtime> <attacker overtimes> <defender
 * overtimes>: OpenTafl sends milliseconds for the two clocks, with '*'
 * once main time is over, then the overtime's length in seconds and the
 * overtimes each side has left. Anything else is refused whole. */
static void cmd_clock(otep_t *o, char *args)
{
    int64_t ms[2];
    bool over[2];
    char *save = NULL, *w[6];
    int n = 0;
    for (char *t = strtok_r(args, " \t", &save); t && n < 6; t = strtok_r(NULL, " \t", &save))
        w[n++] = t;
    if (n != 5) {
        say(o, "error 0 clock: expected <attackers ms> <defenders ms> <overtime s> <attackers' overtimes> "
               "<defenders' overtimes>");
        return;
    }
    for (int i = 0; i < 2; i++) {
        size_t len = strlen(w[i]);
        over[i] = len > 1 && w[i][len - 1] == '*';
        if (over[i])
            w[i][len - 1] = 0;
        long long v;
        if (!number_parse(w[i], -1, 1LL << 40, &v)) {
            say(o, "error 0 clock: expected milliseconds for both sides, not '%.40s'", w[i]);
            return;
        }
        ms[i] = v;
    }
    for (int i = 2; i < 5; i++) {
        long long v;
        if (!number_parse(w[i], 0, 1LL << 40, &v)) {
            say(o, "error 0 clock: expected a whole number, not '%.40s'", w[i]);
            return;
        }
    }
    for (int i = 0; i < 2; i++) {
        o->clock_ms[i] = ms[i];
        o->overtime[i] = over[i];
    }
}

static search_limits_t play_limits(const otep_t *o, int side)
{
    search_limits_t l;
    limits_init(&l);
    if (o->clock_ms[side] < 0)
        l.movetime = o->movetime_ms;
    else if (o->overtime[side]) /* one overtime period for this move */
        l.movetime = o->clock_ms[side] * 3 / 4 > 1 ? o->clock_ms[side] * 3 / 4 : 1;
    else
        l.time[side] = o->clock_ms[side];
    if (o->cap_ms > 0 && (l.movetime == 0 || l.movetime > o->cap_ms))
        l.movetime = o->cap_ms;
    return l;
}

/* Limits the search to the legal moves OpenTafl has not refused in this
 * position; false when it refused them all. */
static bool avoid_refused(otep_t *o, const move_t *legal, int n)
{
    if (o->n_refused == 0 || o->refused_key != o->game->hash(&o->rec->pos))
        return true;
    int k = 0;
    for (int i = 0; i < n; i++) {
        bool refused = false;
        for (int j = 0; j < o->n_refused && !refused; j++)
            refused = legal[i] == o->refused[j];
        if (!refused)
            o->allowed[k++] = legal[i];
    }
    o->req.root_moves = o->allowed;
    o->req.n_root_moves = k;
    return k > 0;
}

static void cmd_play(otep_t *o, const char *args)
{
    settle(o, false);
    int side = side_named(args);
    if (side < 0) {
        say(o, "error 0 play: expected attackers or defenders");
        return;
    }
    if (!have_game(o))
        return;
    if (o->game->to_move(&o->rec->pos) != side) { /* OpenTafl knows best */
        char record[OTN_POSITION_MAX];
        otn_position_record(o->game, &o->rec->pos, record, sizeof record);
        set_position(o, record, side);
    }
    o->position_pending = false;
    move_t moves[MAX_MOVES];
    if (record_legal_moves(o->rec, moves) == 0) {
        say(o, "error 0 play: the game is over here");
        return;
    }
    request_init(o, play_limits(o, side));
    if (!avoid_refused(o, moves, record_legal_moves(o->rec, moves))) {
        say(o, "error 0 play: OpenTafl refused every legal move here");
        return;
    }
    start(o, play_thread, false);
}

static void cmd_analyze(otep_t *o, char *args)
{
    settle(o, false);
    long long wanted, seconds;
    char *save = NULL, *a = strtok_r(args, " \t", &save), *b = strtok_r(NULL, " \t", &save);
    if (!a || !b || strtok_r(NULL, " \t", &save) || !number_parse(a, 1, 1000, &wanted) ||
        !number_parse(b, 1, 86400, &seconds)) {
        say(o, "error 0 analyze: expected a number of moves and seconds");
        return;
    }
    if (!have_game(o))
        return;
    move_t moves[MAX_MOVES];
    if (record_legal_moves(o->rec, moves) == 0) {
        say(o, "error 0 analyze: the game is over here");
        return;
    }
    search_limits_t l;
    limits_init(&l);
    request_init(o, l);
    o->analysis_wanted = wanted < ANALYSIS_MAX ? (int)wanted : ANALYSIS_MAX;
    o->analysis_ms = o->cap_ms > 0 && seconds * 1000 > o->cap_ms ? o->cap_ms : seconds * 1000;
    start(o, analyse_thread, true);
}

/* opponent-move <move[|move...]> <position>: the moves are played on
 * Denham's game when they are legal and lead to the position; otherwise
 * the position is taken as it is, the side to move being Denham's. */
static void cmd_opponent_move(otep_t *o, char *args)
{
    settle(o, false);
    if (!have_game(o))
        return;
    char *save = NULL, *moves = strtok_r(args, " \t", &save), *record = strtok_r(NULL, " \t", &save);
    if (!moves) {
        say(o, "error 0 opponent-move: expected a move");
        return;
    }
    o->can_take_back = false; /* OpenTafl took Denham's move */
    int mover = o->game->to_move(&o->rec->pos);
    bool followed = true;
    move_t legal[MAX_MOVES];
    char *each = NULL;
    for (char *m = strtok_r(moves, "|", &each); m && followed; m = strtok_r(NULL, "|", &each)) {
        move_t mv = otn_parse_move(o->game, &o->rec->pos, m);
        followed = mv != MOVE_NONE && record_legal_moves(o->rec, legal) > 0 && record_play(o->rec, mv);
    }
    if (record) {
        char mine[OTN_POSITION_MAX];
        otn_position_record(o->game, &o->rec->pos, mine, sizeof mine);
        if (!followed || strcmp(mine, record) != 0)
            set_position(o, record, 1 - mover);
    } else if (!followed) {
        say(o, "error 3 opponent-move: '%s' is not legal here", moves);
    }
}

/* move <position>: OpenTafl accepted Denham's move; resynchronise if the
 * position is not the one Denham expects. */
static void cmd_move(otep_t *o, const char *args)
{
    settle(o, false);
    if (!have_game(o))
        return;
    o->can_take_back = false; /* accepted */
    char mine[OTN_POSITION_MAX];
    otn_position_record(o->game, &o->rec->pos, mine, sizeof mine);
    if (*args && strcmp(mine, args) != 0)
        set_position(o, args, o->game->to_move(&o->rec->pos));
}

/* error <code>: OpenTafl refused Denham's last move; take it back, and
 * remember it so that the next `play` here offers another. */
static void cmd_error(otep_t *o)
{
    settle(o, false);
    if (!o->game || !o->can_take_back)
        return;
    o->can_take_back = false;
    move_t refused = o->rec->moves[o->rec->plies - 1];
    record_swap(o->rec, o->before);
    uint64_t key = o->game->hash(&o->rec->pos);
    if (key != o->refused_key)
        o->n_refused = 0;
    o->refused_key = key;
    if (o->n_refused < MAX_MOVES)
        o->refused[o->n_refused++] = refused;
}

static void cmd_simple_moves(otep_t *o, const char *args)
{
    if (strcmp(args, "on") == 0 || strcmp(args, "off") == 0)
        o->simple_moves = args[1] == 'n';
    else
        say(o, "error 0 simple-moves: expected on or off");
}

/* Runs one line; false for goodbye. */
static bool dispatch(otep_t *o, char *line)
{
    char *args = line + strcspn(line, " \t");
    if (*args)
        *args++ = 0;
    args += strspn(args, " \t");
    if (strcmp(line, "goodbye") == 0) {
        settle(o, true);
        return false;
    }
    if (!*line || strcmp(line, "hello") == 0 || strcmp(line, "start") == 0)
        return true;
    if (strcmp(line, "rules") == 0) return cmd_rules(o, args);
    if (strcmp(line, "position") == 0) cmd_position(o, args);
    else if (strcmp(line, "side") == 0) cmd_side(o, args);
    else if (strcmp(line, "clock") == 0) cmd_clock(o, args);
    else if (strcmp(line, "play") == 0) cmd_play(o, args);
    else if (strcmp(line, "analyze") == 0) cmd_analyze(o, args);
    else if (strcmp(line, "opponent-move") == 0) cmd_opponent_move(o, args);
    else if (strcmp(line, "move") == 0) cmd_move(o, args);
    else if (strcmp(line, "error") == 0) cmd_error(o);
    else if (strcmp(line, "simple-moves") == 0) cmd_simple_moves(o, args);
    else if (strcmp(line, "finish") == 0) settle(o, true);
    else say(o, "error 0 unknown command '%.60s'", line);
    return true;
}

int otep_run(FILE *in, FILE *out, int movetime_ms) { return otep_run_capped(in, out, movetime_ms, 0); }

int otep_run_capped(FILE *in, FILE *out, int movetime_ms, int64_t cap_ms)
{
    otep_t *o = calloc(1, sizeof *o);
    if (o) {
        o->rec = calloc(1, sizeof *o->rec);
        o->before = calloc(1, sizeof *o->before);
        o->searcher = searcher_new(OTEP_HASH_MB);
    }
    if (!o || !o->rec || !o->before || !o->searcher) {
        fprintf(stderr, "denham: out of memory\n");
        return 1;
    }
    out_init(&o->out, out);
    o->movetime_ms = movetime_ms;
    o->cap_ms = cap_ms;
    o->simple_moves = true;
    o->clock_ms[0] = o->clock_ms[1] = -1;
    say(o, "hello");
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    bool running = true;
    while (running && (got = getline(&line, &cap, in)) >= 0) {
        if (strlen(line) != (size_t)got) {
            say(o, "error 0 the line contains a NUL byte");
            continue;
        }
        line[strcspn(line, "\r\n")] = 0;
        running = dispatch(o, line);
    }
    settle(o, !running); /* at end of input a running search still answers */
    free(line);
    searcher_free(o->searcher);
    record_free(o->rec);
    record_free(o->before);
    free(o->rec);
    free(o->before);
    out_destroy(&o->out);
    int status = o->refused_rules ? 1 : 0;
    free(o);
    return status;
}
