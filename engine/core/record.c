/* record.c: game records and repetition. */
#include "record.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

void record_init(record_t *r, const game_t *g, const position_t *start)
{
    r->game = g;
    r->start = *start;
    r->pos = *start;
    r->plies = 0;
    r->hashes[0] = g->hash(start);
    r->reversible_from = 0;
}

bool record_play(record_t *r, move_t move)
{
    if (r->plies >= RECORD_MAX_PLIES)
        return false;
    undo_t undo;
    r->game->make(&r->pos, move, &undo);
    r->moves[r->plies++] = move;
    r->hashes[r->plies] = r->game->hash(&r->pos);
    if (move & MOVE_IRREVERSIBLE)
        r->reversible_from = r->plies;
    return true;
}

int record_occurrences(const record_t *r)
{
    int count = 0;
    uint64_t key = r->hashes[r->plies];
    for (int i = r->plies; i >= r->reversible_from; i--)
        count += r->hashes[i] == key;
    return count;
}

outcome_t record_outcome(const record_t *r)
{
    const game_t *g = r->game;
    move_t moves[MAX_MOVES];
    if (g->gen_moves(&r->pos, moves) == 0)
        return g->outcome(&r->pos);
    if (g->repetition_draw && record_occurrences(r) >= 3)
        return (outcome_t){OUTCOME_DRAW, game_players_in(g, &r->pos), "threefold repetition"};
    return (outcome_t){OUTCOME_NONE, 0, NULL};
}

int record_legal_moves(const record_t *r, move_t *moves)
{
    if (record_outcome(r).kind != OUTCOME_NONE)
        return 0;
    return r->game->gen_moves(&r->pos, moves);
}

static bool setup_fail(char *err, size_t len, const char *what, const char *arg)
{
    snprintf(err, len, what, arg);
    return false;
}

/* Splits "fen <fen...> [moves ...]" at the word "moves". */
static const char *find_moves_word(const char *s)
{
    for (const char *p = s; (p = strstr(p, "moves")) != NULL; p += 5) {
        bool starts = p == s || p[-1] == ' ' || p[-1] == '\t';
        bool ends = p[5] == 0 || p[5] == ' ' || p[5] == '\t' || p[5] == '\n' || p[5] == '\r';
        if (starts && ends)
            return p;
    }
    return NULL;
}

static const char *skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    return s;
}

bool record_setup(record_t *r, const game_t *g, const char *text, char *err, size_t errlen)
{
    position_t pos;
    const char *s = skip_space(text);
    const char *moves = find_moves_word(s);
    const char *rest;
    if (strncmp(s, "startpos", 8) == 0 && (s[8] == 0 || s[8] == ' ' || s[8] == '\t' || s[8] == '\n')) {
        g->set_start(&pos);
        rest = skip_space(s + 8);
    } else if (strncmp(s, "fen", 3) == 0 && (s[3] == ' ' || s[3] == '\t')) {
        /* The FEN is everything up to "moves", with its spacing normalised. */
        char fen[GAME_FEN_MAX * 2];
        size_t n = 0;
        const char *end = moves ? moves : s + strlen(s);
        bool space = false;
        for (const char *c = skip_space(s + 3); c < end; c++) {
            bool is_space = *c == ' ' || *c == '\t' || *c == '\n' || *c == '\r';
            if (is_space) {
                space = n > 0;
                continue;
            }
            if (n + 2 >= sizeof fen) /* refused, never cut short */
                return setup_fail(err, errlen, "%s", "the FEN is too long");
            if (space)
                fen[n++] = ' ';
            space = false;
            fen[n++] = *c;
        }
        fen[n] = 0;
        char why[160];
        /* Runners whose opening is "startpos" send "position fen startpos". */
        if (strcmp(fen, "startpos") == 0)
            g->set_start(&pos);
        else if (!g->parse_fen(&pos, fen, why, sizeof why)) {
            snprintf(err, errlen, "bad FEN '%s': %s", fen, why);
            return false;
        }
        rest = end;
    } else {
        return setup_fail(err, errlen, "%s", "usage: position startpos|fen <fen> [moves <move>...]");
    }
    record_init(r, g, &pos);
    rest = skip_space(rest);
    if (!*rest)
        return true;
    if (rest != moves) {
        char word[64];
        sscanf(rest, "%63s", word);
        return setup_fail(err, errlen, "expected 'moves', got '%s'", word);
    }
    for (const char *c = skip_space(rest + 5); *c; c = skip_space(c)) {
        char word[64];
        size_t n = 0;
        while (c[n] && c[n] != ' ' && c[n] != '\t' && c[n] != '\n' && c[n] != '\r')
            n++;
        snprintf(word, sizeof word, "%.*s", (int)(n < 63 ? n : 63), c);
        c += n;
        /* A second "moves" continues the list (a runner appending the game
         * to an opening line that had its own). */
        if (strcmp(word, "moves") == 0)
            continue;
        move_t legal[MAX_MOVES];
        if (record_legal_moves(r, legal) == 0)
            return setup_fail(err, errlen, "move '%s': the game is already over", word);
        move_t m = g->parse_move(&r->pos, word);
        if (m == MOVE_NONE)
            return setup_fail(err, errlen, "illegal move '%s'", word);
        if (!record_play(r, m))
            return setup_fail(err, errlen, "%s", "too many moves");
    }
    return true;
}

void record_moves_text(const record_t *r, char *buf, size_t len)
{
    size_t n = strlen(buf);
    position_t pos = r->start;
    n += (size_t)snprintf(buf + n, n < len ? len - n : 0, " moves");
    for (int i = 0; i < r->plies && n < len; i++) {
        char mv[GAME_MOVE_TEXT_MAX];
        undo_t u;
        r->game->move_text(&pos, r->moves[i], mv, sizeof mv);
        r->game->make(&pos, r->moves[i], &u);
        n += (size_t)snprintf(buf + n, n < len ? len - n : 0, " %s", mv);
    }
}
