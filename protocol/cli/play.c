/*
 * play.c: `denham play`. See play.h and README.md.
 * Reaches games through game_t and the registry, the search through search.h:
 * no game's internals.
 */
#define _POSIX_C_SOURCE 200809L
#include "play.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../engine/core/number.h"
#include "../../engine/core/record.h"
#include "../../engine/core/rng.h"
#include "../../engine/games/variants.h"
#include "../../engine/search/search.h"
#include "../../engine/search/skill.h"
#include "usage.h"

#define PLAY_HASH_MB 64
#define PLAY_MOVETIME_MS 1000

typedef struct session {
    FILE *in, *out;
    bool ansi;
    const game_t *game;
    record_t rec;
    bool human[MAX_PLAYERS];
    int64_t movetime_ms;
    searcher_t *searcher;
    rng_t dice;
    int skill;       /* Denham's moves (hints are at full strength) */
    rng_t skill_rng;
    pv_line_t lines[SEARCH_MULTIPV_MAX];
} session_t;

static bool read_args(int argc, char **argv, session_t *s)
{
    s->game = variants_default();
    s->movetime_ms = PLAY_MOVETIME_MS;
    s->skill = SKILL_MAX;
    const char *side = "p1";
    for (int i = 0; i < argc; i++) {
        long long v;
        if (strcmp(argv[i], "--movetime") == 0 && i + 1 < argc && number_parse(argv[i + 1], 1, 1LL << 40, &v)) {
            s->movetime_ms = v;
            i++;
        } else if (strcmp(argv[i], "--skill") == 0 && i + 1 < argc && number_parse(argv[i + 1], 0, SKILL_MAX, &v)) {
            s->skill = (int)v;
            i++;
        } else if (strcmp(argv[i], "--side") == 0 && i + 1 < argc) {
            side = argv[++i];
        } else if (argv[i][0] != '-' && variants_find(argv[i])) {
            s->game = variants_find(argv[i]);
        } else {
            bool valued = strcmp(argv[i], "--movetime") == 0 || strcmp(argv[i], "--skill") == 0 ||
                          strcmp(argv[i], "--side") == 0;
            const char *why = !valued ? (argv[i][0] == '-' ? "unknown option" : "unknown variant")
                              : i + 1 < argc ? "bad value (the ranges are below)"
                                             : "takes a value";
            return usage_error("play", valued && i + 1 < argc ? argv[i + 1] : argv[i], why) == 0;
        }
    }
    bool all = strcmp(side, "both") == 0, none = strcmp(side, "none") == 0;
    int seat = side[0] == 'p' && side[1] >= '1' && side[1] <= '4' && !side[2] ? side[1] - '1' : -1;
    if (!all && !none && (seat < 0 || seat >= s->game->players))
        return usage_error("play", side, "not a seat of this game (p1 to the number of players, both, none)") == 0;
    for (int p = 0; p < s->game->players; p++)
        s->human[p] = all || p == seat;
    return true;
}

static const char *player_name(const game_t *g, int p, char *buf, size_t len)
{
    snprintf(buf, len, "p%d (%s)", p + 1, game_team_name(g, g->team_of[p]));
    return buf;
}

static void show(session_t *s)
{
    char board[GAME_BOARD_TEXT_MAX];
    s->game->print_board(&s->rec.pos, board, sizeof board, s->ansi);
    fprintf(s->out, "\n%s", board);
}

static void list_moves(session_t *s)
{
    move_t moves[MAX_MOVES];
    int n = record_legal_moves(&s->rec, moves);
    fprintf(s->out, "moves:");
    for (int i = 0; i < n; i++) {
        char text[GAME_MOVE_TEXT_MAX];
        s->game->move_text(&s->rec.pos, moves[i], text, sizeof text);
        fprintf(s->out, " %s", text);
    }
    fprintf(s->out, "\n");
}

/* Denham's move at the session's skill, or a hint at full strength. */
static search_result_t think(session_t *s, int64_t ms, int skill)
{
    static uint64_t history[SEARCH_HISTORY_MAX];
    const record_t *r = &s->rec;
    search_request_t req = {.game = s->game, .root = r->pos};
    limits_init(&req.limits);
    req.limits.movetime = ms;
    req.history_len = record_recent_keys(r, history, SEARCH_HISTORY_MAX);
    req.history = history;
    search_reset_stop(s->searcher);
    return skill_search(s->searcher, &req, skill, s->lines, &s->skill_rng);
}

static void describe(session_t *s, const char *who, move_t m, const search_result_t *r)
{
    char text[GAME_MOVE_TEXT_MAX];
    s->game->move_text(&s->rec.pos, m, text, sizeof text);
    int mate = r->mate;
    if (mate)
        fprintf(s->out, "%s %s (%s in %d, depth %d)\n", who, text, mate > 0 ? "wins" : "loses", mate > 0 ? mate : -mate,
                r->depth);
    else
        fprintf(s->out, "%s %s (score %d, depth %d)\n", who, text, (int)r->score, r->depth);
}

/* The die, rolled here by weight: the roll is shown, never chosen. */
static void roll(session_t *s)
{
    move_t face = game_roll(s->game, &s->rec.pos, &s->dice);
    char text[GAME_MOVE_TEXT_MAX];
    s->game->move_text(&s->rec.pos, face, text, sizeof text);
    fprintf(s->out, "die: %s\n", text);
    record_play(&s->rec, face);
}

/* Rebuilds the game without its last `plies` plies. */
static void take_back(session_t *s, int plies)
{
    static record_t shorter;
    record_init(&shorter, s->game, &s->rec.start);
    for (int i = 0; i < s->rec.plies - plies; i++)
        record_play(&shorter, s->rec.moves[i]);
    record_swap(&s->rec, &shorter);
}

/* Takes back to the last position where a person was to move. */
static void undo(session_t *s)
{
    const game_t *g = s->game;
    position_t pos = s->rec.start;
    int last = -1;
    for (int i = 0; i < s->rec.plies; i++) {
        if (s->human[g->to_move(&pos)] && !game_at_chance(g, &pos))
            last = i;
        undo_t u;
        g->make(&pos, s->rec.moves[i], &u);
    }
    if (last < 0) {
        fprintf(s->out, "nothing to undo\n");
        return;
    }
    take_back(s, s->rec.plies - last);
}

static void help(session_t *s)
{
    fprintf(s->out, "type a move (as 'moves' lists them), or: moves, hint, undo, new, board, help, quit\n");
}

/* One person's turn; false at quit or end of input. */
static bool human_turn(session_t *s, int player)
{
    char name[64], line[256];
    fprintf(s->out, "%s> ", player_name(s->game, player, name, sizeof name));
    fflush(s->out);
    if (!fgets(line, sizeof line, s->in))
        return false;
    if (!strchr(line, '\n') && !feof(s->in)) { /* a line too long: drop the rest */
        int c;
        while ((c = fgetc(s->in)) != EOF && c != '\n')
            ;
        fprintf(s->out, "error: line too long\n");
        return true;
    }
    char word[256] = "";
    if (sscanf(line, "%255s", word) != 1)
        return true;
    if (strcmp(word, "quit") == 0 || strcmp(word, "exit") == 0)
        return false;
    if (strcmp(word, "moves") == 0) list_moves(s);
    else if (strcmp(word, "help") == 0) help(s);
    else if (strcmp(word, "board") == 0) show(s);
    else if (strcmp(word, "undo") == 0) {
        undo(s);
        show(s);
    } else if (strcmp(word, "new") == 0) {
        take_back(s, s->rec.plies);
        show(s);
    } else if (strcmp(word, "hint") == 0) {
        search_result_t r = think(s, s->movetime_ms, SKILL_MAX);
        describe(s, "hint:", r.best, &r);
    } else {
        move_t m = s->game->parse_move(&s->rec.pos, word);
        if (m == MOVE_NONE) {
            char why[GAME_ILLEGAL_MAX + 80];
            game_illegal_message(s->game, &s->rec.pos, word, why, sizeof why);
            fprintf(s->out, "error: %s (type 'moves' for the list, 'help' for commands)\n", why);
            return true;
        }
        record_play(&s->rec, m);
        show(s);
    }
    return true;
}

/* After the game: a person may still undo or start anew; false to end. */
static bool after_game(session_t *s, outcome_t o)
{
    char names[160] = "", name[64];
    for (int p = 0; p < s->game->players; p++)
        if (o.players & player_bit(p))
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", names[0] ? ", " : "",
                     player_name(s->game, p, name, sizeof name));
    if (o.kind == OUTCOME_WIN)
        fprintf(s->out, "game over: %s won (%s)\n", names, o.reason);
    else
        fprintf(s->out, "game over: draw (%s)\n", o.reason);
    bool anyone = false;
    for (int p = 0; p < s->game->players; p++)
        anyone |= s->human[p];
    if (!anyone)
        return false;
    for (;;) {
        char line[256], word[256] = "";
        fprintf(s->out, "undo, new or quit> ");
        fflush(s->out);
        if (!fgets(line, sizeof line, s->in))
            return false;
        sscanf(line, "%255s", word);
        if (strcmp(word, "quit") == 0 || strcmp(word, "exit") == 0)
            return false;
        if (strcmp(word, "undo") == 0 || strcmp(word, "new") == 0) {
            if (word[0] == 'u')
                undo(s);
            else
                take_back(s, s->rec.plies);
            show(s);
            return true;
        }
        fprintf(s->out, "error: the game is over: type undo, new or quit\n");
    }
}

int play_main(int argc, char **argv, FILE *in, FILE *out)
{
    static session_t s;
    memset(&s, 0, sizeof s);
    if (!read_args(argc, argv, &s))
        return 2;
    s.in = in;
    s.out = out;
    s.ansi = isatty(fileno(out)) != 0;
    s.dice = (rng_t){(uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull + 1};
    s.skill_rng = skill_rng_new();
    s.searcher = searcher_new(PLAY_HASH_MB);
    position_t start;
    s.game->set_start(&start);
    if (!s.searcher || !record_init(&s.rec, s.game, &start)) {
        fprintf(stderr, "denham: out of memory\n");
        return 1;
    }
    game_prepare(s.game); /* the solved endings, before any timed search (a search never builds them) */
    fprintf(out, "Denham plays %s.\n", s.game->name);
    help(&s);
    show(&s);
    for (bool going = true; going;) {
        outcome_t o = record_outcome(&s.rec);
        if (o.kind != OUTCOME_NONE) {
            going = after_game(&s, o);
            continue;
        }
        if (game_at_chance(s.game, &s.rec.pos)) {
            roll(&s);
            continue;
        }
        int p = s.game->to_move(&s.rec.pos);
        if (s.human[p]) {
            going = human_turn(&s, p);
            continue;
        }
        char name[64];
        search_result_t r = think(&s, s.movetime_ms, s.skill);
        char who[80];
        snprintf(who, sizeof who, "%s: Denham plays", player_name(s.game, p, name, sizeof name));
        describe(&s, who, r.best, &r);
        record_play(&s.rec, r.best);
        show(&s);
    }
    record_free(&s.rec);
    searcher_free(s.searcher);
    return 0;
}
