/*
 * game.c: helpers shared by every game implementation.
 * Core: includes nothing above engine/core/ and names no game.
 */
#include "game.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

move_t game_find_move(const game_t *g, const position_t *pos, const char *text)
{
    move_t moves[MAX_MOVES];
    int n = g->gen_moves(pos, moves);
    char buf[GAME_MOVE_TEXT_MAX];
    for (int i = 0; i < n; i++) {
        g->move_text(pos, moves[i], buf, sizeof buf);
        if (strcmp(buf, text) == 0)
            return moves[i];
    }
    return MOVE_NONE;
}

void game_why_add(game_why_t *why, const char *cell)
{
    for (int i = 0; i < why->cells; i++)
        if (strcmp(why->cell[i], cell) == 0)
            return;
    if (why->cells < GAME_DECISIVE_MAX)
        snprintf(why->cell[why->cells++], GAME_CELL_NAME_MAX, "%s", cell);
}

void game_explain_illegal(const game_t *g, const position_t *pos, const char *text, char *buf, size_t len)
{
    move_t moves[MAX_MOVES];
    if (g->gen_moves(pos, moves) == 0)
        snprintf(buf, len, "the game is over");
    else if (g->explain_illegal)
        g->explain_illegal(pos, text, buf, len);
    else
        snprintf(buf, len, "it is not one of the legal moves here");
}

void game_illegal_message(const game_t *g, const position_t *pos, const char *text, char *buf, size_t len)
{
    char why[GAME_ILLEGAL_MAX];
    game_explain_illegal(g, pos, text, why, sizeof why);
    snprintf(buf, len, "illegal move '%.63s': %s", text, why);
}

void game_lower(const char *text, char *out, size_t len)
{
    size_t n = 0;
    for (; text[n] && n + 1 < len; n++)
        out[n] = (char)tolower((unsigned char)text[n]);
    out[n] = 0;
}

move_t game_roll(const game_t *g, const position_t *pos, rng_t *rng)
{
    move_t rolls[MAX_MOVES];
    int w[MAX_MOVES], n = g->chance_outcomes(pos, rolls, w), total = 0;
    for (int i = 0; i < n; i++)
        total += w[i];
    int x = (int)rng_below(rng, (uint32_t)total);
    for (int i = 0; i < n; i++) {
        if (x < w[i])
            return rolls[i];
        x -= w[i];
    }
    return rolls[n - 1];
}

void eval_trace_put(eval_trace_t *t, const char *name, int team0, int team1)
{
    if (t->count >= EVAL_TERMS_MAX)
        return;
    t->term[t->count].name = name;
    t->term[t->count].value[0] = team0;
    t->term[t->count].value[1] = team1;
    t->count++;
}

void eval_trace_put_one(eval_trace_t *t, const char *name, int team, int value)
{
    int i = 0;
    while (i < t->count && strcmp(t->term[i].name, name) != 0)
        i++;
    if (i == t->count) {
        if (i >= EVAL_TERMS_MAX)
            return;
        t->count++;
        t->term[i].name = name;
        memset(t->term[i].value, 0, sizeof t->term[i].value);
    }
    t->term[i].value[team] = value;
}

void fen_append_row(char *out, size_t *n, const char *cells, int width)
{
    int empty = 0;
    for (int i = 0; i < width; i++) {
        if (!cells[i]) {
            empty++;
            continue;
        }
        if (empty)
            out[(*n)++] = (char)('0' + empty);
        empty = 0;
        out[(*n)++] = cells[i];
    }
    if (empty)
        out[(*n)++] = (char)('0' + empty);
}

int fen_fields(const char *s, char (*fields)[FEN_FIELD_MAX], int max)
{
    int n = 0;
    for (;;) {
        while (*s == ' ')
            s++;
        if (!*s)
            return n;
        size_t len = strcspn(s, " ");
        if (n == max || len >= FEN_FIELD_MAX)
            return -1;
        memcpy(fields[n], s, len);
        fields[n++][len] = 0;
        s += len;
    }
}

bool game_fail(char *err, size_t len, const char *msg)
{
    snprintf(err, len, "%s", msg);
    return false;
}
